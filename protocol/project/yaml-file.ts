/**
 * Reading and writing Parley's YAML files: parse with line numbers, validate against the file's
 * schema naming file, line and rule, refuse files newer than this release, and rewrite a
 * user's file in place so comments and key order survive.
 */
import { Document, LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { TSchema } from '@sinclair/typebox';
import type { Problem } from '../model/common.js';

export type Check = (schema: TSchema, value: unknown) => { path: string; message: string }[];

export type ParseResult<T> = { ok: true; value: T; doc: Document } | { ok: false; problems: Problem[] };

export interface FileKind<T> {
  /** What the file is, for messages: "request", "API". */
  label: string;
  schema: TSchema;
  /** The newest `version` this release writes and reads. */
  version: number;
  /** Numbered upgrades: migrations[n] turns a version n document into version n + 1. */
  migrations?: Record<number, (value: Record<string, unknown>) => Record<string, unknown>>;
  /** Never set: ties the kind to the type its schema describes. */
  readonly __type?: T;
}

const MAX_PROBLEMS_PER_FILE = 5;

export function parseYamlFile<T>(text: string, file: string, kind: FileKind<T>, check: Check): ParseResult<T> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.slice(0, MAX_PROBLEMS_PER_FILE).map((err) => ({
        file,
        line: lineCounter.linePos(err.pos[0]).line,
        rule: 'yaml-syntax',
        message: `${file}: ${err.message.split('\n')[0]}`,
      })),
    };
  }
  let value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problems: [{ file, line: 1, rule: 'not-a-map', message: `${file}: a ${kind.label} file must be a YAML map of keys.` }] };
  }
  const record = value as Record<string, unknown>;
  const version = record.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, problems: [{ file, line: lineOf(doc, lineCounter, ['version']), rule: 'version', message: `${file}: \`version\` must be a whole number (this release writes ${kind.version}).` }] };
  }
  if (version > kind.version) {
    return {
      ok: false,
      problems: [{ file, line: lineOf(doc, lineCounter, ['version']), rule: 'version-too-new', message: `${file} is a version ${version} ${kind.label} file; this release of Parley reads up to version ${kind.version}. Update Parley to open it; the file was left untouched.` }],
    };
  }
  let upgraded = record;
  for (let v = version; v < kind.version; v++) {
    const migrate = kind.migrations?.[v];
    if (!migrate) return { ok: false, problems: [{ file, rule: 'version', message: `${file}: no upgrade from ${kind.label} version ${v}.` }] };
    upgraded = { ...migrate(upgraded), version: v + 1 };
  }
  value = upgraded;
  const errors = check(kind.schema, value);
  if (errors.length > 0) {
    return {
      ok: false,
      problems: errors.slice(0, MAX_PROBLEMS_PER_FILE).map((err) => ({
        file,
        line: lineOf(doc, lineCounter, pointerSegments(err.path)),
        rule: 'schema',
        message: `${file}: ${err.path || '/'} ${err.message}`,
      })),
    };
  }
  return { ok: true, value: value as T, doc };
}

/** Serializes `value`, reusing `previous` (the file as it is on disk) so comments and order survive. */
export function writeYaml(value: unknown, previous?: string): string {
  if (previous !== undefined) {
    const doc = parseDocument(previous);
    if (doc.errors.length === 0 && isMap(doc.contents)) {
      doc.contents = patchNode(doc, doc.contents, value) as typeof doc.contents;
      return doc.toString({ lineWidth: 0 });
    }
  }
  return new Document(value).toString({ lineWidth: 0 });
}

/** Updates a YAML node in place toward `value`: unchanged scalars keep their comments and style. */
function patchNode(doc: Document, node: unknown, value: unknown): unknown {
  if (isMap(node) && isPlainObject(value)) {
    const keep = new Set(Object.keys(value));
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (!keep.has(key)) node.delete(pair.key);
    }
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) {
        node.delete(key);
        continue;
      }
      const existing = node.get(key, true);
      if (existing === undefined) node.set(key, doc.createNode(child));
      else node.set(key, patchNode(doc, existing, child));
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(value) && node.items.length === value.length) {
    value.forEach((item, index) => {
      node.items[index] = patchNode(doc, node.items[index], item) as (typeof node.items)[number];
    });
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value !== value) node.value = value;
    return node;
  }
  return doc.createNode(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function pointerSegments(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The line of the deepest node that exists along `path` (the nearest place to look). */
function lineOf(doc: Document, counter: LineCounter, path: (string | number)[]): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as Node | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) return counter.linePos(node.range[0]).line;
  }
  return 1;
}
