/**
 * Whole jobs as the importer child runs them, against a real server on 127.0.0.1: import by URL
 * with credentials, then a definition update whose preview is re-checked at Apply by a fresh
 * read (SPEC: Apply is refused when a source changed since the preview).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DefinitionApplyJob, DefinitionUpdateJob, ImportJob, type FetchCredentials } from '../../../protocol/model/import.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { runDefinitionApply, runDefinitionPreview } from './run-job.js';
import { FIXED_CLOCK, counterIds, runHttpImportJob } from './test-support.js';

const TOKEN = 'run-job-token-42';
const doc = (version: string, paths: Record<string, object>) => stringify({ openapi: '3.1.0', info: { title: 'Jobs', version }, paths });
let served = doc('1', { '/a': { get: { summary: 'A', responses: {} } } });
let server: Server;
let url = '';
const seenAuth: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/yaml' }).end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.yaml`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const credentials: FetchCredentials = { type: 'bearer', token: TOKEN };
const network = { proxy: '', caPem: '' };

describe('import job, then definition update jobs', () => {
  it('imports by URL, previews, refuses an Apply whose source changed, applies one that did not', async () => {
    const importJob: ImportJob = { source: { kind: 'url', url, credentials }, format: 'auto', options: {}, network };
    expect(checkAll(ImportJob, importJob)).toEqual([]);
    const progress: string[] = [];
    const { detection, result } = await runHttpImportJob(importJob, { newId: counterIds(), now: FIXED_CLOCK, onProgress: (e) => progress.push(e.message) });
    expect(detection).toMatchObject({ format: 'openapi', version: 'openapi-3.1' });
    expect(progress.join('\n')).not.toContain(TOKEN);
    const imported = result.apis[0];
    if (!imported) throw new Error('no API');
    expect(imported.api.definition?.source).toMatchObject({ kind: 'url', location: url, credentials: { type: 'bearer' } });

    const updateJob: DefinitionUpdateJob = {
      api: imported.api,
      requests: imported.requests.map((p) => p.request),
      cached: imported.documents,
      source: { kind: 'url', url, credentials },
      network,
    };
    expect(checkAll(DefinitionUpdateJob, updateJob)).toEqual([]);
    served = doc('2', { '/a': { get: { summary: 'A', responses: {} } }, '/b': { post: { summary: 'B', responses: {} } } });
    const preview = await runDefinitionPreview(updateJob, { now: FIXED_CLOCK });
    expect(preview.added).toEqual([{ method: 'post', path: '/b' }]);
    expect(preview.apiWide?.version).toEqual({ from: '1', to: '2' });

    served = doc('3', { '/a': { get: { summary: 'A', responses: {} } } });
    const stale: DefinitionApplyJob = { ...updateJob, expectedFingerprint: preview.fingerprint };
    expect(checkAll(DefinitionApplyJob, stale)).toEqual([]);
    await expect(runDefinitionApply(stale, { newId: counterIds(), now: FIXED_CLOCK })).rejects.toMatchObject({ code: 'definition-changed' });

    served = doc('2', { '/a': { get: { summary: 'A', responses: {} } }, '/b': { post: { summary: 'B', responses: {} } } });
    const applied = await runDefinitionApply(stale, { newId: counterIds(), now: FIXED_CLOCK });
    expect(applied.counts).toEqual({ added: 1, rewritten: 0, orphaned: 0, restored: 0 });
    expect(applied.api.definition?.apiVersion).toBe('2');
    expect(seenAuth.every((h) => h === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a recorded source that now needs other credentials reads as auth-required, for the dialog to ask', async () => {
    const job: DefinitionUpdateJob = {
      api: { version: 1, id: 'a_1', name: 'Jobs', baseUrl: '', auth: { type: 'none' } },
      requests: [],
      cached: [],
      source: { kind: 'url', url },
      network,
    };
    await expect(runDefinitionPreview(job, { now: FIXED_CLOCK })).rejects.toMatchObject({ code: 'auth-required' });
  });
});
