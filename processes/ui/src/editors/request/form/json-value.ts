/**
 * A JSON body as the Form view edits it: objects keep their key order (also for keys like "10",
 * which a JavaScript object would move to the front), numbers keep their literal text (so
 * 12345678901234567890 and 1.50 come back as written), and a bare `${name}` expansion outside a
 * string is a value of its own. Parsing is jsonc-parser's, strict (no comments, no trailing
 * commas); printing is ours, because JSON.stringify can do neither of the above.
 */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export type JsonValue =
  | { kind: 'object'; entries: JsonEntry[] }
  | { kind: 'array'; items: JsonValue[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; raw: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  /** `${name}` written where a value goes: expanded when the request is sent. */
  | { kind: 'expansion'; raw: string };

export interface JsonEntry {
  key: string;
  value: JsonValue;
}

export type ParsedBody = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

const EXPANSION = /^\$\{[^{}"\n]+\}$/;

export function isExpansion(text: string): boolean {
  return EXPANSION.test(text);
}

/** Parses a body; empty text is no value at all. */
export function parseBody(text: string): ParsedBody {
  const { shielded, expansions } = shieldExpansions(text);
  const errors: ParseError[] = [];
  const tree = parseTree(shielded, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
  const first = errors[0];
  if (first) return { ok: false, message: `The body is not valid JSON: ${describeError(first)} at ${lineAndColumn(text, first.offset)}.` };
  return { ok: true, value: tree ? fromNode(tree, shielded, expansions) : undefined };
}

/**
 * Replaces each `${...}` outside strings with a string of the same length, so the parser accepts
 * it and error offsets still point into the text as written.
 */
function shieldExpansions(text: string): { shielded: string; expansions: Map<number, string> } {
  const expansions = new Map<number, string>();
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '$' && text[i + 1] === '{') {
      const end = text.indexOf('}', i);
      const token = end < 0 ? '' : text.slice(i, end + 1);
      if (isExpansion(token)) {
        expansions.set(i, token);
        out += `"${'_'.repeat(token.length - 2)}"`;
        i = end;
        continue;
      }
    }
    out += c;
  }
  return { shielded: out, expansions };
}

function fromNode(node: Node, text: string, expansions: ReadonlyMap<number, string>): JsonValue {
  switch (node.type) {
    case 'object':
      return {
        kind: 'object',
        entries: (node.children ?? []).map((prop) => ({ key: prop.children![0]!.value as string, value: fromNode(prop.children![1]!, text, expansions) })),
      };
    case 'array':
      return { kind: 'array', items: (node.children ?? []).map((item) => fromNode(item, text, expansions)) };
    case 'string': {
      const expansion = expansions.get(node.offset);
      return expansion !== undefined ? { kind: 'expansion', raw: expansion } : { kind: 'string', value: node.value as string };
    }
    case 'number':
      return { kind: 'number', raw: text.slice(node.offset, node.offset + node.length) };
    case 'boolean':
      return { kind: 'boolean', value: node.value as boolean };
    default:
      return { kind: 'null' };
  }
}

const ERROR_WORDS: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a number written wrongly',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'there is more after the end of the value',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is wrong',
  InvalidEscapeCharacter: 'a backslash escape is wrong',
  InvalidCharacter: 'a control character inside a string',
};

function describeError(error: ParseError): string {
  return ERROR_WORDS[printParseErrorCode(error.error)] ?? 'the text does not parse';
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

/** The text of a value, pretty with two spaces, as JSON.stringify(value, null, 2) would lay it out. */
export function printJson(value: JsonValue | undefined, indent = ''): string {
  if (value === undefined) return '';
  const inner = `${indent}  `;
  switch (value.kind) {
    case 'object':
      if (value.entries.length === 0) return '{}';
      return `{\n${value.entries.map((e) => `${inner}${JSON.stringify(e.key)}: ${printJson(e.value, inner)}`).join(',\n')}\n${indent}}`;
    case 'array':
      if (value.items.length === 0) return '[]';
      return `[\n${value.items.map((item) => inner + printJson(item, inner)).join(',\n')}\n${indent}]`;
    case 'string':
      return JSON.stringify(value.value);
    case 'number':
    case 'expansion':
      return value.raw;
    case 'boolean':
      return String(value.value);
    case 'null':
      return 'null';
  }
}

/** One line of JSON, for showing a value in a single input. */
export function printCompact(value: JsonValue): string {
  switch (value.kind) {
    case 'object':
      return `{${value.entries.map((e) => `${JSON.stringify(e.key)}: ${printCompact(e.value)}`).join(', ')}}`;
    case 'array':
      return `[${value.items.map(printCompact).join(', ')}]`;
    default:
      return printJson(value);
  }
}

/** A plain JavaScript value (from a schema's default, enum or const) as a JsonValue. */
export function fromPlain(value: unknown): JsonValue {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', raw: String(value) } : { kind: 'null' };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (Array.isArray(value)) return { kind: 'array', items: value.map(fromPlain) };
  if (typeof value === 'object') return { kind: 'object', entries: Object.entries(value).map(([key, v]) => ({ key, value: fromPlain(v) })) };
  return { kind: 'null' };
}

/** Whether a JsonValue equals a plain value (numbers by value: 1.0 equals 1). */
export function equalsPlain(value: JsonValue, plain: unknown): boolean {
  switch (value.kind) {
    case 'object': {
      if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return false;
      const keys = Object.keys(plain);
      const own = new Map(value.entries.map((e) => [e.key, e.value]));
      return own.size === keys.length && keys.every((k) => own.has(k) && equalsPlain(own.get(k)!, (plain as Record<string, unknown>)[k]));
    }
    case 'array':
      return Array.isArray(plain) && plain.length === value.items.length && value.items.every((item, i) => equalsPlain(item, plain[i]));
    case 'string':
      return plain === value.value;
    case 'number':
      return typeof plain === 'number' && Number(value.raw) === plain;
    case 'boolean':
      return plain === value.value;
    case 'null':
      return plain === null;
    case 'expansion':
      return false;
  }
}

export function isIntegerLiteral(raw: string): boolean {
  return /^-?\d+$/.test(raw) || (Number.isInteger(Number(raw)) && Number.isFinite(Number(raw)));
}
