/**
 * A JSON source at the edge of what an import reads (the loader's 50 MB, issue 26 item 8), in
 * the shape that costs the most memory for its size: one object of millions of keys (a JSON
 * object is a dictionary of about 60 bytes a key). Imported through the supervisor and a real
 * importer child with the heap the supervisor gives it for its size, as a Postman collection and
 * as an OpenAPI document: imported, never out of memory. (The other worst shapes, one string of
 * 50 MB, 26 million array items and arrays 6 million deep, were imported or refused clearly at
 * 8x: bench/README.md, "Importers at their limits".)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import { DEFAULT_LIMITS } from '../../processes/importer/engine/load/limits.js';

const secrets: SecretStore = { get: async () => null, set: async () => {}, delete: async () => {}, unavailableReason: async () => null };

let sup: Supervisor;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-json-limits-'));
  sup = await Supervisor.start({ dataDir: join(work, 'data'), secrets, services: false, log: () => {} });
}, 30_000);

afterAll(async () => {
  await sup?.shutdown();
  if (work) await rm(work, { recursive: true, force: true });
});

/** `,"x-keys":{...}` of as many 6-character keys as fit in `room` characters. */
function manyKeys(room: number): string {
  const keys = Math.floor((room - 12) / 11);
  const parts: string[] = [];
  for (let i = 0; i < keys; i++) parts.push(`"${i.toString(36).padStart(6, '0')}":0`);
  return `,"x-keys":{${parts.join(',')}}`;
}

/** A document of `wrap(extra)` just under the loader's cap. */
function atTheCap(wrap: (extra: string) => string): string {
  const text = wrap(manyKeys(DEFAULT_LIMITS.totalBytes - 4096 - wrap('').length));
  expect(text.length).toBeLessThan(DEFAULT_LIMITS.totalBytes);
  expect(text.length).toBeGreaterThan(DEFAULT_LIMITS.totalBytes - 64 * 1024);
  return text;
}

const SOURCES: [string, string, (extra: string) => string][] = [
  ['a Postman collection', 'edge.postman_collection.json', (extra) => `{"info":{"name":"Edge","schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"${extra}},"item":[{"name":"a","request":{"method":"GET","url":"http://127.0.0.1:9/a"}}]}`],
  ['an OpenAPI document', 'edge.json', (extra) => `{"openapi":"3.0.3","info":{"title":"Edge","version":"1"${extra}},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}}}`],
];

describe('a JSON source just under the 50 MB an import reads, its bulk one object of 4 million keys', () => {
  for (const [what, name, wrap] of SOURCES) {
    it(`is imported: ${what}`, async () => {
      const dir = await mkdtemp(join(work, 'doc-'));
      await writeFile(join(dir, name), atTheCap(wrap));
      const answer = await sup.imports.run(
        { source: { kind: 'file', path: join(dir, name) }, format: 'auto', options: {}, into: { kind: 'new', path: join(dir, 'p') } },
        { signal: new AbortController().signal, chunk: () => {} },
      );
      expect(answer.apis.map((a) => [a.name, a.requests])).toEqual([['Edge', 1]]);
      await rm(dir, { recursive: true, force: true });
    }, 600_000);
  }
});
