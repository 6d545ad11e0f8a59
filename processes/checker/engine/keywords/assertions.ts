/**
 * Keywords that look at one value without applying subschemas: type, enum, const, numeric
 * bounds, string length, pattern, format, counts, required, uniqueItems. Messages say what the
 * schema wanted and never quote the body's values.
 */
import { INLINE_FORMAT_MAX, NeedsWorker, type Evaluation, type Keyword } from '../evaluation.js';
import { formatCheck } from '../formats.js';
import { isObject } from '../../../../protocol/json-pointer.js';
import { compileEcmaPattern } from '../regex.js';
import { canonicalKey, codePointLength, cut, hasType, jsonEqual, jsonType, showSchemaList, showSchemaValue } from '../values.js';
import type { Site } from './site.js';

const TYPE_NAMES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

/** `type`, with OpenAPI 3.0's `nullable` (and Swagger's `x-nullable`) adding null only where a type is given. */
export function typeKeyword(site: Site, nullable: boolean): Keyword | undefined {
  const raw = site.schema.type;
  const types = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
  if (!types || types.some((t) => typeof t !== 'string' || !TYPE_NAMES.has(t))) {
    site.error(`"type" at ${site.host.describe(site.loc)} is not a type name`);
    return undefined;
  }
  const allowed = nullable && !types.includes('null') ? [...types, 'null'] : (types as string[]);
  site.node.types = allowed;
  const wanted = allowed.join(' or ');
  if (allowed.length === 1) {
    const only = allowed[0]!;
    return (v, ev) => {
      if (hasType(v, only)) return true;
      ev.report('type', `expected ${wanted}, found ${jsonType(v)}`);
      return false;
    };
  }
  return (v, ev) => {
    for (const t of allowed) if (hasType(v, t)) return true;
    ev.report('type', `expected ${wanted}, found ${jsonType(v)}`);
    return false;
  };
}

export function enumKeyword(site: Site): Keyword | undefined {
  const values = site.schema.enum;
  if (!Array.isArray(values)) {
    site.error(`"enum" at ${site.host.describe(site.loc)} is not an array`);
    return undefined;
  }
  const message = `expected one of: ${showSchemaList(values)}`;
  return (v, ev) => {
    for (const allowed of values) if (jsonEqual(v, allowed)) return true;
    ev.report('enum', message);
    return false;
  };
}

export function constKeyword(site: Site): Keyword {
  const wanted = site.schema.const;
  const message = `expected the value ${showSchemaValue(wanted)}`;
  return (v, ev) => {
    if (jsonEqual(v, wanted)) return true;
    ev.report('const', message);
    return false;
  };
}

function numberAt(site: Site, name: string): number | undefined {
  const n = site.schema[name];
  if (n === undefined) return undefined;
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    site.error(`"${name}" at ${site.host.describe(site.loc)} is not a number`);
    return undefined;
  }
  return n;
}

function bound(keyword: string, message: string, ok: (n: number) => boolean): Keyword {
  return (v, ev) => {
    if (typeof v !== 'number' || ok(v)) return true;
    ev.report(keyword, message);
    return false;
  };
}

/**
 * minimum/maximum and their exclusive forms. OpenAPI 3.0 and Swagger 2.0 write exclusiveMinimum
 * as a boolean that makes `minimum` strict; 2020-12 writes it as a number of its own.
 */
export function numericKeywords(site: Site): Keyword[] {
  const out: Keyword[] = [];
  const s = site.schema;
  const min = numberAt(site, 'minimum');
  const max = numberAt(site, 'maximum');
  const boolForm = site.dialect !== 'oas31';
  for (const [name, isMin] of [
    ['exclusiveMinimum', true],
    ['exclusiveMaximum', false],
  ] as const) {
    const raw = s[name];
    if (raw === undefined) continue;
    if (typeof raw === 'boolean') {
      if (!boolForm) site.note(`boolean "${name}" is OpenAPI 3.0 syntax; read as 3.0 at ${site.host.describe(site.loc)}`);
      continue;
    }
    const n = numberAt(site, name);
    if (n === undefined) continue;
    out.push(isMin ? bound(name, `expected more than ${n}`, (v) => v > n) : bound(name, `expected less than ${n}`, (v) => v < n));
  }
  if (min !== undefined) {
    out.push(
      s.exclusiveMinimum === true
        ? bound('minimum', `expected more than ${min}`, (v) => v > min)
        : bound('minimum', `expected at least ${min}`, (v) => v >= min),
    );
  }
  if (max !== undefined) {
    out.push(
      s.exclusiveMaximum === true
        ? bound('maximum', `expected less than ${max}`, (v) => v < max)
        : bound('maximum', `expected at most ${max}`, (v) => v <= max),
    );
  }
  const multiple = numberAt(site, 'multipleOf');
  if (multiple !== undefined) {
    if (multiple <= 0) site.error(`"multipleOf" at ${site.host.describe(site.loc)} is not above 0`);
    else out.push(bound('multipleOf', `expected a multiple of ${multiple}`, (v) => isMultiple(v, multiple)));
  }
  return out;
}

/** Float-tolerant: 0.3 is a multiple of 0.1 even though 0.3 / 0.1 is 2.9999999999999996. */
function isMultiple(value: number, of: number): boolean {
  const q = value / of;
  if (!Number.isFinite(q)) return false;
  if (Number.isInteger(q)) return true;
  return Math.abs(q - Math.round(q)) <= Number.EPSILON * Math.abs(q) * 4;
}

function countAt(site: Site, name: string): number | undefined {
  const n = site.schema[name];
  if (n === undefined) return undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    site.error(`"${name}" at ${site.host.describe(site.loc)} is not a non-negative integer`);
    return undefined;
  }
  return n;
}

export function lengthKeywords(site: Site): Keyword[] {
  const out: Keyword[] = [];
  const max = countAt(site, 'maxLength');
  const min = countAt(site, 'minLength');
  if (max !== undefined) {
    const message = `expected at most ${max} characters`;
    out.push((v, ev) => {
      if (typeof v !== 'string' || v.length <= max || codePointLength(v) <= max) return true;
      ev.report('maxLength', message);
      return false;
    });
  }
  if (min !== undefined) {
    const message = `expected at least ${min} characters`;
    out.push((v, ev) => {
      if (typeof v !== 'string' || codePointLength(v) >= min) return true;
      ev.report('minLength', message);
      return false;
    });
  }
  return out;
}

/** A compiled `pattern` or `patternProperties` key, tested the way the evaluation allows. */
export interface SchemaPattern {
  test(value: string, ev: Evaluation): boolean;
}

/**
 * ECMA-262 with the `u` flag as JSON Schema says; patterns that only parse without it (common in
 * 3.0 documents) fall back. The linear engine answers when it can (regex.ts); a pattern that needs
 * V8's backtracking engine runs only in an evaluation that allows it (a worker whose thread is
 * killed past the budget); elsewhere it is a schema error: never a pass.
 */
export function compilePattern(site: Site, source: unknown, keyword: string): SchemaPattern | undefined {
  if (typeof source !== 'string') {
    site.error(`"${keyword}" at ${site.host.describe(site.loc)} is not a string`);
    return undefined;
  }
  const compiled = compileEcmaPattern(source, { legacy: true });
  if (!compiled.ok) {
    site.error(`the pattern ${showSchemaValue(source)} at ${site.host.describe(site.loc)} is not a valid regular expression`);
    return undefined;
  }
  const re = compiled.pattern;
  const unevaluated = `the pattern ${showSchemaValue(source)} at ${site.host.describe(site.loc)} was not evaluated: ${re.backtrackingReason}, which needs a backtracking engine, run only where a check can be stopped`;
  return {
    test(value, ev) {
      const answer = re.testLinear(value);
      if (answer !== undefined) {
        ev.afterStringTest(value.length);
        return answer;
      }
      if (ev.limits.backtracking) return re.test(value);
      if (ev.limits.inline) throw new NeedsWorker(`the pattern ${showSchemaValue(source)} needs a backtracking engine`);
      // Counts as passing so it invents no problem; the schema error keeps the verdict from passing.
      ev.schemaErrors.add(unevaluated);
      return true;
    },
  };
}

export function patternKeyword(site: Site): Keyword | undefined {
  const re = compilePattern(site, site.schema.pattern, 'pattern');
  if (!re) return undefined;
  const message = `expected to match the pattern ${cut(String(site.schema.pattern))}`;
  return (v, ev) => {
    if (typeof v !== 'string' || re.test(v, ev)) return true;
    ev.report('pattern', message);
    return false;
  };
}

export function formatKeyword(site: Site): Keyword | undefined {
  const name = site.schema.format;
  if (typeof name !== 'string') return undefined;
  const check = formatCheck(name);
  if (!check) {
    site.note(`format "${name}" is not known; not checked (${site.host.describe(site.loc)})`);
    return undefined;
  }
  const message = `expected format ${name}`;
  const test = check.test as (v: unknown) => boolean;
  return (v, ev) => {
    if (typeof v !== check.type) return true;
    // ajv-formats' regular expressions run on V8's engine: on a thread nothing could stop, only
    // on strings too short for any of them to be slow.
    if (typeof v === 'string' && ev.limits.inline && v.length > INLINE_FORMAT_MAX) throw new NeedsWorker(`format ${name} on a long string`);
    if (test(v)) return true;
    ev.report('format', message);
    return false;
  };
}

export function arrayCountKeywords(site: Site): Keyword[] {
  const out: Keyword[] = [];
  const max = countAt(site, 'maxItems');
  const min = countAt(site, 'minItems');
  if (max !== undefined) {
    const message = `expected at most ${max} items`;
    out.push((v, ev) => {
      if (!Array.isArray(v) || v.length <= max) return true;
      ev.report('maxItems', message);
      return false;
    });
  }
  if (min !== undefined) {
    const message = `expected at least ${min} items`;
    out.push((v, ev) => {
      if (!Array.isArray(v) || v.length >= min) return true;
      ev.report('minItems', message);
      return false;
    });
  }
  if (site.schema.uniqueItems === true) {
    out.push((v, ev) => {
      if (!Array.isArray(v) || v.length < 2) return true;
      const seen = new Map<string, number>();
      for (let i = 0; i < v.length; i++) {
        const key = canonicalKey(v[i]);
        const first = seen.get(key);
        if (first !== undefined) {
          ev.report('uniqueItems', `expected unique items; items ${first} and ${i} are equal`);
          return false;
        }
        seen.set(key, i);
      }
      return true;
    });
  }
  return out;
}

export function objectCountKeywords(site: Site): Keyword[] {
  const out: Keyword[] = [];
  const max = countAt(site, 'maxProperties');
  const min = countAt(site, 'minProperties');
  if (max !== undefined) {
    const message = `expected at most ${max} properties`;
    out.push((v, ev) => {
      if (!isObject(v) || Object.keys(v).length <= max) return true;
      ev.report('maxProperties', message);
      return false;
    });
  }
  if (min !== undefined) {
    const message = `expected at least ${min} properties`;
    out.push((v, ev) => {
      if (!isObject(v) || Object.keys(v).length >= min) return true;
      ev.report('minProperties', message);
      return false;
    });
  }
  return out;
}

/**
 * `required`. In OpenAPI 3.0 and Swagger 2.0 a readOnly property is not required in a request
 * and a writeOnly one not in a response; `optionalIn` lists those by direction.
 */
export function requiredKeyword(site: Site, optionalIn: { request: Set<string>; response: Set<string> }): Keyword | undefined {
  const names = site.schema.required;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    site.error(`"required" at ${site.host.describe(site.loc)} is not a list of names`);
    return undefined;
  }
  if (names.length === 0) return undefined;
  return (v, ev) => {
    if (!isObject(v)) return true;
    const skip = optionalIn[ev.direction];
    let ok = true;
    for (const name of names as string[]) {
      if (Object.prototype.hasOwnProperty.call(v, name) || skip.has(name)) continue;
      ev.report('required', `expected the required property ${JSON.stringify(name)}`);
      ok = false;
      if (ev.silent > 0) return false;
    }
    return ok;
  };
}

export function dependentRequiredKeyword(site: Site): Keyword | undefined {
  const deps = site.schema.dependentRequired;
  if (!isObject(deps)) {
    site.error(`"dependentRequired" at ${site.host.describe(site.loc)} is not an object`);
    return undefined;
  }
  const entries = Object.entries(deps).filter((e): e is [string, string[]] => Array.isArray(e[1]));
  return (v, ev) => {
    if (!isObject(v)) return true;
    let ok = true;
    for (const [name, needs] of entries) {
      if (!Object.prototype.hasOwnProperty.call(v, name)) continue;
      for (const need of needs) {
        if (Object.prototype.hasOwnProperty.call(v, need)) continue;
        ev.report('dependentRequired', `expected property ${JSON.stringify(need)}, required when ${JSON.stringify(name)} is present`);
        ok = false;
        if (ev.silent > 0) return false;
      }
    }
    return ok;
  };
}
