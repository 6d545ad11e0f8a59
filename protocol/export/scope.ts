/**
 * What an export reads (docs/export.md): one API, or one folder of it, with its folders and
 * requests in Parley's order and what they inherit. The supervisor reads it from the project
 * (processes/supervisor/export/); each format's converter (processes/importer/engine/export/)
 * turns it into text, as pure code.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import type { FolderScope } from '../inheritance.js';
import type { AnyRequest } from '../kinds/index.js';
import type { Api } from '../model/api.js';
import type { Row } from '../model/common.js';
import type { Example } from '../model/example.js';
import type { FolderSettings } from '../model/project.js';

export const EXPORT_FORMATS = ['postman', 'openapi'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Each format's name in words and the file name ending it is saved with. */
export const EXPORT_FORMAT_INFO: Readonly<Record<ExportFormat, { label: string; extension: string }>> = {
  postman: { label: 'Postman collection v2.1', extension: '.postman_collection.json' },
  openapi: { label: 'OpenAPI 3.1 (for an API without a definition)', extension: '.openapi.json' },
};

/** The format as it travels (`project.export`). */
export const ExportFormatField = T.Union(EXPORT_FORMATS.map((f) => T.Literal(f)));

/** What an export reads: an API by its id, or a folder by its tree id. */
export const ExportTarget = T.Object({ kind: T.Union([T.Literal('api'), T.Literal('folder')]), id: T.String({ minLength: 1 }) });
export type ExportTarget = Static<typeof ExportTarget>;

/** What an export wrote: the file, how many requests, and what it could not carry. */
export const ExportDone = T.Object({ file: T.String(), requests: T.Integer({ minimum: 0 }), notes: T.Array(T.String()) });
export type ExportDone = Static<typeof ExportDone>;

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

export interface ExportRequest {
  kind: 'request';
  request: AnyRequest;
  /** Responses saved as its examples (docs/history.md): what an OpenAPI export infers schemas from. */
  examples: Example[];
}

export interface ExportFolder {
  kind: 'folder';
  name: string;
  /** Its folder.yaml's settings (none set: auth inherit, no rows). */
  settings: FolderSettings;
  /** Its folders and requests, in the sidebar's order. */
  items: ExportItem[];
}

export type ExportItem = ExportFolder | ExportRequest;

export interface ExportScope {
  /** What was chosen: the API, or one folder of it (then `root` is the folder). */
  of: 'api' | 'folder';
  projectName: string;
  /** The project's properties: what `${name}` reads under the environment. */
  properties: Row[];
  api: Api;
  /** The folders above the exported folder, outermost first (none for an API): what it inherits. */
  above: FolderScope[];
  /** The API (its name, no settings) or the exported folder, with everything in it. */
  root: ExportFolder;
}

/** What a converter made: the file's text, and what it could not carry (shown to the user). */
export interface ExportResult {
  text: string;
  /** Requests written. */
  requests: number;
  /** One line each: what was left out or changed on the way, in the user's words. */
  notes: string[];
}
