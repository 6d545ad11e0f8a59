/**
 * Payload validation for the UI. The page's CSP forbids eval, so nothing is compiled at run time:
 * what the page receives is checked by functions compiled at build time (compiled-checks.ts),
 * and anything else by TypeBox's interpreter. Error messages always come from the interpreter.
 */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { receivedSchemas } from './messages.js';
import type { Validator } from './peer.js';

export type CompiledCheck = (value: unknown) => boolean;

export const validateInterpreted: Validator = (schema, value) => (Value.Check(schema, value) ? null : describe(schema, value));

/** A validator using `checks` (from `virtual:parley-checks`) for the schemas they were compiled from. */
export function aotValidator(checks: Readonly<Record<string, CompiledCheck>>): Validator {
  const bySchema = new WeakMap<TSchema, CompiledCheck>();
  for (const [name, schema] of receivedSchemas()) {
    const check = checks[name];
    if (check) bySchema.set(schema, check);
  }
  return (schema, value) => {
    const check = bySchema.get(schema);
    const ok = check ? check(value) : Value.Check(schema, value);
    return ok ? null : describe(schema, value);
  };
}

function describe(schema: TSchema, value: unknown): string {
  const first = Value.Errors(schema, value).First();
  return first ? `${first.path || '/'} ${first.message}` : 'does not match its schema';
}
