/**
 * The mock folder on disk (SPEC "File layout of a mock", docs/mock-files.md):
 *
 *   mocks/<mock>/mock.yaml
 *   mocks/<mock>/operations/<operation>/operation.yaml
 *   .../<response>.response.yaml  +  .../<response>.body.<json|xml|txt>
 *   .../dispatch.ts
 *
 * Parsing and serializing are pure (a map of relative paths to text in, a model or a list of file
 * changes out); the fs helpers at the end only read a folder and hand changes to the atomic writer.
 * Saving rewrites a user's YAML through the `yaml` Document API, so comments and key order survive.
 */
import { pointerSegments } from '../json-pointer.js';
import { readdir, readFile, lstat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { Type as T, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Document, LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { ParleyError } from '../errors.js';
import { fileNameKey, isPortableFileName, isSafeFileName, numberedFileName, portableFileName } from './file-names.js';
import { Id, type Problem } from '../model/common.js';
import {
  ContractCheckMode,
  DEFAULT_RESPONSE,
  DispatchMode,
  MOCK_FILES_VERSION,
  MatchCondition,
  MockBodyKind,
  MockHeader,
  ScenarioSettings,
  ValueSource,
  findPlaceholders,
  mockVersionOf,
  placeholdersOutsideJsonStrings,
  type Mock,
  type MockOperation,
  type MockResponse,
} from '../model/mock.js';

// ---------------------------------------------------------------------------------------------
// File schemas: the keys each file may hold. Unknown keys are refused so a typo is reported.

const FileVersion = T.Integer({ minimum: 1 });

export const MockYaml = T.Object(
  {
    version: FileVersion,
    id: Id,
    kind: T.Optional(T.Union([T.Literal('rest'), T.Literal('soap')])),
    /** SOAP: the WSDL binding mocked. */
    binding: T.Optional(T.String({ minLength: 1 })),
    api: T.String(),
    port: T.Optional(T.Integer({ minimum: 0, maximum: 65535 })),
    path: T.Optional(T.String({ pattern: '^/' })),
    contractCheck: T.Optional(ContractCheckMode),
  },
  { additionalProperties: false },
);
export type MockYaml = Static<typeof MockYaml>;

export const OperationYaml = T.Object(
  {
    version: FileVersion,
    id: Id,
    method: T.String({ minLength: 1 }),
    path: T.String({ minLength: 1 }),
    operationId: T.Optional(T.String()),
    dispatch: T.Optional(DispatchMode),
    default: T.Optional(T.String({ minLength: 1 })),
    responses: T.Optional(T.Array(T.String({ minLength: 1 }))),
  },
  { additionalProperties: false },
);
export type OperationYaml = Static<typeof OperationYaml>;

export const ResponseYaml = T.Object(
  {
    version: FileVersion,
    id: Id,
    name: T.String({ minLength: 1 }),
    status: T.Optional(T.Integer({ minimum: 100, maximum: 599 })),
    delay: T.Optional(T.Integer({ minimum: 0, maximum: 600_000 })),
    body: MockBodyKind,
    headers: T.Optional(T.Array(MockHeader)),
    values: T.Optional(T.Record(T.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' }), ValueSource)),
    scenario: T.Optional(ScenarioSettings),
    match: T.Optional(T.Array(MatchCondition)),
  },
  { additionalProperties: false },
);
export type ResponseYaml = Static<typeof ResponseYaml>;

export const MOCK_FILE = 'mock.yaml';
export const OPERATION_FILE = 'operation.yaml';
export const DISPATCH_FILE = 'dispatch.ts';
const RESPONSE_SUFFIX = '.response.yaml';
const BODY_EXTENSION = { json: 'json', xml: 'xml', text: 'txt' } as const;

/** Relative (posix) path inside a mock folder -> file text. */
export type MockFolderFiles = Map<string, string>;

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

/** A file name for a response name, portable to every OS: characters no OS allows become `_`. */
export function responseFileBase(name: string): string {
  return portableFileName(name, { fill: '_', fallback: '_' });
}

/** Refuses a relative path that is absolute or climbs out of its folder. */
export function assertInsideFolder(relative: string): void {
  const parts = relative.split(/[/\\]/);
  if (relative.startsWith('/') || /^[A-Za-z]:/.test(relative) || parts.some((p) => p === '..' || p === '')) {
    throw new ParleyError('path-escape', `The path ${JSON.stringify(relative)} leaves the mock folder.`, { path: relative });
  }
}

// ---------------------------------------------------------------------------------------------
// Loading

interface ParsedYaml {
  doc: Document.Parsed;
  lines: LineCounter;
  value: unknown;
}

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

  /** Parses a YAML file and checks its version and schema; null when it cannot be used. */
  readYaml<S extends TSchema>(rel: string, schema: S): { value: Static<S>; parsed: ParsedYaml } | null {
    const text = this.files.get(rel);
    if (text === undefined) {
      this.problem(rel, 'missing-file', `${rel} is missing.`);
      return null;
    }
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      const err = doc.errors[0]!;
      this.problem(rel, 'yaml-syntax', `Not valid YAML: ${err.message.split('\n')[0]}`, err.linePos?.[0].line);
      return null;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch {
      this.problem(rel, 'yaml-syntax', 'The file uses too many aliases to be read.');
      return null;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(rel, 'not-a-map', `${rel} must be a YAML map of keys.`, 1);
      return null;
    }
    const parsed = { doc, lines, value };
    const version = (value as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && Number.isInteger(version) && version > MOCK_FILES_VERSION) {
      this.tooNew = true;
      this.problem(
        rel,
        'version-too-new',
        `${rel} has version ${version}, newer than this release reads (up to ${MOCK_FILES_VERSION}). Update Parley to open this mock; it was left alone.`,
        lineOf(parsed, ['version']),
      );
      return null;
    }
    let ok = true;
    const seen = new Set<string>();
    for (const error of Value.Errors(schema, value)) {
      const path = pointerSegments(error.path);
      const key = error.path || '/';
      // A union reports once per branch; the first message for a place is enough.
      if (seen.has(key) || [...seen].some((s) => key.startsWith(`${s}/`))) continue;
      seen.add(key);
      ok = false;
      this.problem(rel, 'schema', `${error.path || 'The file'}: ${error.message}`, lineOf(parsed, path));
      if (seen.size >= 10) break;
    }
    return ok ? { value: value as Static<S>, parsed } : null;
  }
}

/** The 1-based line of the deepest node found along `path`. */
function lineOf(parsed: ParsedYaml, path: string[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const keys = path.slice(0, n).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    const node = n === 0 ? parsed.doc.contents : parsed.doc.getIn(keys, true);
    if (isNode(node) && node.range) return parsed.lines.linePos(node.range[0]).line;
  }
  return undefined;
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
      assertInsideFolder(rel);
    } catch {
      reader.problem(rel, 'path-escape', `The path ${JSON.stringify(rel)} leaves the mock folder and was not read.`);
    }
  }
  if (reader.problems.length > 0) return { mock: null, problems: reader.problems };

  const mockFile = reader.readYaml(MOCK_FILE, MockYaml);
  const operations: MockOperation[] = [];
  const opFolders = [...new Set([...files.keys()].map((rel) => /^operations\/([^/]+)\//.exec(rel)?.[1]).filter((f): f is string => !!f))].sort();
  const opIds = new Set<string>();
  for (const folder of opFolders) {
    const op = readOperation(reader, files, folder);
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

function readOperation(reader: FolderReader, files: MockFolderFiles, folder: string): MockOperation | null {
  const dir = `operations/${folder}`;
  const opRel = `${dir}/${OPERATION_FILE}`;
  if (!isSafeFileName(folder)) reader.problem(opRel, 'unsafe-name', `The operation folder name ${JSON.stringify(folder)} is not a portable file name.`);
  const opFile = reader.readYaml(opRel, OperationYaml);
  const responses: MockResponse[] = [];
  const bases = [...files.keys()]
    .filter((rel) => rel.startsWith(`${dir}/`) && rel.endsWith(RESPONSE_SUFFIX) && !rel.slice(dir.length + 1).includes('/'))
    .map((rel) => rel.slice(dir.length + 1, -RESPONSE_SUFFIX.length))
    .sort();
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
    if (!r) reader.problem(opRel, 'unknown-response', `responses lists ${JSON.stringify(listed)}, but no response file has that name.`, lineOf(opFile.parsed, ['responses', String(i)]));
    else if (!ordered.includes(r)) ordered.push(r);
  });
  for (const r of responses) if (!ordered.includes(r)) ordered.push(r);

  if (o.default !== undefined && !byName.has(o.default)) {
    reader.problem(opRel, 'unknown-response', `default names ${JSON.stringify(o.default)}, but no response has that name.`, lineOf(opFile.parsed, ['default']));
  }
  const script = files.get(`${dir}/${DISPATCH_FILE}`);
  const dispatch = o.dispatch ?? 'in-order';
  if (dispatch === 'script' && script === undefined) {
    reader.problem(opRel, 'missing-dispatch-script', `dispatch is script but ${dir}/${DISPATCH_FILE} is missing.`, lineOf(opFile.parsed, ['dispatch']));
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
  const file = reader.readYaml(rel, ResponseYaml);
  if (!file) return null;
  const r = file.value;
  const before = reader.problems.length;

  let text = '';
  if (r.body !== 'none') {
    const bodyRel = `${dir}/${base}.body.${BODY_EXTENSION[r.body]}`;
    const body = files.get(bodyRel);
    if (body === undefined) reader.problem(rel, 'missing-body-file', `body is ${r.body} but ${bodyRel} is missing.`, lineOf(file.parsed, ['body']));
    else text = body;
  }
  const headers = r.headers ?? [];
  const values = r.values ?? {};
  headers.forEach((h, i) => {
    if (!HEADER_NAME.test(h.name)) reader.problem(rel, 'header-name', `Header name ${JSON.stringify(h.name)} is not a valid header name.`, lineOf(file.parsed, ['headers', String(i), 'name']));
    if (!HEADER_VALUE.test(h.value)) reader.problem(rel, 'header-value', `The value of header ${h.name} holds a line break or a character a header may not hold.`, lineOf(file.parsed, ['headers', String(i), 'value']));
    for (const p of findPlaceholders(h.value)) {
      if (!(p.name in values)) reader.problem(rel, 'undeclared-value', `{{${p.name}}} in header ${h.name} names no declared value (declare it under values).`, lineOf(file.parsed, ['headers', String(i), 'value']));
    }
  });
  const bodyRel = `${dir}/${base}.body.${r.body === 'none' ? 'txt' : BODY_EXTENSION[r.body]}`;
  for (const p of findPlaceholders(text)) {
    if (!(p.name in values)) reader.problem(bodyRel, 'undeclared-value', `{{${p.name}}} in the body of ${rel} names no declared value (declare it under values).`, lineAt(text, p.start));
  }
  if (r.body === 'json') {
    for (const p of placeholdersOutsideJsonStrings(text)) {
      reader.problem(bodyRel, 'placeholder-outside-json-string', `{{${p.name}}} in the JSON body of ${rel} must sit inside a JSON string.`, lineAt(text, p.start));
    }
  }
  (r.match ?? []).forEach((c, i) => {
    if ((c.check === 'equals' || c.check === 'regex') && c.value === undefined) {
      reader.problem(rel, 'match-value-missing', `match ${i + 1} checks ${c.check} but has no value.`, lineOf(file.parsed, ['match', String(i)]));
    }
    if (c.check === 'regex' && c.value !== undefined) {
      try {
        new RegExp(c.value, 'u');
      } catch {
        reader.problem(rel, 'bad-regex', `match ${i + 1}: the regular expression does not compile.`, lineOf(file.parsed, ['match', String(i), 'value']));
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
}

function indexExisting(files: MockFolderFiles): ExistingFiles {
  const opFolderById = new Map<string, string>();
  const responseById = new Map<string, { base: string; name: string }>();
  const opIdOfFolder = new Map<string, string>();
  for (const [rel, text] of files) {
    const m = /^operations\/([^/]+)\/operation\.yaml$/.exec(rel);
    const id = m ? quietYaml(text)?.id : undefined;
    if (m && typeof id === 'string') {
      opFolderById.set(id, m[1]!);
      opIdOfFolder.set(m[1]!, id);
    }
  }
  for (const [rel, text] of files) {
    const m = /^operations\/([^/]+)\/([^/]+)\.response\.yaml$/.exec(rel);
    if (!m) continue;
    const opId = opIdOfFolder.get(m[1]!);
    const value = quietYaml(text);
    if (opId && typeof value?.id === 'string' && typeof value.name === 'string') {
      responseById.set(`${opId}/${value.id}`, { base: m[2]!, name: value.name });
    }
  }
  return { opFolderById, responseById };
}

function quietYaml(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = parseDocument(text).toJS();
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
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
    assertInsideFolder(rel);
    wanted.set(rel, content);
  };
  const putYaml = (rel: string, value: Record<string, unknown>, previousRel?: string) => {
    put(rel, renderYaml(value, existing.get(previousRel ?? rel) ?? existing.get(rel)));
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
  for (const [rel, content] of wanted) if (existing.get(rel) !== content) changes.push({ path: rel, content });
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
    /^operations\/[^/]+\/(operation\.yaml|dispatch\.ts|[^/]+\.response\.yaml|[^/]+\.body\.(json|xml|txt))$/.test(rel)
  );
}

/**
 * Writes `value` as YAML. With the previous text: returned untouched when it already says the same
 * (so an unrelated save never reformats a hand-written file), else edited in place.
 */
export function renderYaml(value: Record<string, unknown>, previous?: string): string {
  let doc: Document | null = null;
  if (previous !== undefined) {
    const parsed = parseDocument(previous);
    if (parsed.errors.length === 0 && isMap(parsed.contents)) doc = parsed;
  }
  const existingKeys = new Set<string>();
  if (doc && isMap(doc.contents)) for (const pair of doc.contents.items) existingKeys.add(String(isScalar(pair.key) ? pair.key.value : pair.key));
  const trimmed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const omit = doc ? !existingKeys.has(k) : OMITTED_IN_NEW_FILES.has(k);
    if (omit && k in DEFAULTS && sameValue(v, DEFAULTS[k])) continue;
    trimmed[k] = v;
  }
  if (doc && previous !== undefined && sameValue(doc.toJS(), trimmed)) return previous;
  if (!doc) {
    const fresh = new Document(trimmed);
    flowSources(fresh);
    return fresh.toString({ lineWidth: 0 });
  }
  doc.contents = syncNode(doc, doc.contents, trimmed) as typeof doc.contents;
  return doc.toString({ lineWidth: 0 });
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

/** Makes `node` hold `value`, touching only what changed so comments and style stay put. */
function syncNode(doc: Document, node: unknown, value: unknown): unknown {
  if (isMap(node) && isPlainObject(value)) {
    for (const pair of [...node.items]) {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      if (!Object.hasOwn(value, key) || value[key] === undefined) node.delete(pair.key);
    }
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const current: unknown = node.get(k, true);
      if (current === undefined) node.set(k, doc.createNode(v));
      else {
        const next = syncNode(doc, current, v);
        if (next !== current) node.set(k, next);
      }
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    node.items.splice(value.length);
    value.forEach((v, i) => {
      const current = node.items[i];
      if (current === undefined) node.items.push(doc.createNode(v));
      else node.items[i] = syncNode(doc, current, v);
    });
    return node;
  }
  if (isScalar(node) && node.value === value) return node;
  const created = doc.createNode(value) as YamlNode;
  if (isNode(node)) {
    created.comment = node.comment;
    created.commentBefore = node.commentBefore;
  }
  return created;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality of plain data, key order ignored. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => sameValue(a[k], b[k]));
}

// ---------------------------------------------------------------------------------------------
// Thin fs helpers

/** Reads every file of a mock folder that the layout could use (two levels under operations/). */
export async function readMockFolder(mockDir: string): Promise<MockFolderFiles> {
  const files: MockFolderFiles = new Map();
  const readIfFile = async (rel: string) => {
    const abs = join(mockDir, ...rel.split('/'));
    const info = await lstat(abs).catch(() => null);
    // Links are not followed, so nothing outside the folder is read through one.
    if (info?.isFile()) files.set(rel, await readFile(abs, 'utf8'));
  };
  await readIfFile(MOCK_FILE);
  const opsDir = join(mockDir, 'operations');
  const opEntries = await readdir(opsDir, { withFileTypes: true }).catch(() => []);
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

/** The folder a mock of this name lives in, under the project folder. */
export function mockFolderOf(projectDir: string, mockName: string): string {
  if (!isSafeFileName(mockName)) throw new ParleyError('path-escape', `The mock name ${JSON.stringify(mockName)} cannot be a folder name.`);
  return join(projectDir, 'mocks', mockName);
}

/**
 * Saves a mock into `mockDir` through the atomic writer, with absolute paths. Returns the changes
 * made (relative paths), which is empty when nothing changed.
 */
export async function saveMockFolder(mockDir: string, mock: Mock, write: AtomicWriter): Promise<FileChange[]> {
  const changes = serializeMockFolder(mock, await readMockFolder(mockDir));
  if (changes.length === 0) return changes;
  const root = resolve(mockDir);
  await write(
    changes.map((c) => {
      const abs = resolve(root, ...c.path.split('/'));
      if (!abs.startsWith(root + sep)) throw new ParleyError('path-escape', `The path ${JSON.stringify(c.path)} leaves the mock folder.`);
      return { path: abs, content: c.content };
    }),
  );
  return changes;
}
