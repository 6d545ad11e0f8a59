/**
 * A password written into a request's URL (`http://bob:s3cr3t-pass@host/x`), sent through the
 * real supervisor and sender process to a real server on 127.0.0.1: the server gets it (as Basic
 * auth, like curl), and nothing recorded keeps it: History on disk, the HTTP Log and its HAR
 * export, Copy as cURL with secrets hidden, and every file under the workspace and the project.
 * Re-send from History fills the password back in from the request.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { MapSecrets } from '../../processes/supervisor/cookies/test-support/map-secrets.js';
import type { Request } from '../../protocol/model/request.js';
import type { Exchange } from '../../protocol/model/history.js';
import { MASK } from '../../protocol/credentials/index.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

const PASSWORD = 's3cr3t-pass';
const E = encodeURIComponent(MASK);

let sup: Supervisor;
let call: UiCall;
let handlers: ReturnType<typeof uiHandlers>;
let server: Server;
let port: number;
let home: string;
let projectDir: string;
const logs: string[] = [];
/** The Authorization header of each request the server got. */
const received: (string | undefined)[] = [];

/** Every file under `dir`, read one character per byte. */
async function everyFile(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, (await readFile(path)).toString('latin1'));
    }
  }
  return files;
}

const holding = (texts: Map<string, string>) => [...texts].filter(([, text]) => text.includes(PASSWORD)).map(([where]) => where);

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-userinfo-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, secrets: new MapSecrets(), log: (line) => logs.push(line) });
  handlers = uiHandlers(sup);
  call = handlerCaller(handlers);
  server = createServer((req, res) => {
    received.push(req.headers.authorization);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  await sup.openProject(projectDir, { create: true });
});

afterAll(async () => {
  await sup?.shutdown();
  await new Promise((r) => server.close(r));
});

describe('a password in the URL', () => {
  let request: Request;
  let exchange: Exchange;
  const typed = () => `http://bob:${PASSWORD}@127.0.0.1:${port}/x?q=1`;
  const recorded = () => `http://bob:${E}@127.0.0.1:${port}/x?q=1`;

  it('is sent, and History on disk keeps the URL with the password masked', async () => {
    const api = await call('api.create', { project: projectDir, name: 'Here', baseUrl: '' });
    const created = await call('request.create', { project: projectDir, parent: api.id, name: 'x', method: 'GET', url: `http://127.0.0.1:${port}/x` });
    // As typed in the URL bar and sent, not saved: the project's own file never holds it.
    request = { ...created, url: typed() };
    exchange = await call('request.send', { project: projectDir, request });
    expect(exchange.response.status).toBe(200);
    expect(received.at(-1)).toBe(`Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`);

    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.request.url).toBe(recorded());
    expect(entry.redacted).toBe(true);
    expect(holding(await everyFile(join(home, 'history')))).toEqual([]);
  });

  it('the HTTP Log, its HAR export and Copy as cURL keep it masked', async () => {
    const { rows } = await call('httpLog.list', {});
    const texts = new Map<string, string>();
    for (const row of rows) {
      const logged = await call('httpLog.get', { id: row.id });
      expect(logged.request.url).toBe(recorded());
      texts.set(`httpLog.get ${row.id}`, JSON.stringify(logged));
      texts.set(`httpLog.curl ${row.id}`, (await call('httpLog.curl', { id: row.id })).command);
    }
    const pieces: string[] = [];
    await handlers['httpLog.har']!({ ids: rows.map((r) => r.id) }, { signal: new AbortController().signal, chunk: (c: { text: string }) => pieces.push(c.text) });
    texts.set('HAR', pieces.join(''));
    const har = JSON.parse(pieces.join('')) as { log: { entries: { request: { url: string } }[] } };
    expect(har.log.entries.map((e) => e.request.url)).toEqual([recorded()]);

    const asSent = await call('request.curl', { project: projectDir, request, showSecrets: false });
    expect(asSent.command).toContain(`bob:${E}@127.0.0.1:${port}/x`);
    texts.set('request.curl', asSent.command);
    const fromHistory = await call('history.curl', { project: projectDir, id: exchange.id, showSecrets: false });
    texts.set('history.curl', fromHistory.command);
    expect(holding(texts)).toEqual([]);
  });

  it('re-send from History fills the password in from the request', async () => {
    const before = received.length;
    const again = await call('history.resend', { project: projectDir, id: exchange.id, request });
    expect(again.from).toBe('entry');
    expect(received.slice(before)).toEqual([`Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`]);
    expect((await call('history.get', { project: projectDir, id: again.exchange.id })).request.url).toBe(recorded());
  });

  it('no file under the workspace or the project, and no log line, holds it', async () => {
    const files = await everyFile(home);
    files.set('supervisor log', logs.join('\n'));
    expect([...files.keys()].join('\n')).toMatch(/history\/[^/]+\.jsonl/);
    expect(holding(files)).toEqual([]);
  });
});
