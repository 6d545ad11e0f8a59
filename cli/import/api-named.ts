/** Finding an API of a project by the name a command line gives (`--api`). */
import { ParleyError } from '../../protocol/errors.js';
import type { Api } from '../../protocol/model/api.js';

/** The API by exact name, else by id, else by name ignoring case when only one matches. */
export function apiNamed(apis: Api[], wanted: string, root: string): Api {
  const exact = apis.filter((a) => a.name === wanted);
  if (exact.length === 1) return exact[0]!;
  const byId = apis.find((a) => a.id === wanted);
  if (byId) return byId;
  if (exact.length > 1) {
    throw new ParleyError('ambiguous-api', `${exact.length} APIs in ${root} are named ${wanted}; pass one's id to --api instead: ${exact.map((a) => a.id).join(', ')}.`);
  }
  const folded = apis.filter((a) => a.name.toLowerCase() === wanted.toLowerCase());
  if (folded.length === 1) return folded[0]!;
  const names = [...new Set(apis.map((a) => a.name))].sort((a, b) => a.localeCompare(b));
  throw new ParleyError('not-found', `${root} has no API named ${wanted}. Its APIs: ${names.length > 0 ? names.join(', ') : 'none'}.`);
}
