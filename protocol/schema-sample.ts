/**
 * A sample value of a schema: the importer's request bodies and New Mock's default responses.
 * The one place that calls openapi-sampler, with two guards the sampler lacks.
 *
 * - Work and size. The sampler follows every `$ref` down to its depth limit, so schemas that
 *   reference each other widely (Microsoft Graph's entities and their navigation properties)
 *   give samples that grow by the fan-out at every level: Graph's 11,422 operations took 68 s
 *   and over 1 GB at depth 10. Each `$ref` the sampler follows counts against a budget, and the
 *   sample must stay within a node budget; past either, it is made again one level shallower.
 * - `__proto__`. The sampler builds objects by assignment, so a property named `__proto__` set
 *   the sample's prototype and went missing (a checker then found a required property absent).
 *   It samples a copy where that name is a stand-in (in keys, `required` and `$ref` steps); the
 *   sample gets it back as an own property.
 */
import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import { setOwn } from './own.js';
import { repairSample } from './sample-repair.js';

export interface SchemaSampleOptions {
  /** A request body leaves out readOnly properties; a response leaves out writeOnly ones. */
  skip: 'readOnly' | 'writeOnly';
  format?: 'json' | 'xml';
}

/**
 * The deepest nesting tried first, the `$ref`s one attempt may follow, and the values (objects,
 * arrays and scalars) a sample may hold. A sample of an ordinary definition stays far inside
 * them (the largest body of GitHub's REST description follows a few hundred references).
 */
export interface SampleLimits {
  depth: number;
  refs: number;
  values: number;
}

export const SAMPLE_LIMITS: Readonly<SampleLimits> = { depth: 10, refs: 2_000, values: 2_500 };

/**
 * A sample of `schema`, whose `$ref`s point into `document`; the sampler's own errors propagate
 * (a reference to nothing, say). Nesting is cut at the deepest level that keeps within
 * SAMPLE_LIMITS; at level 1 an object is `{}`.
 */
export function sampleSchema(schema: unknown, document: object, options: SchemaSampleOptions, limits: Readonly<SampleLimits> = SAMPLE_LIMITS): unknown {
  const shieldedDocument = shieldProto(document) as object;
  const shieldedSchema = shieldProto(schema) as JSONSchema7;
  const shielded = shieldedDocument !== document || shieldedSchema !== schema;
  const json = jsonWithinLimits(shieldedSchema, shieldedDocument, options.skip, limits);
  const value = options.format === 'xml' ? run(shieldedSchema, shieldedDocument, options.skip, 'xml', json.depth, Infinity) : repaired(json.value, shieldedSchema, shieldedDocument, options.skip, limits);
  return shielded ? restoreProto(value, new Map()) : value;
}

/** The JSON sample of the deepest level that keeps within the limits (level 1 when none does). */
function jsonWithinLimits(schema: JSONSchema7, document: object, skip: SchemaSampleOptions['skip'], limits: Readonly<SampleLimits>): { value: unknown; depth: number } {
  const within = (depth: number): unknown => {
    try {
      const value = run(schema, document, skip, 'json', depth, limits.refs);
      return countValues(value, limits.values + 1) <= limits.values ? value : OVER_BUDGET;
    } catch (err) {
      if (err === OVER_BUDGET) return OVER_BUDGET;
      throw err;
    }
  };
  // Most schemas fit whole. One that does not is cut from the shallow end up, since a sample grows
  // by its fan-out with each level: the levels that fit cost less than the one that does not.
  const whole = within(limits.depth);
  if (whole !== OVER_BUDGET) return { value: whole, depth: limits.depth };
  let best: { value: unknown; depth: number } | undefined;
  for (let depth = 2; depth < limits.depth; depth++) {
    const value = within(depth);
    if (value === OVER_BUDGET) break;
    best = { value, depth };
  }
  return best ?? { value: run(schema, document, skip, 'json', 1, Infinity), depth: 1 };
}

/**
 * The sample with what the sampler gets wrong mended (protocol/sample-repair.ts): discriminator
 * tags, nulls past the depth cut, cut objects without their required properties. Its shallow
 * samples are the sampler's at depth 1, within what is left of the `$ref` budget.
 */
function repaired(value: unknown, schema: JSONSchema7, document: object, skip: SchemaSampleOptions['skip'], limits: Readonly<SampleLimits>): unknown {
  let refs = limits.refs;
  const resample = (part: object): unknown => {
    let used = 0;
    const counted = new Proxy(document, {
      get(target, key, receiver) {
        if (++used > refs) throw OVER_BUDGET;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    try {
      return sample(part as JSONSchema7, { quiet: true, format: 'json', maxSampleDepth: 1, skipReadOnly: skip === 'readOnly', skipWriteOnly: skip === 'writeOnly' }, counted);
    } finally {
      refs -= used;
    }
  };
  return repairSample(value, schema, { document, skip, resample, budget: limits.values * 2 });
}

const OVER_BUDGET = new Error('over the sample budget');

function run(schema: JSONSchema7, document: object, skip: SchemaSampleOptions['skip'], format: 'json' | 'xml', depth: number, refs: number): unknown {
  const options = { quiet: true, format, maxSampleDepth: depth, skipReadOnly: skip === 'readOnly', skipWriteOnly: skip === 'writeOnly' };
  if (refs === Infinity) return sample(schema, options, document);
  // The sampler reads the document only to follow a `$ref` (json-pointer's get from the root).
  let left = refs;
  const counted = new Proxy(document, {
    get(target, key, receiver) {
      if (--left < 0) throw OVER_BUDGET;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return sample(schema, options, counted);
}

/** How many values `value` holds, counting no further than `stop`. */
function countValues(value: unknown, stop: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0 && count < stop) {
    const next = stack.pop();
    count++;
    // One by one: a spread of an example array with a few hundred thousand items overflows the stack.
    if (next !== null && typeof next === 'object') for (const child of Object.values(next)) stack.push(child);
  }
  return count;
}

const PROTO_STAND_IN = '\u0000parley:__proto__';
/** A `$ref` step named `__proto__` (`#/definitions/__proto__`): in the copy it points at the stand-in. */
const PROTO_STEP = /\/__proto__(?=\/|$)/g;
const refToProto = (key: string, value: unknown): value is string => key === '$ref' && typeof value === 'string' && value.search(PROTO_STEP) >= 0;
const shieldedCopies = new WeakMap<object, unknown>();

/** `value` itself when no key (nor `required` name) is `__proto__`, else a copy with the stand-in. */
function shieldProto(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = shieldedCopies.get(value);
  if (known !== undefined) return known;
  const copy = hasProtoName(value) ? shieldCopy(value, new Map(), '') : value;
  shieldedCopies.set(value, copy);
  return copy;
}

function hasProtoName(root: object): boolean {
  const seen = new Set<object>();
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, key] = stack.pop()!;
    if (refToProto(key, value)) return true;
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) {
        if (key === 'required' && item === '__proto__') return true;
        stack.push([item, '']);
      }
      continue;
    }
    for (const name of Object.keys(value)) {
      if (name === '__proto__') return true;
      stack.push([(value as Record<string, unknown>)[name], name]);
    }
  }
  return false;
}

function shieldCopy(value: unknown, seen: Map<object, unknown>, key: string): unknown {
  if (refToProto(key, value)) return value.replace(PROTO_STEP, `/${PROTO_STAND_IN}`);
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    // The name in `required`; an enum or const value `__proto__` is data and stays.
    for (const item of value) out.push(key === 'required' && item === '__proto__' ? PROTO_STAND_IN : shieldCopy(item, seen, ''));
    return out;
  }
  const out = Object.create(null) as Record<string, unknown>;
  seen.set(value, out);
  for (const name of Object.keys(value)) out[name === '__proto__' ? PROTO_STAND_IN : name] = shieldCopy((value as Record<string, unknown>)[name], seen, name);
  return out;
}

/** A copy of a sample with the stand-in named `__proto__` again, an own property (an XML text too). */
function restoreProto(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value === 'string') return value.replaceAll(PROTO_STAND_IN, '__proto__');
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(restoreProto(item, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [name, child] of Object.entries(value)) setOwn(out, name === PROTO_STAND_IN ? '__proto__' : name, restoreProto(child, seen));
  return out;
}
