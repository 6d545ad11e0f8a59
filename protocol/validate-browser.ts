/**
 * Payload validation for the UI. The page's CSP forbids eval, so schemas are interpreted
 * rather than compiled; messages to the UI are few and small enough for that.
 */
import { Value } from '@sinclair/typebox/value';
import type { Validator } from './peer.js';

export const validateInterpreted: Validator = (schema, value) => {
  if (Value.Check(schema, value)) return null;
  const first = Value.Errors(schema, value).First();
  return first ? `${first.path || '/'} ${first.message}` : 'does not match its schema';
};
