/** Payload validation for Node processes: TypeBox schemas compiled once, checked per message. */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { Validator } from './peer.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export const validateCompiled: Validator = (schema, value) => {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  if (check.Check(value)) return null;
  const first = check.Errors(value).First();
  return first ? `${first.path || '/'} ${first.message}` : 'does not match its schema';
};

/** Every mismatch (up to `max`), for file validation that reports each line at fault. */
export function checkAll(schema: TSchema, value: unknown, max = 5): { path: string; message: string }[] {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  if (check.Check(value)) return [];
  const out: { path: string; message: string }[] = [];
  for (const err of check.Errors(value)) {
    out.push({ path: err.path, message: err.message });
    if (out.length >= max) break;
  }
  return out;
}
