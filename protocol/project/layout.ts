/**
 * The on-disk layout of a project folder (YAML that diffs well in git):
 *
 *   parley.yaml                                 the project (name, properties)
 *   apis/<api>/api.yaml                         an API (base URL, auth, definition record, its place)
 *   apis/<api>/definition/...                   its cached definition documents
 *   apis/<api>/requests/[<folder>/...]<name>.request.yaml   requests; sub-folders are folders
 *   apis/<api>/requests/<folder>/.../folder.yaml            a folder's place and settings (absent in older projects)
 *   mocks/<mock>/mock.yaml ...                  mocks (see docs/mock-files.md)
 *   files/...                                   body files (binary bodies, multipart file parts), picked files copied in
 *   imported-scripts/...                        scripts kept as text by importers, never run
 */
import { FolderFile, ProjectFile } from '../model/project.js';
import { Api } from '../model/api.js';
import { Request } from '../model/request.js';
import { MOCK_FILES_VERSION } from '../model/mock.js';
import { MockYaml, OperationYaml, ResponseYaml } from './mock-file-schemas.js';
import type { FileKind } from './yaml-file.js';

export const PROJECT_FILE = 'parley.yaml';
export const APIS_DIR = 'apis';
export const API_FILE = 'api.yaml';
export const REQUESTS_DIR = 'requests';
export const DEFINITION_DIR = 'definition';
export const MOCKS_DIR = 'mocks';
/** Body files: a request names one by its path in the project, and Send reads nothing outside (docs/project-files.md). */
export const FILES_DIR = 'files';
/** Scripts importers keep as text (SoapUI Groovy, .http handlers), never run. */
export const IMPORTED_SCRIPTS_DIR = 'imported-scripts';
export const REQUEST_SUFFIX = '.request.yaml';
/** A folder's own file, inside it (model/project.ts `FolderFile`); no folder of requests can take this name. */
export const FOLDER_FILE = 'folder.yaml';

export const projectKind: FileKind<ProjectFile> = { label: 'project', schema: ProjectFile, version: 1 };
export const apiKind: FileKind<Api> = { label: 'API', schema: Api, version: 1 };
export const folderKind: FileKind<FolderFile> = { label: 'folder', schema: FolderFile, version: 1 };
/**
 * Version 2 adds assertions, 3 captures, 4 GraphQL (a body, an assertion on its errors); an older
 * file reads as it is (requestForFile writes each request's own version back).
 */
export const requestKind: FileKind<Request> = { label: 'request', schema: Request, version: 4, migrations: { 1: (value) => value, 2: (value) => value, 3: (value) => value } };
/**
 * The YAML files of a mock folder (docs/mock-files.md). Version 2 adds template `values`, version
 * 3 binary bodies (`body: binary`); an older file reads as it is (a save writes the version the
 * mock needs, `mockVersionOf`), and a release that knows only 2 refuses a mock with a binary body
 * as too new instead of misreading it.
 */
const mockMigrations = { 1: (value: Record<string, unknown>) => value, 2: (value: Record<string, unknown>) => value };
export const mockKind: FileKind<MockYaml> = { label: 'mock', schema: MockYaml, version: MOCK_FILES_VERSION, migrations: mockMigrations };
export const mockOperationKind: FileKind<OperationYaml> = { label: 'mock operation', schema: OperationYaml, version: MOCK_FILES_VERSION, migrations: mockMigrations };
export const mockResponseKind: FileKind<ResponseYaml> = { label: 'mock response', schema: ResponseYaml, version: MOCK_FILES_VERSION, migrations: mockMigrations };
