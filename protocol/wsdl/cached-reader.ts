/**
 * Reading a WSDL back from an API's cached definition (the mock host, an offline re-open): each
 * cached file stands for the address it was read from, so every import and include resolves
 * under the same rule as at import (protocol/ref-location) and finds its cached copy; anything
 * the cache does not hold is unreadable, never fetched.
 */
import { resolveRefLocation } from '../ref-location.js';
import type { WsdlReader } from './read-wsdl.js';

export interface CachedWsdlFile {
  /** The file in the cache (as the caller's `readCached` takes it). */
  path: string;
  /** The address it was read from at import. */
  source: string;
}

export function cachedWsdlReader(files: readonly CachedWsdlFile[], readCached: (path: string) => Promise<string>): WsdlReader {
  const bySource = new Map(files.map((f) => [f.source, f]));
  return async (ref, base) => {
    const location = resolveRefLocation(ref, base);
    if (!location.ok) throw new Error(location.error.message);
    const file = bySource.get(location.url);
    if (!file) throw new Error(`${location.url} is not in the cached definition; import the WSDL again to cache it.`);
    return { location: file.source, text: await readCached(file.path) };
  };
}
