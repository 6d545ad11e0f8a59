/**
 * Reading and writing Parley's YAML files, every kind (project, API, request, workspace, example,
 * mock files; the kinds are in layout.ts): parse with line numbers, validate against the file's
 * schema naming file, line and rule, refuse files newer than this release, migrate older ones,
 * and rewrite a user's file in place so comments and key order survive.
 *
 * Reading has two paths. The fast one (js-yaml with a schema that resolves plain scalars exactly
 * as YAML 1.2's core schema does, about 8x faster than `yaml`'s documents) reads what Parley
 * writes and most hand edits. Anything it might read differently from `yaml` (directives,
 * anchors, aliases, tags, complex or null keys, see `fastLoad`), anything it refuses, and any
 * file that fails the version or schema check goes through `yaml`'s `parseDocument`, so every
 * problem is reported exactly as before, with its line.
 */
import { pointerSegments } from '../json-pointer.js';
// @ts-expect-error -- js-yaml ships no types; the part used here is typed by `JsYaml` below.
import * as jsYamlModule from 'js-yaml';
import { Document, LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, visit, type Node, type Scalar } from 'yaml';
import type { TSchema } from '@sinclair/typebox';
import type { Problem } from '../model/common.js';

export type Check = (schema: TSchema, value: unknown) => { path: string; message: string }[];

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

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
  const fast = fastLoad(text);
  if (fast !== undefined) {
    const result = interpret(fast, file, kind, check, null);
    if (result.ok) return result;
  }
  return parseYamlFileWithDocument(text, file, kind, check);
}

/** The reference path, `yaml`'s document, which knows the line of every node for the problems (exported for tests and benches). */
export function parseYamlFileWithDocument<T>(text: string, file: string, kind: FileKind<T>, check: Check): ParseResult<T> {
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
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // An alias to no anchor, or aliases that expand too far: thrown by toJS, not listed in errors.
    return { ok: false, problems: [{ file, line: aliasLine(doc, lineCounter), rule: 'yaml-syntax', message: `${file}: ${(err as Error).message}` }] };
  }
  return interpret(value, file, kind, check, (path) => lineOf(doc, lineCounter, path));
}

/**
 * Checks a parsed file: a map, a known `version` (older ones migrated), the schema. `lineAt` is
 * null on the fast path, whose failures are all redone by `parseYamlFileWithDocument` for their lines.
 */
function interpret<T>(value: unknown, file: string, kind: FileKind<T>, check: Check, lineAt: ((path: (string | number)[]) => number) | null): ParseResult<T> {
  const line = (path: (string | number)[]) => (lineAt ? lineAt(path) : 1);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problems: [{ file, line: 1, rule: 'not-a-map', message: `${file}: a ${kind.label} file must be a YAML map of keys.` }] };
  }
  const record = value as Record<string, unknown>;
  const version = record.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, problems: [{ file, line: line(['version']), rule: 'version', message: `${file}: \`version\` must be a whole number (this release writes ${kind.version}).` }] };
  }
  if (version > kind.version) {
    return {
      ok: false,
      problems: [{ file, line: line(['version']), rule: 'version-too-new', message: `${file} is a version ${version} ${kind.label} file; this release of Parley reads up to version ${kind.version}. Update Parley to open it; the file was left untouched.` }],
    };
  }
  let upgraded = record;
  for (let v = version; v < kind.version; v++) {
    const migrate = kind.migrations?.[v];
    if (!migrate) return { ok: false, problems: [{ file, rule: 'version', message: `${file}: no upgrade from ${kind.label} version ${v}.` }] };
    upgraded = { ...migrate(upgraded), version: v + 1 };
  }
  const errors = check(kind.schema, upgraded);
  if (errors.length > 0) {
    return {
      ok: false,
      problems: errors.slice(0, MAX_PROBLEMS_PER_FILE).map((err) => ({
        file,
        line: line(yamlPath(err.path)),
        rule: 'schema',
        message: `${file}: ${err.path || '/'} ${err.message}`,
      })),
    };
  }
  return { ok: true, value: upgraded as T };
}

// --- the fast path -----------------------------------------------------------------------------

/** The part of js-yaml used here (it ships no types). */
interface JsYamlType {
  readonly tag: string;
}
interface JsYamlSchema {
  extend(types: { implicit?: JsYamlType[] }): JsYamlSchema;
}
interface JsYaml {
  load(text: string, options: { schema: JsYamlSchema; onWarning?: (warning: Error) => void }): unknown;
  Type: new (tag: string, options: { kind: 'scalar'; resolve: (data: string | null) => boolean; construct: (data: string) => unknown }) => JsYamlType;
  FAILSAFE_SCHEMA: JsYamlSchema;
}

const jsYaml = jsYamlModule as JsYaml;

// YAML 1.2's core schema for plain scalars, as `yaml` resolves them (yaml/dist/schema/core and
// common/null.js): the same patterns and the same conversions (the patterns of different tags
// never match the same text, so one type per tag keeps `yaml`'s order). js-yaml's own schemas
// differ (binary 0b ints, `_` in numbers, timestamps, `<<` merge keys).
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT_OCT = /^0o[0-7]+$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_INT_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const CORE_FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Every plain scalar is offered to each type in turn: a look at its length or first character spares most strings the patterns. */
function mayBeNumber(s: string | null): s is string {
  if (s === null || s.length === 0) return false;
  const c = s.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46; // 0-9 + - .
}

const coreSchema = jsYaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    new jsYaml.Type('tag:yaml.org,2002:null', { kind: 'scalar', resolve: (s) => s === null || (s.length <= 4 && CORE_NULL.test(s)), construct: () => null }),
    new jsYaml.Type('tag:yaml.org,2002:bool', {
      kind: 'scalar',
      resolve: (s) => s !== null && (s.length === 4 || s.length === 5) && CORE_BOOL.test(s),
      construct: (s) => s[0] === 't' || s[0] === 'T',
    }),
    new jsYaml.Type('tag:yaml.org,2002:int', {
      kind: 'scalar',
      resolve: (s) => mayBeNumber(s) && (CORE_INT_OCT.test(s) || CORE_INT.test(s) || CORE_INT_HEX.test(s)),
      construct: (s) => (CORE_INT_OCT.test(s) ? parseInt(s.substring(2), 8) : CORE_INT.test(s) ? parseInt(s, 10) : parseInt(s.substring(2), 16)),
    }),
    new jsYaml.Type('tag:yaml.org,2002:float', {
      kind: 'scalar',
      resolve: (s) => mayBeNumber(s) && (CORE_FLOAT_NAN.test(s) || CORE_FLOAT_EXP.test(s) || CORE_FLOAT.test(s)),
      construct: (s) =>
        CORE_FLOAT_NAN.test(s) ? (s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY) : parseFloat(s),
    }),
  ],
});

/**
 * Text the fast path leaves to `yaml`, because js-yaml would read it differently or accept what
 * `yaml` refuses: a directive line (`%YAML 1.1` switches `yaml` to 1.1 booleans and octals); an
 * anchor, alias or tag at the start of a node (`&a`, `*a`, `!tag`: aliases are counted by
 * `maxAliasCount`, unknown tags kept as strings); an explicit key (`? `) or a flow collection
 * used as a key (`[a]: b`), which the two stringify differently; a comment glued to a quoted
 * value or flow collection (`"a"#c`, an error in `yaml`); a carriage return not followed by a
 * line feed (a line break in YAML 1.2, not to js-yaml); `---` or `...` followed by more than
 * white space on its line (js-yaml takes `---!` for a document start); a tab among a line's
 * leading spaces (js-yaml counts it as indentation of a continued quoted string or flow
 * collection, `yaml` refuses it); a sequence nested in compact form (`- - a`), where an empty
 * item makes js-yaml nest the following items wrongly. Matches inside quoted strings and
 * block scalars only cost the slower path.
 */
const LEAVE_TO_YAML = /^\uFEFF?%|(?:^|[\s[{,])(?:[&*]\S|!|\?(?:\s|$))|[\]}][ \t]*:|["'\]}]#|\r(?!\n)|^(?:---|\.\.\.)\S|^ *\t|(?:^|\s)-[ \t]+-(?:\s|$)/m;
// The same test, 3-6x quicker on typical files: most have none of the rarer characters, and
// the patterns left without them each start with a literal.
const RARE_CHARACTERS = /[&*!?%\t\r#]/;
const FLOW_KEY = /[\]}][ \t]*:/;
const GLUED_MARKER = /^(?:---|\.\.\.)\S/m;
const COMPACT_NESTED_SEQUENCE = /(?:^|\s)-[ \t]+-(?:\s|$)/m;

function leaveToYaml(text: string): boolean {
  if (RARE_CHARACTERS.test(text)) return LEAVE_TO_YAML.test(text);
  return FLOW_KEY.test(text) || GLUED_MARKER.test(text) || COMPACT_NESTED_SEQUENCE.test(text);
}

/** `yaml` refuses an implicit key whose `:` is over 1024 characters from its start; an escape is at most 6 source characters per character read. */
const MAX_FAST_KEY_LENGTH = 170;

/** A js-yaml warning (odd indentation, an unknown directive) is a refusal: `yaml` reads the file. */
function throwWarning(warning: Error): never {
  throw warning;
}

/** The file's value read by js-yaml, or undefined when `yaml` must read it (see LEAVE_TO_YAML). */
export function fastLoad(text: string): unknown {
  if (leaveToYaml(text)) return undefined;
  return loadFast(text);
}

/**
 * LEAVE_TO_YAML for a document of megabytes read for its value, with its rules narrowed to where
 * they matter, since the descriptions of big definitions are full of Markdown (`**bold**`, `!=`,
 * `[link]: x`) and their paths of braces (`/users/{id}:`):
 * - a comment glued to a quote (`"a"#c`, which `yaml` refuses and js-yaml reads) is not looked
 *   for: OpenAPI YAML quotes every local reference (`$ref: '#/components/...'`), and the rule
 *   cannot tell an opening quote from a closing one;
 * - an anchor, tag or explicit key counts only where a node can start (a line's start after its
 *   indentation and dashes, after `: `, `- ` or `? `, at a flow collection's start or after a
 *   comma inside one; an anchor after any comma or colon, since a comma after a nested collection
 *   on the line is not seen as inside one, and JSON-like flow allows `"a":&x 1`); elsewhere `&`, `!` and `?` are text to both parsers. Aliases
 *   are not looked for: one whose anchor was not found is an error to js-yaml, which leaves the
 *   text to `yaml` and its alias limit;
 * - a flow collection as a key only where it starts a node;
 * - a merge key (`<<:`) is left to `yaml`, which the importer asks to merge.
 */
const LEAVE_TO_YAML_FOR_VALUE =
  /^\uFEFF?%|(?:^[ \t]*(?:[-?][ \t]+)*|[:?-][ \t]+|[[{][ \t]*|[[{][^\n\]}]*,[ \t]*)(?:&\S|!|\?(?:\s|$))|[,:][ \t]*&\S|(?:^[ \t]*(?:[-?][ \t]+)*|[[{][ \t]*)[[{][^\n]*?[\]}][ \t]*:|<<[ \t]*:|\r(?!\n)|^(?:---|\.\.\.)\S|^ *\t|(?:^|\s)-[ \t]+-(?:\s|$)/m;

/** From this length a definition's YAML is worth the value-only fast path (the importer's read and the supervisor's). */
export const FAST_VALUE_FROM_CHARS = 1024 * 1024;

/**
 * A document's value by the fast path where only its value is wanted (an imported definition of
 * megabytes: js-yaml reads it about 10x quicker than `yaml`'s documents, in a fraction of the
 * memory). Read the same as `yaml` reads it wherever `yaml` reads it at all; the one difference is
 * that a comment glued to a closing quote (`"a"#c`), which `yaml` refuses, is read as a comment.
 * Undefined when `yaml` must read it.
 */
export function fastLoadValue(text: string): unknown {
  if (LEAVE_TO_YAML_FOR_VALUE.test(text)) return undefined;
  return loadFast(text);
}

function loadFast(text: string): unknown {
  let value: unknown;
  try {
    value = jsYaml.load(text, { schema: coreSchema, onWarning: throwWarning });
  } catch {
    return undefined;
  }
  return keysAgree(value) ? value : undefined;
}

/** False when a key may read differently: js-yaml writes a null key as "null", `yaml` as "". */
function keysAgree(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!keysAgree(item)) return false;
    return true;
  }
  for (const key in value) {
    if (key === 'null' || key.length > MAX_FAST_KEY_LENGTH) return false;
    if (!keysAgree((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

export interface WriteOptions {
  /** Styles a file written afresh (no `previous`), e.g. small maps on one line; rewrites keep the user's style. */
  styleNew?: (doc: Document) => void;
}

/**
 * Serializes `value`, reusing `previous` (the file as it is on disk) so comments and order survive:
 * `previous` itself, byte for byte, when it already says the same (so a save never reformats a
 * hand-written file it does not change), else `previous` edited in place.
 */
export function writeYaml(value: unknown, previous?: string, options: WriteOptions = {}): string {
  if (previous !== undefined) {
    const doc = parseDocument(previous);
    if (doc.errors.length === 0 && isMap(doc.contents)) {
      if (sameValue(documentValue(doc), value)) return previous;
      doc.contents = patchNode(doc, doc.contents, value) as typeof doc.contents;
      quoteBlankBlocks(doc);
      return doc.toString({ lineWidth: 0 });
    }
  }
  const fresh = new Document(value);
  options.styleNew?.(fresh);
  quoteBlankBlocks(fresh);
  return fresh.toString({ lineWidth: 0 });
}

/**
 * Text of several lines made only of spaces, tabs and line breaks is double-quoted: `yaml` writes
 * it as a block without an indentation indicator, which both readers then take as empty lines
 * and lose its spaces (`" \n"` read back as `"\n"`; every other text reads back exact, see
 * block-text.test.ts).
 */
function quoteBlankBlocks(doc: Document): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && node.value.includes('\n') && /^[ \t\n]*$/.test(node.value) && /[ \t]/.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
}

/** What a parsed document says; undefined when its aliases cannot be expanded. */
function documentValue(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
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
    if (node.value !== value) {
      node.value = value;
      node.type = scalarStyle(node.type, value);
    }
    return node;
  }
  // A node of another shape: the comments around the old one stay with the new one.
  const created = doc.createNode(value);
  if (isNode(node)) {
    created.comment = node.comment;
    created.commentBefore = node.commentBefore;
  }
  return created;
}

/**
 * The style of a scalar whose value changed. Text of several lines is a literal block (`|`, one
 * line of the file per line of text, so a one-line change is a one-line diff), whatever the old
 * value's style was (a new request's empty body is `""`, and kept its quotes for good before).
 * `yaml` picks the chomping (`|-`, `|`, `|+`) and an indentation indicator when the first line
 * starts with a space, and falls back to a double-quoted string for text a block cannot hold: a
 * carriage return (CRLF text) or another control character, or white space after the last line
 * break (and `quoteBlankBlocks` for text of blank lines). Single-line text keeps the user's
 * style, unless it was a block: then `yaml` chooses.
 */
function scalarStyle(type: Scalar['type'], value: unknown): Scalar['type'] {
  if (typeof value === 'string' && value.includes('\n')) return 'BLOCK_LITERAL';
  return type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED' ? undefined : type;
}

/** Deep equality of plain data as YAML holds it: key order and undefined keys ignored. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

/** The line of the node at a path in `text` (or of the nearest node along it), for problems found after a file was read: parses once. */
export function yamlLines(text: string): (path: (string | number)[]) => number {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  return (path) => lineOf(doc, lineCounter, path);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** Segments with array indexes as numbers, as the yaml library's paths want them. */
function yamlPath(pointer: string): (string | number)[] {
  return pointerSegments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The line of the first alias that points nowhere, else of the first alias. */
function aliasLine(doc: Document, counter: LineCounter): number {
  let first: number | undefined;
  let unresolved: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      const line = node.range ? counter.linePos(node.range[0]).line : undefined;
      first ??= line;
      if (unresolved === undefined && node.resolve(doc) === undefined) unresolved = line;
    },
  });
  return unresolved ?? first ?? 1;
}

/** The line of the deepest node that exists along `path` (the nearest place to look). */
function lineOf(doc: Document, counter: LineCounter, path: (string | number)[]): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as Node | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) return counter.linePos(node.range[0]).line;
  }
  return 1;
}
