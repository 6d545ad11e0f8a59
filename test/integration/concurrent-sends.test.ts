/**
 * 100 sends at once through the real supervisor and sender process (issue 26 item 16,
 * RELIABILITY.md), to a server that answers each after a delay of its own so the answers come
 * back out of order: every send gets its own response, every one is in History once, with its own
 * URL, and the supervisor answers a plain call meanwhile.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

const SENDS = 100;

let sup: Supervisor;
let call: UiCall;
let server: Server;
let home = '';
let project = '';
let base = '';
let inFlight = 0;
let mostInFlight = 0;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-concurrent-'));
  project = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  call = handlerCaller(uiHandlers(sup));
  server = createServer((req, res) => {
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    // Later sends answered sooner: the answers cross on the wire.
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ n }));
    }, 5 + ((SENDS - n) % 40));
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await sup.openProject(project, { create: true });
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await sup?.shutdown();
  await rm(home, { recursive: true, force: true });
});

describe(`${SENDS} sends at once`, () => {
  it('each gets its own answer, each is in History once, and the supervisor keeps answering', async () => {
    const api = await call('api.create', { project, name: 'Many', baseUrl: base });
    const request = await call('request.create', { project, parent: api.id, name: 'Numbered', method: 'GET', url: '/n' });
    const sends = Array.from({ length: SENDS }, (_, n) => call('request.send', { project, request: { ...request, url: `${base}/n?n=${n}` } }));
    // A call of its own while the sends are under way.
    await expect(call('app.ping', { t: 1 })).resolves.toBeDefined();
    const exchanges = await Promise.all(sends);
    exchanges.forEach((exchange, n) => {
      expect(exchange.response.status).toBe(200);
      expect(JSON.parse(Buffer.from(exchange.response.body.bytes).toString('utf8'))).toEqual({ n });
    });
    expect(mostInFlight).toBeGreaterThan(1);
    const history = await call('history.list', { project, requestId: request.id });
    expect(history).toHaveLength(SENDS);
    expect(new Set(history.map((h) => h.url)).size).toBe(SENDS);
  }, 120_000);
});
