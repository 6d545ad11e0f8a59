import { mkdtemp, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Peer } from '../../protocol/peer.js';
import { validateCompiled } from '../../protocol/validate-node.js';
import { startUiServer, webSocketTransport, type UiServer } from './ui-server.js';

let server: UiServer;

beforeAll(async () => {
  const uiDir = await mkdtemp(join(tmpdir(), 'parley-ui-'));
  await writeFile(join(uiDir, 'index.html'), '<script src="./app.js?token=%TOKEN%"></script>');
  await writeFile(join(uiDir, 'app.js'), 'console.log(1)');
  server = await startUiServer({ uiDir, handlers: { 'app.ping': ({ t }) => ({ t }) }, onConnect: () => {} });
});
afterAll(() => server.close());

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(query: string, headers: Record<string, string>): Promise<{ ok: true; peer: Peer } | { ok: false; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bus${query}`, { headers });
    // Attach the peer at once, as the UI does, so the server's hello is never missed.
    const peer = new Peer(webSocketTransport(ws), { role: 'test', validate: validateCompiled });
    ws.on('open', () => resolve({ ok: true, peer }));
    ws.on('unexpected-response', (_req, res) => resolve({ ok: false, status: res.statusCode ?? 0 }));
    ws.on('error', () => {});
  });
}

describe('UI server', () => {
  const host = () => `127.0.0.1:${server.port}`;

  it('serves the page with the token, and security headers, to the right token and Host', async () => {
    const res = await get(`/?token=${server.token}`, { host: host() });
    expect(res.status).toBe(200);
    expect(res.body).toContain(`app.js?token=${server.token}`);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses a wrong or missing token', async () => {
    expect((await get('/?token=nope', { host: host() })).status).toBe(403);
    expect((await get('/', { host: host() })).status).toBe(403);
    expect((await get('/app.js', { host: host() })).status).toBe(403);
  });

  it('answers /alive to its own token only, so a page from an earlier run can tell it was restarted', async () => {
    const alive = await get(`/alive?token=${server.token}`, { host: host() });
    expect(alive.status).toBe(204);
    const stale = await get('/alive?token=from-an-earlier-run', { host: host() });
    expect(stale.status).toBe(403);
    expect(stale.body).toMatch(/from an earlier run of Parley.*Parley is running at/);
    expect((await get(`/alive?token=${server.token}`, { host: `evil.example:${server.port}` })).status).toBe(421);
    expect(String((await get(`/?token=${server.token}`, { host: host() })).headers['content-security-policy'])).toContain(`connect-src ws://127.0.0.1:${server.port} ws://localhost:${server.port} http://127.0.0.1:${server.port}`);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await get(`/?token=${server.token}`, { host: `evil.example:${server.port}` });
    expect(res.status).toBe(421);
    expect(res.body).not.toContain(server.token);
  });

  it('accepts the bus WebSocket only with the token, our Host and our Origin', async () => {
    const good = await openSocket(`?token=${server.token}`, { origin: `http://${host()}` });
    expect(good.ok).toBe(true);
    if (good.ok) {
      await expect(good.peer.call('app.ping', { t: 5 })).resolves.toEqual({ t: 5 });
      good.peer.close();
    }
    expect(await openSocket('?token=wrong', { origin: `http://${host()}` })).toEqual({ ok: false, status: 403 });
    expect(await openSocket(`?token=${server.token}`, { origin: 'http://evil.example' })).toEqual({ ok: false, status: 403 });
    expect(await openSocket(`?token=${server.token}`, { origin: `http://${host()}`, host: 'evil.example' })).toEqual({ ok: false, status: 421 });
  });
});
