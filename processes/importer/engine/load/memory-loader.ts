/**
 * A loader over documents already in memory: the cached definition of an API (read offline
 * for a definition update), or fixtures in tests. It never touches the disk or the network.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { RefScope } from '../../../../protocol/ref-location.js';
import type { DocumentLoader, LoadedDocument } from './loader.js';
import { Redactor } from './redact.js';

/** `within`: the folder every reference must stay in (the cache's own, for a cached definition). */
export function createMemoryLoader(documents: Iterable<[string, Uint8Array | string]>, within?: RefScope['within']): DocumentLoader {
  const byUrl = new Map<string, Uint8Array>();
  for (const [url, content] of documents) {
    byUrl.set(withoutHash(url), typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  const redactor = new Redactor();
  return {
    redactor,
    ...(within ? { within } : {}),
    async load(target: URL): Promise<LoadedDocument> {
      const url = withoutHash(target.href);
      const bytes = byUrl.get(url);
      if (bytes === undefined) throw new ParleyError('import-file-unreadable', `${redactor.url(url)} is not among the documents available offline.`, { file: url });
      return { url, bytes };
    },
    async close() {},
  };
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
