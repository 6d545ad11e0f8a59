/**
 * Swagger 2.0 parameters other than `in: body` carry their schema keywords on the Parameter
 * Object itself (`type`, `format`, `items`, `enum`, limits) beside keys that are not schema
 * (`name`, `in`, `required` as a boolean, `collectionFormat`). The checker engine reads schemas
 * at a location of a PreparedDefinition, so these parameters are given to it as a mirror: the same
 * document uris, each parameter's schema keywords alone at the very pointer the parameter has in
 * the user's file. A value is then validated by the checker engine, and anything it says about a
 * place names the user's own file and pointer, as a send's check would.
 */
import { escapeSegment, isObject, parsePointer } from '../../../protocol/json-pointer.js';
import { SWAGGER_METHODS } from '../../../protocol/openapi-methods.js';
import { PreparedDefinition } from '../../checker/engine/definition.js';
import type { Loc } from '../../checker/engine/keywords/site.js';

/** What a Swagger 2.0 Parameter or Items Object says about its value, as JSON Schema (draft 4) reads it. */
const SCHEMA_KEYS = new Set([
  'type', 'format', 'items', 'enum', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'default',
]);

/** `collectionFormat` as the text between an array's items in one value; `multi` repeats the parameter instead. */
export const COLLECTION_SEPARATORS: ReadonlyMap<string, string> = new Map([
  ['csv', ','],
  ['ssv', ' '],
  ['tsv', '\t'],
  ['pipes', '|'],
]);

/** Locations of every parameter the definition's operations use (path items' and operations'), references followed. */
function parameterLocations(def: PreparedDefinition): Loc[] {
  const out: Loc[] = [];
  const paths = def.entry.paths;
  if (!isObject(paths)) return out;
  const follow = (loc: Loc) => {
    const found = def.follow(loc);
    return typeof found === 'string' || !isObject(found.value) ? undefined : { loc: found.loc, value: found.value };
  };
  const listed = (owner: { loc: Loc; value: Record<string, unknown> }) => {
    const list = owner.value.parameters;
    if (!Array.isArray(list)) return;
    list.forEach((_, i) => {
      const p = follow({ docUri: owner.loc.docUri, pointer: `${owner.loc.pointer}/parameters/${i}` });
      if (p && p.value.in !== 'body') out.push(p.loc);
    });
  };
  for (const path of Object.keys(paths)) {
    const item = follow({ docUri: def.entryUri, pointer: `/paths/${escapeSegment(path)}` });
    if (!item) continue;
    listed(item);
    for (const method of SWAGGER_METHODS) {
      const op = isObject(item.value[method]) ? follow({ docUri: item.loc.docUri, pointer: `${item.loc.pointer}/${method}` }) : undefined;
      if (op) listed(op);
    }
  }
  return out;
}

/** A Parameter or Items Object reduced to its schema keywords (nested `items` too). */
function schemaOf(value: Record<string, unknown>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!SCHEMA_KEYS.has(key) && !key.startsWith('x-')) continue;
    out[key] = key === 'items' && isObject(value.items) ? schemaOf(value.items) : value[key];
  }
  return out;
}

/** Puts `value` at `pointer` inside `root`, making the objects on the way (array indexes become keys: the pointer reads the same). */
function place(root: Record<string, unknown>, pointer: string, value: unknown): void {
  const segments = parsePointer(pointer);
  if (!segments || segments.length === 0) return;
  let node = root;
  for (const segment of segments.slice(0, -1)) {
    const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (isObject(next)) node = next;
    else node = node[segment] = Object.create(null) as Record<string, unknown>;
  }
  node[segments.at(-1)!] = value;
}

/**
 * The mirror of a Swagger 2.0 definition's non-body parameters: validate a parameter's value in
 * `definition` at the parameter's own location. Parameters of `type: file` have no schema here.
 */
export function swaggerParameterSchemas(def: PreparedDefinition): PreparedDefinition {
  // Null-prototype objects throughout: a parameter named `__proto__` is placed like any other.
  const entry = Object.assign(Object.create(null) as Record<string, unknown>, { swagger: '2.0' });
  const mirrors = new Map<string, Record<string, unknown>>([[def.entryUri, entry]]);
  for (const loc of parameterLocations(def)) {
    const value = def.schemaValue(loc);
    if (!isObject(value) || value.type === 'file') continue;
    let mirror = mirrors.get(loc.docUri);
    if (!mirror) mirrors.set(loc.docUri, (mirror = Object.create(null) as Record<string, unknown>));
    place(mirror, loc.pointer, schemaOf(value));
  }
  return new PreparedDefinition(
    [...mirrors].map(([uri, document]) => ({ uri, document })),
    `${def.fingerprint}:swagger2-parameters`,
  );
}
