/**
 * A JSON body as the Form view edits it: objects keep their key order (also for keys like "10",
 * which a JavaScript object would move to the front), numbers keep their literal text (so
 * 12345678901234567890 and 1.50 come back as written), and a bare `${name}` expansion outside a
 * string is a value of its own. Parsing is jsonc-parser's, strict (no comments, no trailing
 * commas); printing is ours, because JSON.stringify can do neither of the above.
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { describeJsonError, lineAndColumn, shieldExpansions } from '../json-text.js';

export { isExpansion } from '../json-text.js';

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

/** Parses a body; empty text is no value at all. */
export function parseBody(text: string): ParsedBody {
  const { shielded, expansions } = shieldExpansions(text);
  const errors: ParseError[] = [];
  const tree = parseTree(shielded, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
  const first = errors[0];
  if (first) return { ok: false, message: `The body is not valid JSON: ${describeJsonError(first)} at ${lineAndColumn(text, first.offset)}.` };
  return { ok: true, value: tree ? fromNode(tree, shielded, expansions) : undefined };
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
