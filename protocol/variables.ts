/**
 * Where a `${name}` gets its value, one rule for the send (the supervisor's Expander) and the
 * editor (highlighting, hover, completion): values captured from responses this session first
 * (docs/captures.md), then the active environment, then the project's properties, then the
 * workspace globals, enabled rows with a name only. `${secret:name}` is a secret store's entry
 * and is not in this table. A captured value is taken as it is: a `${...}` in it is text.
 */
import type { Row } from './model/common.js';

export type VariableSource = 'captured' | 'environment' | 'property' | 'global';

export interface VariableScope {
  /** Values captured from responses (literal: never expanded further). */
  captured?: readonly Row[];
  environment: readonly Row[];
  project: readonly Row[];
  globals: readonly Row[];
}

export interface ScopedValue {
  value: string;
  source: VariableSource;
}

/** Every `${...}` in a text, whole (`${a}`) and by name (`a`, `secret:x/y`). */
export const EXPANSION = /\$\{([^{}]+)\}/g;

export const SECRET_PREFIX = 'secret:';

/** Each name's value and where it comes from: later (higher) sources win. */
export function scopeValues(scope: VariableScope): Map<string, ScopedValue> {
  const values = new Map<string, ScopedValue>();
  const layers: [readonly Row[], VariableSource][] = [
    [scope.globals, 'global'],
    [scope.project, 'property'],
    [scope.environment, 'environment'],
    [scope.captured ?? [], 'captured'],
  ];
  for (const [rows, source] of layers) for (const row of rows) if (row.enabled && row.name) values.set(row.name, { value: row.value, source });
  return values;
}

/** The names of every `${...}` in the texts, each once, in order of first use. */
export function expansionNames(texts: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const text of texts) if (text.includes('${')) for (const match of text.matchAll(EXPANSION)) names.add(match[1]!);
  return [...names];
}
