/**
 * The mock folder on disk (SPEC "File layout of a mock", docs/mock-files.md):
 *
 *   mocks/<mock>/mock.yaml
 *   mocks/<mock>/operations/<operation>/operation.yaml
 *   .../<response>.response.yaml  +  .../<response>.body.<json|xml|txt|bin>
 *   .../dispatch.ts
 *
 * Parsing and serializing are pure (a map of relative paths to text in, a model or a list of file
 * changes out); the fs helpers at the end only read a folder and hand changes to the atomic writer.
 * The YAML files are project files like the others: read by yaml-file.ts's reader (the kinds,
 * versions and migrations are in layout.ts), rewritten by its writer so comments and key order
 * survive; paths go through safe-path.ts and names through file-names.ts.
 */
import { readdir, readFile, lstat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ParleyError, hasCode } from '../errors.js';
import { checkAll } from '../validate-node.js';
import { fileNameKey, isPortableFileName, isSafeFileName, numberedFileName, portableFileName } from './file-names.js';
import { MOCKS_DIR, mockKind, mockOperationKind, mockResponseKind } from './layout.js';
import { assertInsideByText, resolveInside } from './safe-path.js';
import { parseYamlFile, writeYaml, yamlLines, type FileKind } from './yaml-file.js';
import type { Problem } from '../model/common.js';
import {
  DEFAULT_RESPONSE,
  findPlaceholders,
  mockVersionOf,
  placeholdersOutsideJsonStrings,
  type Mock,
  type MockOperation,
  type MockResponse,
} from '../model/mock.js';
import { isMap, isSeq, type Document } from 'yaml';

export { MockYaml, OperationYaml, ResponseYaml } from './mock-file-schemas.js';

export const MOCK_FILE = 'mock.yaml';
export const OPERATION_FILE = 'operation.yaml';
export const DISPATCH_FILE = 'dispatch.ts';
const RESPONSE_SUFFIX = '.response.yaml';
const BODY_EXTENSION = { json: 'json', xml: 'xml', text: 'txt', binary: 'bin' } as const;

/**
 * Relative (posix) path inside a mock folder -> file text; a binary body (`*.body.bin`) as base64,
 * the way the model carries it (`isBinaryBodyFile`).
 */
export type MockFolderFiles = Map<string, string>;

/** A binary body's file: its bytes are read and written as they are, held as base64. */
export function isBinaryBodyFile(rel: string): boolean {
  return rel.endsWith('.body.bin');
}

/** A file change's content as a `MockFolderFiles` entry holds it. */
export function folderEntry(rel: string, content: string | Uint8Array): string {
  if (isBinaryBodyFile(rel)) return Buffer.from(content).toString('base64');
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

/** A change for the atomic writer: `content: null` deletes the file. */
export interface FileChange {
  path: string;
  content: string | Uint8Array | null;
}
export type AtomicWriter = (files: FileChange[]) => Promise<void>;

export interface LoadedMock {
  /** Null when any problem was found: a mock is never half-loaded. */
  mock: Mock | null;
  problems: Problem[];
}

// ---------------------------------------------------------------------------------------------
// Names and paths

export { isSafeFileName };

/**
 * The file name for a new response file (and, in `parley mock new`, a mock folder): the one rule
 * request files follow (`portableFileName`, file-names.ts).
 */
export function responseFileBase(name: string): string {
  return portableFileName(name, { fallback: 'response' });
}

// ---------------------------------------------------------------------------------------------
// Loading

const check = (schema: Parameters<typeof checkAll>[0], value: unknown) => checkAll(schema, value);

class FolderReader {
  readonly problems: Problem[] = [];
  tooNew = false;

  constructor(
    private readonly files: MockFolderFiles,
    private readonly displayRoot: string,
  ) {}

  display(rel: string): string {
    return `${this.displayRoot}/${rel}`;
  }

  problem(rel: string, rule: string, message: string, line?: number): void {
    this.problems.push(line === undefined ? { file: this.display(rel), rule, message } : { file: this.display(rel), line, rule, message });
  }

  /** Reads a YAML file through the project files' reader (version, migrations, schema); null when it cannot be used. */
  readYaml<V>(rel: string, kind: FileKind<V>): { value: V; line: (...path: (string | number)[]) => number } | null {
    const text = this.files.get(rel);
    if (text === undefined) {
      this.problem(rel, 'missing-file', `${rel} is missing.`);
      return null;
    }
    const result = parseYamlFile(text, this.display(rel), kind, check);
    if (!result.ok) {
      this.problems.push(...result.problems);
      if (result.problems.some((p) => p.rule === 'version-too-new')) this.tooNew = true;
      return null;
    }
    // Lines are looked up only for a problem found later, so a good file is parsed once, on the fast path.
    let lines: ((path: (string | number)[]) => number) | undefined;
    return { value: result.value, line: (...path) => (lines ??= yamlLines(text))(path) };
  }
}

/** Line of a character offset in plain text (body files). */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What may sit in a header value around placeholders: tab, visible ASCII, space and obs-text.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Builds the model from the files of one mock folder. `name` is the folder's name; problems name
 * files as `mocks/<name>/<path>`. Files that are not part of the layout are ignored.
 */
export function parseMockFolder(name: string, files: MockFolderFiles): LoadedMock {
  const reader = new FolderReader(files, `mocks/${name}`);
  for (const rel of files.keys()) {
    try {
      assertInsideByText(rel, 'mock file path');
    } catch (err) {
      if (!hasCode(err, 'path-escape')) throw err;
      reader.problem(rel, 'path-escape', `${(err as Error).message} It was not read.`);
    }
  }
  if (reader.problems.length > 0) return { mock: null, problems: reader.problems };

  const mockFile = reader.readYaml(MOCK_FILE, mockKind);
  const operations: MockOperation[] = [];
  const responsesByFolder = responseBases(files);
  const opFolders = [...responsesByFolder.keys()].sort();
  const opIds = new Set<string>();
  for (const folder of opFolders) {
    const op = readOperation(reader, files, folder, responsesByFolder.get(folder)!);
    if (!op) continue;
    if (opIds.has(op.id)) reader.problem(`operations/${folder}/${OPERATION_FILE}`, 'duplicate-id', `Operation id ${op.id} is used twice.`);
    opIds.add(op.id);
    operations.push(op);
  }
  if (!mockFile || reader.problems.length > 0) {
    // A file too new for this release makes the whole mock one refusal, not a list of side effects.
    const problems = reader.tooNew ? reader.problems.filter((p) => p.rule === 'version-too-new') : reader.problems;
    return { mock: null, problems };
  }
  const m = mockFile.value;
  const mock: Mock = {
    version: 1,
    id: m.id,
    name,
    kind: m.kind ?? 'rest',
    ...(m.binding === undefined ? {} : { binding: m.binding }),
    api: m.api,
    port: m.port ?? 0,
    path: m.path ?? '/',
    contractCheck: m.contractCheck ?? 'log',
    operations,
  };
  mock.version = mockVersionOf(mock);
  return { mock, problems: [] };
}

/**
 * Every operation folder with the base names of its response files (sorted), from one pass over
 * the folder's files: a scan of every file per operation made reading a mock of 1,500 operations
 * take seconds.
 */
function responseBases(files: MockFolderFiles): Map<string, string[]> {
  const byFolder = new Map<string, string[]>();
  for (const rel of files.keys()) {
    const match = /^operations\/([^/]+)\/(.+)$/.exec(rel);
    if (!match) continue;
    const [, folder, inside] = match as unknown as [string, string, string];
    let bases = byFolder.get(folder);
    if (!bases) byFolder.set(folder, (bases = []));
    if (inside.endsWith(RESPONSE_SUFFIX) && !inside.includes('/')) bases.push(inside.slice(0, -RESPONSE_SUFFIX.length));
  }
  for (const bases of byFolder.values()) bases.sort();
  return byFolder;
}

function readOperation(reader: FolderReader, files: MockFolderFiles, folder: string, bases: readonly string[]): MockOperation | null {
  const dir = `operations/${folder}`;
  const opRel = `${dir}/${OPERATION_FILE}`;
  if (!isSafeFileName(folder)) reader.problem(opRel, 'unsafe-name', `The operation folder name ${JSON.stringify(folder)} is not a portable file name.`);
  const opFile = reader.readYaml(opRel, mockOperationKind);
  const responses: MockResponse[] = [];
  for (const base of bases) {
    const response = readResponse(reader, files, dir, base);
    if (response) responses.push(response);
  }
  if (!opFile) return null;
  const o = opFile.value;

  const byName = new Map<string, MockResponse>();
  const ids = new Set<string>();
  for (const r of responses) {
    if (byName.has(r.name)) reader.problem(opRel, 'duplicate-name', `Two responses are named ${JSON.stringify(r.name)}.`);
    if (ids.has(r.id)) reader.problem(opRel, 'duplicate-id', `Response id ${r.id} is used twice.`);
    byName.set(r.name, r);
    ids.add(r.id);
  }
  // The order list gives In order and match order; responses it does not list follow by name.
  const ordered: MockResponse[] = [];
  (o.responses ?? []).forEach((listed, i) => {
    const r = byName.get(listed);
    if (!r) reader.problem(opRel, 'unknown-response', `responses lists ${JSON.stringify(listed)}, but no response file has that name.`, opFile.line('responses', i));
    else if (!ordered.includes(r)) ordered.push(r);
  });
  for (const r of responses) if (!ordered.includes(r)) ordered.push(r);

  if (o.default !== undefined && !byName.has(o.default)) {
    reader.problem(opRel, 'unknown-response', `default names ${JSON.stringify(o.default)}, but no response has that name.`, opFile.line('default'));
  }
  const script = files.get(`${dir}/${DISPATCH_FILE}`);
  const dispatch = o.dispatch ?? 'in-order';
  if (dispatch === 'script' && script === undefined) {
    reader.problem(opRel, 'missing-dispatch-script', `dispatch is script but ${dir}/${DISPATCH_FILE} is missing.`, opFile.line('dispatch'));
  }
  const op: MockOperation = {
    id: o.id,
    name: folder,
    method: o.method.toUpperCase(),
    path: o.path,
    dispatch,
    defaultResponse: o.default ?? DEFAULT_RESPONSE,
    responses: ordered,
  };
  if (o.operationId !== undefined) op.operationId = o.operationId;
  if (script !== undefined) op.script = script;
  return op;
}

function readResponse(reader: FolderReader, files: MockFolderFiles, dir: string, base: string): MockResponse | null {
  const rel = `${dir}/${base}${RESPONSE_SUFFIX}`;
  const file = reader.readYaml(rel, mockResponseKind);
  if (!file) return null;
  const r = file.value;
  const before = reader.problems.length;

  let text = '';
  if (r.body !== 'none') {
    const bodyRel = `${dir}/${base}.body.${BODY_EXTENSION[r.body]}`;
    const body = files.get(bodyRel);
    if (body === undefined) reader.problem(rel, 'missing-body-file', `body is ${r.body} but ${bodyRel} is missing.`, file.line('body'));
    else text = body;
  }
  const headers = r.headers ?? [];
  const values = r.values ?? {};
  headers.forEach((h, i) => {
    if (!HEADER_NAME.test(h.name)) reader.problem(rel, 'header-name', `Header name ${JSON.stringify(h.name)} is not a valid header name.`, file.line('headers', i, 'name'));
    if (!HEADER_VALUE.test(h.value)) reader.problem(rel, 'header-value', `The value of header ${h.name} holds a line break or a character a header may not hold.`, file.line('headers', i, 'value'));
    for (const p of findPlaceholders(h.value)) {
      if (!Object.hasOwn(values, p.name)) reader.problem(rel, 'undeclared-value', `{{${p.name}}} in header ${h.name} names no declared value (declare it under values).`, file.line('headers', i, 'value'));
    }
  });
  const bodyRel = `${dir}/${base}.body.${r.body === 'none' ? 'txt' : BODY_EXTENSION[r.body]}`;
  // A binary body's bytes are sent as they are: no placeholder is looked for in them.
  for (const p of r.body === 'binary' ? [] : findPlaceholders(text)) {
    if (!Object.hasOwn(values, p.name)) reader.problem(bodyRel, 'undeclared-value', `{{${p.name}}} in the body of ${rel} names no declared value (declare it under values).`, lineAt(text, p.start));
  }
  if (r.body === 'json') {
    for (const p of placeholdersOutsideJsonStrings(text)) {
      reader.problem(bodyRel, 'placeholder-outside-json-string', `{{${p.name}}} in the JSON body of ${rel} must sit inside a JSON string.`, lineAt(text, p.start));
    }
  }
  (r.match ?? []).forEach((c, i) => {
    if ((c.check === 'equals' || c.check === 'regex') && c.value === undefined) {
      reader.problem(rel, 'match-value-missing', `match ${i + 1} checks ${c.check} but has no value.`, file.line('match', i));
    }
    if (c.check === 'regex' && c.value !== undefined) {
      try {
        new RegExp(c.value, 'u');
      } catch {
        reader.problem(rel, 'bad-regex', `match ${i + 1}: the regular expression does not compile.`, file.line('match', i, 'value'));
      }
    }
  });
  if (reader.problems.length > before) return null;

  const response: MockResponse = {
    id: r.id,
    name: r.name,
    status: r.status ?? 200,
    delayMs: r.delay ?? 0,
    headers,
    body: { kind: r.body, text },
    values,
    match: r.match ?? [],
  };
  if (r.scenario) response.scenario = r.scenario;
  return response;
}

// ---------------------------------------------------------------------------------------------
// Saving

/** What each file would say, before defaults are dropped; key order is the order new files get. */
function mockYamlOf(mock: Mock, version: number): Record<string, unknown> {
  return { version, id: mock.id, kind: mock.kind, binding: mock.binding, api: mock.api, port: mock.port, path: mock.path, contractCheck: mock.contractCheck };
}

function operationYamlOf(op: MockOperation, version: number): Record<string, unknown> {
  return {
    version,
    id: op.id,
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    dispatch: op.dispatch,
    default: op.defaultResponse,
    responses: op.responses.map((r) => r.name),
  };
}

function responseYamlOf(r: MockResponse, version: number): Record<string, unknown> {
  return {
    version,
    id: r.id,
    name: r.name,
    status: r.status,
    delay: r.delayMs,
    body: r.body.kind,
    headers: r.headers.map((h) => ({ name: h.name, value: h.value })),
    values: r.values,
    scenario: r.scenario,
    match: r.match,
  };
}

/** Optional keys left out of a file when they hold their default, unless the file already has them. */
const DEFAULTS: Record<string, unknown> = {
  kind: 'rest',
  port: 0,
  path: '/',
  contractCheck: 'log',
  dispatch: 'in-order',
  default: DEFAULT_RESPONSE,
  status: 200,
  delay: 0,
  headers: [],
  values: {},
  match: [],
};
/** A new file still spells out the settings people look for (status, dispatch, port...). */
const OMITTED_IN_NEW_FILES = new Set(['default', 'delay', 'headers', 'values', 'match']);

interface ExistingFiles {
  opFolderById: Map<string, string>;
  /** `${opId}/${responseId}` -> base name and the name it held. */
  responseById: Map<string, { base: string; name: string }>;
  /** Relative path -> what the YAML file says, for the files that read. */
  values: Map<string, Record<string, unknown>>;
}

function indexExisting(files: MockFolderFiles): ExistingFiles {
  const opFolderById = new Map<string, string>();
  const responseById = new Map<string, { base: string; name: string }>();
  const opIdOfFolder = new Map<string, string>();
  const values = new Map<string, Record<string, unknown>>();
  const read = <V>(rel: string, text: string, kind: FileKind<V>): V | null => {
    const result = parseYamlFile(text, rel, kind, check);
    if (!result.ok) return null;
    values.set(rel, result.value as Record<string, unknown>);
    return result.value;
  };
  for (const [rel, text] of files) {
    if (rel === MOCK_FILE) read(rel, text, mockKind);
    const m = /^operations\/([^/]+)\/operation\.yaml$/.exec(rel);
    const id = m ? read(rel, text, mockOperationKind)?.id : undefined;
    if (m && id !== undefined) {
      opFolderById.set(id, m[1]!);
      opIdOfFolder.set(m[1]!, id);
    }
  }
  for (const [rel, text] of files) {
    const m = /^operations\/([^/]+)\/([^/]+)\.response\.yaml$/.exec(rel);
    if (!m) continue;
    const opId = opIdOfFolder.get(m[1]!);
    const value = read(rel, text, mockResponseKind);
    if (opId && value) responseById.set(`${opId}/${value.id}`, { base: m[2]!, name: value.name });
  }
  return { opFolderById, responseById, values };
}

/**
 * The file changes that make a mock folder hold `mock`, given what the folder holds now
 * (relative paths). Unchanged files are left out; files of the layout that no longer belong are
 * deleted; a user's YAML is edited in place so comments and key order survive.
 */
export function serializeMockFolder(mock: Mock, existing: MockFolderFiles): FileChange[] {
  const version = mockVersionOf(mock);
  const index = indexExisting(existing);
  const wanted = new Map<string, string>();
  const put = (rel: string, content: string) => {
    assertInsideByText(rel, 'mock file path');
    wanted.set(rel, content);
  };
  const putYaml = (rel: string, value: Record<string, unknown>, previousRel?: string) => {
    const from = existing.has(previousRel ?? rel) ? (previousRel ?? rel) : rel;
    put(rel, renderYaml(value, existing.get(from), index.values.get(from)));
  };

  putYaml(MOCK_FILE, mockYamlOf(mock, version));
  const opFolders = new Set<string>();
  for (const op of mock.operations) {
    const oldFolder = index.opFolderById.get(op.id);
    // A folder already on disk keeps loading; a new name must work on every OS.
    if (!(op.name === oldFolder ? isSafeFileName : isPortableFileName)(op.name)) {
      throw new ParleyError('path-escape', `The operation name ${JSON.stringify(op.name)} cannot be a folder name inside the mock (it must work on Windows, macOS and Linux).`, { operation: op.id });
    }
    if (opFolders.has(fileNameKey(op.name))) throw new ParleyError('conflict', `Two operations are named ${JSON.stringify(op.name)}.`);
    opFolders.add(fileNameKey(op.name));
    // A rename by letter case only keeps the folder: macOS and Windows disks cannot tell them apart.
    const dir = `operations/${oldFolder && fileNameKey(oldFolder) === fileNameKey(op.name) ? oldFolder : op.name}`;
    const oldDir = oldFolder ? `operations/${oldFolder}` : dir;
    putYaml(`${dir}/${OPERATION_FILE}`, operationYamlOf(op, version), `${oldDir}/${OPERATION_FILE}`);
    if (op.script !== undefined) put(`${dir}/${DISPATCH_FILE}`, op.script);

    const bases = new Set<string>();
    for (const r of op.responses) {
      const old = index.responseById.get(`${op.id}/${r.id}`);
      // Keep a hand-picked file name while the response keeps its name (or changes only its case).
      let base = old && (old.name === r.name || fileNameKey(old.base) === fileNameKey(responseFileBase(r.name))) ? old.base : responseFileBase(r.name);
      for (let n = 2; bases.has(fileNameKey(base)); n++) base = numberedFileName(responseFileBase(r.name), n);
      bases.add(fileNameKey(base));
      putYaml(`${dir}/${base}${RESPONSE_SUFFIX}`, responseYamlOf(r, version), old ? `${oldDir}/${old.base}${RESPONSE_SUFFIX}` : undefined);
      if (r.body.kind !== 'none') put(`${dir}/${base}.body.${BODY_EXTENSION[r.body.kind]}`, r.body.text);
    }
  }

  const changes: FileChange[] = [];
  // A binary body is compared as the base64 both sides hold, and written as its bytes.
  for (const [rel, content] of wanted) if (existing.get(rel) !== content) changes.push({ path: rel, content: isBinaryBodyFile(rel) ? Buffer.from(content, 'base64') : content });
  // On a case-insensitive disk `Default.x` and `default.x` are one file: deleting the old spelling
  // after writing the new one would lose it, so such a file is only rewritten.
  const folded = (rel: string) => rel.split('/').map(fileNameKey).join('/');
  const wantedFolded = new Set([...wanted.keys()].map(folded));
  for (const rel of existing.keys()) {
    if (!wanted.has(rel) && isLayoutFile(rel) && !wantedFolded.has(folded(rel))) changes.push({ path: rel, content: null });
  }
  return changes;
}

function isLayoutFile(rel: string): boolean {
  return (
    rel === MOCK_FILE ||
    /^operations\/[^/]+\/(operation\.yaml|dispatch\.ts|[^/]+\.response\.yaml|[^/]+\.body\.(json|xml|txt|bin))$/.test(rel)
  );
}

/**
 * Writes a mock file through the project files' writer (yaml-file.ts): keys holding their default
 * are left out of a new file (`previousValue`, what the file on disk says, keeps those it has), and
 * template values read best on one line in a new file.
 */
export function renderYaml(value: Record<string, unknown>, previous?: string, previousValue?: Record<string, unknown>): string {
  // An unreadable file on disk counts as new: writeYaml replaces what it cannot patch.
  const had = previous === undefined ? undefined : previousValue;
  const trimmed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const omit = had ? !Object.hasOwn(had, k) : OMITTED_IN_NEW_FILES.has(k);
    if (omit && Object.hasOwn(DEFAULTS, k) && sameDefault(v, DEFAULTS[k])) continue;
    trimmed[k] = v;
  }
  return writeYaml(trimmed, previous, { styleNew: flowSources });
}

/** Whether a value is its key's default (defaults are scalars or empty lists and maps). */
function sameDefault(value: unknown, fallback: unknown): boolean {
  if (Array.isArray(fallback)) return Array.isArray(value) && value.length === 0;
  if (typeof fallback === 'object' && fallback !== null) return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
  return value === fallback;
}

/** Value sources read best on one line: `id: { from: path, name: id }`. */
function flowSources(doc: Document): void {
  if (!isMap(doc.contents)) return;
  const values = doc.contents.get('values', true);
  if (isMap(values)) for (const pair of values.items) if (isMap(pair.value)) pair.value.flow = true;
  const match = doc.contents.get('match', true);
  if (isSeq(match)) {
    for (const item of match.items) {
      const source = isMap(item) ? item.get('source', true) : undefined;
      if (isMap(source)) source.flow = true;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Thin fs helpers

/**
 * Reads every file of a mock folder that the layout could use (two levels under operations/).
 * Links are not followed: a file that is a link is skipped, and so is one that a linked folder
 * would lead out of the mock folder (`resolveInside`).
 */
export async function readMockFolder(mockDir: string): Promise<MockFolderFiles> {
  const files: MockFolderFiles = new Map();
  const readIfFile = async (rel: string) => {
    let abs: string;
    try {
      abs = resolveInside(mockDir, rel, 'mock file');
    } catch (err) {
      if (hasCode(err, 'path-escape')) return;
      throw err;
    }
    const info = await lstat(abs).catch(() => null);
    if (info?.isFile()) files.set(rel, isBinaryBodyFile(rel) ? (await readFile(abs)).toString('base64') : await readFile(abs, 'utf8'));
  };
  await readIfFile(MOCK_FILE);
  const opsDir = join(mockDir, 'operations');
  // A linked operations folder is not even listed (lstat does not follow the link).
  const opsInfo = await lstat(opsDir).catch(() => null);
  const opEntries = opsInfo?.isDirectory() ? await readdir(opsDir, { withFileTypes: true }).catch(() => []) : [];
  for (const op of opEntries) {
    if (!op.isDirectory()) continue;
    const inner = await readdir(join(opsDir, op.name), { withFileTypes: true });
    for (const f of inner) if (f.isFile()) await readIfFile(`operations/${op.name}/${f.name}`);
  }
  return files;
}

/** Loads `mocks/<name>` from disk; the folder's name is the mock's name. */
export async function loadMockFolder(mockDir: string): Promise<LoadedMock> {
  return parseMockFolder(basename(mockDir), await readMockFolder(mockDir));
}

/** The folder a mock of this name lives in, under the project folder (never out of it, by name or by a link). */
export function mockFolderOf(projectDir: string, mockName: string): string {
  if (!isSafeFileName(mockName)) throw new ParleyError('path-escape', `The mock name ${JSON.stringify(mockName)} cannot be a folder name.`);
  return resolveInside(projectDir, `${MOCKS_DIR}/${mockName}`, 'mock folder');
}

/**
 * Saves a mock into `mockDir` through the atomic writer, with absolute paths. Returns the changes
 * made (relative paths), which is empty when nothing changed.
 */
export async function saveMockFolder(mockDir: string, mock: Mock, write: AtomicWriter): Promise<FileChange[]> {
  const changes = serializeMockFolder(mock, await readMockFolder(mockDir));
  if (changes.length === 0) return changes;
  await write(changes.map((c) => ({ path: resolveInside(mockDir, c.path, 'mock file'), content: c.content })));
  return changes;
}
