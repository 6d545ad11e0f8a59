/**
 * Which response and media type of an operation a response is checked against
 * (Contract-check rules 3 and 4), and which bodies are JSON at all.
 */

import { essence, isJsonMediaType } from '../../../protocol/media-type.js';

export { essence, isEventStream, isJsonMediaType } from '../../../protocol/media-type.js';

/** The response key for a status: the exact status, then its range (`4XX`, any case), then `default`. */
export function selectResponseKey(keys: readonly string[], status: number): string | undefined {
  const exact = String(status);
  if (keys.includes(exact)) return exact;
  const range = `${Math.floor(status / 100)}xx`;
  const ranged = keys.find((k) => k.toLowerCase() === range);
  if (ranged) return ranged;
  return keys.includes('default') ? 'default' : undefined;
}

/**
 * The content key for a response's media type: exactly (parameters ignored), then for a JSON
 * suffix type `application/json`, then `type/*`, then `*\/*`. No Content-Type means JSON.
 */
export function selectMediaType(keys: readonly string[], contentType: string | undefined): string | undefined {
  const wanted = contentType ? essence(contentType) : 'application/json';
  const byEssence = (e: string) => keys.find((k) => essence(k) === e);
  const exact = byEssence(wanted);
  if (exact !== undefined) return exact;
  if (wanted !== 'application/json' && isJsonMediaType(wanted)) {
    const json = byEssence('application/json');
    if (json !== undefined) return json;
  }
  const type = wanted.split('/', 1)[0];
  return byEssence(`${type}/*`) ?? byEssence('*/*');
}
