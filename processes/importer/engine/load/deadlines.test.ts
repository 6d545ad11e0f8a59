/**
 * Deadlines (issue 11, item 7): a server on 127.0.0.1 that sends one byte at a time keeps no
 * import running. One document's fetch ends at its deadline (a referenced document is then a
 * report item, the entry stops the job); the whole job ends at its own. The error names the URL
 * (never its query key) and the deadline. Deadlines are injected short here; the defaults are
 * in limits.ts and docs/importers.md.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionUpdateJob, ImportJob } from '../../../../protocol/model/import.js';
import { trickle } from '../../../../test/support/trickle.js';
import { until } from '../../../../test/support/until.js';
import { runDefinitionPreview } from '../run-job.js';
import { FIXED_CLOCK, counterIds, importSource, runHttpImportJob } from '../test-support.js';

const KEY = 'k3y-never-shown';
const OK = "openapi: 3.0.3\ninfo: {title: Trickle, version: '1'}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n";
const WITH_REF = (ref: string) =>
  `openapi: 3.0.3\ninfo: {title: Trickle, version: '1'}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '${ref}'}}}}}\n  /b:\n    get:\n      responses: {'200': {description: ok}}\n`;

let server: Server;
let base = '';
/** Responses still trickling: each must be ended by the client giving up. */
const trickling = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/trickle.yaml' || path === '/ref/trickle.yaml') return trickle(res, trickling);
    if (path === '/hop') return void res.writeHead(302, { location: '/trickle.yaml' }).end();
    if (path === '/with-ref.yaml') return void res.writeHead(200).end(WITH_REF('ref/trickle.yaml#/X'));
    if (path === '/ok.yaml') return void res.writeHead(200).end(OK);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const network = { proxy: '', caPem: '' };
const deps = { newId: counterIds(), now: FIXED_CLOCK };

function importJob(url: string, deadlines: ImportJob['deadlines']): ImportJob {
  return { source: { kind: 'url', url, credentials: { type: 'apikey', name: 'api_key', in: 'query', value: KEY } }, format: 'auto', options: {}, network, ...(deadlines ? { deadlines } : {}) };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; data?: unknown }> {
  return promise.then(
    () => {
      throw new Error('expected the job to fail');
    },
    (err: { code: string; message: string; data?: unknown }) => err,
  );
}

describe('a server that sends one byte at a time', () => {
  it('the entry stops at its fetch deadline, naming the URL without its key, and the deadline', async () => {
    const err = await failure(runHttpImportJob(importJob(`${base}/trickle.yaml?api_key=${KEY}`, { fetchMs: 400, jobMs: 60_000 }), deps));
    expect(err.code).toBe('import-fetch-deadline');
    expect(err.message).toBe(`${base}/trickle.yaml was not read: it did not arrive within 400 ms, the most one document may take (the server may be slow, or sending it a little at a time).`);
    expect(JSON.stringify(err)).not.toContain(KEY);
    // The fetch was given up, not left streaming.
    await until(() => trickling.size === 0);
  });

  it('the deadline covers every redirect hop of one fetch', async () => {
    const err = await failure(runHttpImportJob(importJob(`${base}/hop`, { fetchMs: 400, jobMs: 60_000 }), deps));
    expect(err).toMatchObject({ code: 'import-fetch-deadline', message: expect.stringContaining(`${base}/trickle.yaml was not read`) });
    await until(() => trickling.size === 0);
  });

  it('a referenced document past its deadline is a report item; the rest is imported', async () => {
    const { result } = await importSource({ kind: 'url', url: `${base}/with-ref.yaml` }, {}, { deadlines: { fetchMs: 400, jobMs: 60_000 } });
    expect(result.apis[0]?.requests.map((r) => r.request.operation?.path)).toEqual(['/a', '/b']);
    expect(result.report.errors[0]).toMatchObject({ file: 'with-ref.yaml', path: '/paths/~1a/get/responses/200/content/application~1json/schema/$ref' });
    expect(result.report.errors[0]?.message).toContain(`${base}/ref/trickle.yaml was not read: it did not arrive within 400 ms`);
    await until(() => trickling.size === 0);
  });

  it('the whole job stops at its deadline, naming what it was reading and the deadline', async () => {
    const err = await failure(runHttpImportJob(importJob(`${base}/trickle.yaml?api_key=${KEY}`, { fetchMs: 60_000, jobMs: 500 }), deps));
    expect(err.code).toBe('import-job-deadline');
    expect(err.message).toBe(`The import was stopped while reading ${base}/trickle.yaml: it took longer than 500 ms, the most one import may take.`);
    expect(JSON.stringify(err)).not.toContain(KEY);
    await until(() => trickling.size === 0);
  });

  it('a definition update reads its source under the same deadlines', async () => {
    const { result } = await importSource({ kind: 'url', url: `${base}/ok.yaml` }, {}, {});
    const imported = result.apis[0]!;
    const job: DefinitionUpdateJob = {
      api: imported.api,
      requests: imported.requests.map((p) => p.request),
      cached: imported.documents.map((d) => ({ path: d.path, bytes: d.bytes })),
      source: { kind: 'url', url: `${base}/trickle.yaml` },
      network,
      deadlines: { fetchMs: 400, jobMs: 60_000 },
    };
    expect(await failure(runDefinitionPreview(job, { now: FIXED_CLOCK }))).toMatchObject({ code: 'import-fetch-deadline', message: expect.stringContaining('within 400 ms') });
    await until(() => trickling.size === 0);
  });
});
