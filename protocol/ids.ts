import { randomBytes } from 'node:crypto';

/** Short random ids for things users create: `r_` request, `a_` API, `e_` environment. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}
