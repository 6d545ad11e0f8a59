import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../../../protocol/errors.js';
import { loadDocumentSet, type Discover } from './load-document-set.js';
import type { DocumentLoader } from './loader.js';
import { Redactor } from './redact.js';

const entryText = JSON.stringify({ apis: [{ path: '/a.json' }, { path: '/b.json' }, { path: '/c.json' }] });

/** Leads a.json, b.json and c.json from the entry, in that order. */
const discover: Discover = ({ url, value }) => {
  const apis = (value as { apis?: { path: string }[] }).apis ?? [];
  return apis.map((api, i) => ({ candidates: [new URL(`.${api.path}`, url).href], purpose: 'declaration' as const, pointer: `/apis/${i}/path` }));
};

/** Fails every read; the first lead's failure arrives last. */
function slowFirstLoader(): DocumentLoader {
  const delays: Record<string, number> = { 'a.json': 60, 'b.json': 5, 'c.json': 20 };
  return {
    redactor: new Redactor(),
    async load(target: URL) {
      const name = target.pathname.split('/').pop() ?? '';
      await new Promise((resolve) => setTimeout(resolve, delays[name] ?? 0));
      throw new ParleyError('import-file-unreadable', `${name} was not found.`);
    },
    async close() {},
  };
}

describe('loadDocumentSet', () => {
  it('reports unreadable documents in the order they are referred to, whatever order the reads finish in', async () => {
    const bytes = new TextEncoder().encode(entryText);
    const { problems } = await loadDocumentSet({ url: 'file:///defs/api-docs', bytes, name: 'api-docs' }, slowFirstLoader(), { discover });
    expect(problems.map((p) => p.message)).toEqual(['a.json was not found.', 'b.json was not found.', 'c.json was not found.']);
  });
});
