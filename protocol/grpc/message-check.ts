/**
 * A gRPC request message checked, completed and exampled in the page by the JSON Schema of its
 * type (message-schema.ts makes it in the supervisor): the same rule json-mapping.ts applies
 * before a send, in a form with no protobufjs. Issues carry the path of the value they are
 * about, so the editor can mark it.
 */

export interface MessageSchema {
  $ref: string;
  $defs: Record<string, SchemaNode>;
}

/** The subset of JSON Schema a message's schema uses. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  title?: string;
  enum?: (string | number)[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  /** Map keys' type: integer or boolean keys are written as text. */
  propertyNames?: SchemaNode;
  pattern?: string;
  contentEncoding?: string;
  /** A message's oneofs: each its members' names. */
  'x-oneof'?: Record<string, string[]>;
  /** The field's lowerCamelCase JSON name, read too. */
  'x-json-name'?: string;
}

export type JsonPath = (string | number)[];

export interface MessageIssue {
  path: JsonPath;
  message: string;
}

/** Issues found past this many are not looked for (a huge message stays cheap to check as it is typed). */
const MAX_ISSUES = 50;
const MAX_DEPTH = 100;

export function resolveNode(schema: MessageSchema, node: SchemaNode | undefined): SchemaNode | undefined {
  let at = node;
  for (let i = 0; at?.$ref !== undefined && i < 10; i++) {
    const name = at.$ref.replace(/^#\/\$defs\//, '');
    at = Object.hasOwn(schema.$defs, name) ? schema.$defs[name] : undefined;
  }
  return at;
}

/** The field of a message node named `key` (its proto name or JSON name). */
export function fieldOf(node: SchemaNode, key: string): { name: string; node: SchemaNode } | undefined {
  const properties = node.properties ?? {};
  if (Object.hasOwn(properties, key)) return { name: key, node: properties[key]! };
  for (const [name, field] of Object.entries(properties)) if (field['x-json-name'] === key) return { name, node: field };
  return undefined;
}

/** A path as errors name it: `$.user.tags[2]`, a key that is not a name quoted (`$.counts["a b"]`). */
export function pathText(path: JsonPath): string {
  return `$${path.map(stepText).join('')}`;
}

export function stepText(step: string | number): string {
  return typeof step === 'number' ? `[${step}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`;
}

/** What is wrong with `value` as a message of `schema`, at most MAX_ISSUES of them. */
export function checkMessageValue(schema: MessageSchema, value: unknown): MessageIssue[] {
  const issues: MessageIssue[] = [];
  const walk = (node: SchemaNode | undefined, v: unknown, path: JsonPath, depth: number) => {
    if (issues.length >= MAX_ISSUES || depth > MAX_DEPTH) return;
    const n = resolveNode(schema, node);
    if (!n) return;
    const types = n.type === undefined ? [] : Array.isArray(n.type) ? n.type : [n.type];
    const say = (message: string) => issues.push({ path, message });
    if (v === null) return; // proto3 JSON: null is the default
    if (n.enum) {
      if (typeof v === 'string' && !n.enum.includes(v)) say(`"${v}" is not a value of ${n.title ?? 'the enum'} (${n.enum.slice(0, 12).join(', ')}).`);
      else if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) say(`expected one of ${n.enum.slice(0, 12).join(', ')}.`);
      return;
    }
    if (types.length === 0) return;
    if (types.includes('object') && typeof v === 'object' && !Array.isArray(v)) {
      const record = v as Record<string, unknown>;
      const chosen = new Map<string, string>();
      for (const key of Object.keys(record)) {
        if (n.properties === undefined) {
          if (typeof n.additionalProperties === 'object') walk(n.additionalProperties, record[key], [...path, key], depth + 1);
          continue;
        }
        const field = fieldOf(n, key);
        if (!field) {
          if (n.additionalProperties === false) issues.push({ path: [...path, key], message: `${n.title ?? 'the message'} has no field "${key}".` });
          continue;
        }
        for (const [oneof, members] of Object.entries(n['x-oneof'] ?? {})) {
          if (!members.includes(field.name) || record[key] === null) continue;
          const other = chosen.get(oneof);
          if (other !== undefined) issues.push({ path: [...path, key], message: `"${key}" and "${other}" are both members of the oneof "${oneof}": set one.` });
          chosen.set(oneof, key);
        }
        walk(field.node, record[key], [...path, key], depth + 1);
      }
      return;
    }
    if (types.includes('array') && Array.isArray(v)) {
      v.forEach((item, i) => walk(n.items, item, [...path, i], depth + 1));
      return;
    }
    if (types.includes('integer') && typeof v === 'number' && Number.isInteger(v)) return;
    if (types.includes('integer') && types.includes('string') && typeof v === 'string') {
      if (!/^-?\d+$/.test(v)) say(`${n.format ?? 'an integer'}: expected an integer, found "${v}".`);
      return;
    }
    if (types.includes('number') && (typeof v === 'number' || v === 'NaN' || v === 'Infinity' || v === '-Infinity')) return;
    if (types.includes('boolean') && typeof v === 'boolean') return;
    if (types.includes('string') && typeof v === 'string') {
      if (n.pattern !== undefined && !new RegExp(n.pattern).test(v)) say(`${n.title ?? 'the value'}: ${n.description ?? `does not match ${n.pattern}`}, found "${v}".`);
      if (n.format === 'date-time' && Number.isNaN(Date.parse(v))) say(`${n.title ?? 'a Timestamp'} is ${n.description ?? 'RFC 3339'}, found "${v}".`);
      if (n.contentEncoding === 'base64' && !/^[A-Za-z0-9+/\-_]*={0,2}$/.test(v)) say(`bytes: expected base64 text.`);
      return;
    }
    say(`expected ${describeType(n)}, found ${kindOf(v)}.`);
  };
  walk({ $ref: schema.$ref }, value, [], 0);
  return issues;
}

function describeType(n: SchemaNode): string {
  const types = Array.isArray(n.type) ? n.type : [n.type ?? 'a value'];
  const named = n.title && types.includes('object') ? `${n.title} (an object)` : types.map((t) => (t === 'integer' && n.format ? n.format : t)).join(' or ');
  return named;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 30 ? `${value.slice(0, 30)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * An example message of `schema`: every field with a value of its type (the first enum value,
 * 0, "", false; a Timestamp now; one item in a list; a oneof's first member only), nested
 * messages down to `depth` levels (a recursive type stops there).
 */
export function exampleMessage(schema: MessageSchema, depth = 3, now = new Date()): unknown {
  const make = (node: SchemaNode | undefined, level: number): unknown => {
    const n = resolveNode(schema, node);
    if (!n) return {};
    if (n.enum) return n.enum[0] ?? 0;
    const type = Array.isArray(n.type) ? n.type[0] : n.type;
    if (n.format === 'date-time') return now.toISOString();
    if (n.title === 'google.protobuf.Duration') return '1s';
    switch (type) {
      case 'object': {
        if (n.properties === undefined) return {};
        const out: Record<string, unknown> = {};
        if (level >= depth) return out;
        const skipped = new Set(Object.values(n['x-oneof'] ?? {}).flatMap((members) => members.slice(1)));
        for (const [name, field] of Object.entries(n.properties)) {
          if (skipped.has(name)) continue;
          const f = resolveNode(schema, field);
          // A message nested past the depth is left out rather than written empty.
          if (field.$ref !== undefined && level + 1 >= depth) continue;
          if (f?.type === 'array' && f.items?.$ref !== undefined && level + 1 >= depth) continue;
          out[name] = make(field, level + 1);
        }
        return out;
      }
      case 'array':
        return n.items ? [make(n.items, level)] : [];
      case 'string':
        return n.format === 'int64' || n.format === 'uint64' || n.format === 'sint64' || n.format === 'fixed64' || n.format === 'sfixed64' ? '0' : '';
      case 'integer':
      case 'number':
        return 0;
      case 'boolean':
        return false;
      default:
        return null;
    }
  };
  return make({ $ref: schema.$ref }, 0);
}
