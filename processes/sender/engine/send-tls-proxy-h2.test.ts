import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { closeDispatchers, send } from './index.js';
import { startForwardProxy, startHttp, startHttp2, startHttps, testCaPem, type ForwardProxy, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

let httpsServer: RunningServer;
let selfSigned: RunningServer;
let wrongHost: RunningServer;
let plain: RunningServer;
let h2: RunningServer;
let proxy: ForwardProxy;
const spool = tempDir();
const caPem = testCaPem();

beforeAll(async () => {
  const hello =
    (name: string): RequestListener =>
    (req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`${name} ${req.url ?? ''}`);
  httpsServer = await startHttps(hello('tls'));
  selfSigned = await startHttps(hello('self'), 'self-signed');
  wrongHost = await startHttps(hello('wrong'), 'wrong-host');
  plain = await startHttp(hello('plain'));
  h2 = await startHttp2((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`h2 ${req.httpVersion} ${req.url}`);
  });
  proxy = await startForwardProxy();
});

afterAll(async () => {
  await closeDispatchers();
  await Promise.all([httpsServer, selfSigned, wrongHost, plain, h2, proxy].map((s) => s.close()));
  spool.remove();
});

describe('TLS', () => {
  it('trusts a server signed by the extra CA and times the handshake', async () => {
    const result = await send(sendSpec(`${httpsServer.url}/secure`, { caPem }), { spoolDir: spool.path });
    expect(Buffer.from(result.body.bytes).toString()).toBe('tls /secure');
    expect(result.httpVersion).toBe('1.1');
    expect(result.timing.tls).toBeGreaterThan(0);
    // HAR's phases: `ssl` is the handshake, and `connect` includes it.
    expect(result.hopTiming!.ssl).toBeCloseTo(result.timing.tls, 2);
    expect(result.hopTiming!.connect).toBeGreaterThanOrEqual(result.hopTiming!.ssl);
  });

  it('fails with tls-failed when the CA is not given', async () => {
    const error = await send(sendSpec(`${httpsServer.url}/secure`), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(error, 'tls-failed')).toBe(true);
    expect((error as Error).message).toContain('unknown authority');
    expect((error as Error).message).toContain(`127.0.0.1:${httpsServer.port}`);
  });

  it('names a self-signed certificate and a host name mismatch', async () => {
    const self = await send(sendSpec(`${selfSigned.url}/`, { caPem }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(self, 'tls-failed')).toBe(true);
    expect((self as Error).message).toContain('self-signed');

    const mismatch = await send(sendSpec(`${wrongHost.url}/`, { caPem }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(mismatch, 'tls-failed')).toBe(true);
    expect((mismatch as Error).message).toContain('does not match the host name');
  });
});

describe('HTTP/2', () => {
  it('negotiates HTTP/2 by ALPN when asked, and reports it', async () => {
    const result = await send(sendSpec(`${h2.url}/two?x=1`, { caPem, httpVersion: '2', headers: [['X-Test', 'yes']] }), { spoolDir: spool.path });
    expect(result.httpVersion).toBe('2');
    expect(Buffer.from(result.body.bytes).toString()).toBe('h2 2.0 /two?x=1');
    expect(result.statusText).toBe('OK');
    expect(result.raw.request.startsWith(`GET /two?x=1 HTTP/2\r\n:authority: 127.0.0.1:${h2.port}\r\n`)).toBe(true);
    expect(result.raw.request).toContain('X-Test: yes');
    // The head as sent: pseudo-headers by their names, then the request's own.
    expect(result.sent!.headers).toEqual(expect.arrayContaining([[':authority', `127.0.0.1:${h2.port}`], [':method', 'GET'], [':path', '/two?x=1'], ['X-Test', 'yes']]));
    expect(result.raw.response.startsWith('HTTP/2 200\r\n')).toBe(true);
    expect(result.timing.tls).toBeGreaterThan(0);
  });

  it('stays on HTTP/1.1 when 1.1 is asked of the same server', async () => {
    const result = await send(sendSpec(`${h2.url}/one`, { caPem, httpVersion: '1.1' }), { spoolDir: spool.path });
    expect(result.httpVersion).toBe('1.1');
    expect(Buffer.from(result.body.bytes).toString()).toBe('h2 1.1 /one');
  });

  it('falls back to HTTP/1.1 when the server does not speak HTTP/2', async () => {
    const result = await send(sendSpec(`${httpsServer.url}/fallback`, { caPem, httpVersion: '2' }), { spoolDir: spool.path });
    expect(result.httpVersion).toBe('1.1');
  });

  it('sends a POST body over HTTP/2', async () => {
    const result = await send(sendSpec(`${h2.url}/post`, { caPem, httpVersion: '2', method: 'POST', body: { type: 'bytes', data: Buffer.from('h2 body') } }), {
      spoolDir: spool.path,
    });
    expect(result.status).toBe(200);
    expect(result.raw.request.endsWith('\r\n\r\nh2 body')).toBe(true);
    expect(result.sent).toMatchObject({ method: 'POST', bodySize: 7 });
  });
});

describe('proxy', () => {
  it('tunnels an https request through the proxy with CONNECT', async () => {
    const result = await send(sendSpec(`${httpsServer.url}/via-proxy`, { caPem, proxy: proxy.url }), { spoolDir: spool.path });
    expect(Buffer.from(result.body.bytes).toString()).toBe('tls /via-proxy');
    expect(proxy.tunnels).toContain(`127.0.0.1:${httpsServer.port}`);
    const { dns, connect, tls, total } = result.timing;
    expect(connect).toBeGreaterThan(0);
    expect(tls).toBeGreaterThan(0);
    expect(dns + connect + tls).toBeLessThanOrEqual(total);
  });

  it('sends an http request through the proxy', async () => {
    const result = await send(sendSpec(`${plain.url}/plain-via-proxy`, { proxy: proxy.url }), { spoolDir: spool.path });
    expect(Buffer.from(result.body.bytes).toString()).toBe('plain /plain-via-proxy');
    // undici tunnels plain http through CONNECT as well.
    expect(proxy.tunnels).toContain(`127.0.0.1:${plain.port}`);
    expect(result.remoteAddress).toBe(`127.0.0.1:${proxy.port}`);
  });

  it('names the proxy when it cannot be reached', async () => {
    const closed = await startHttp(() => undefined);
    const deadProxy = closed.url;
    await closed.close();
    const error = await send(sendSpec(`${plain.url}/x`, { proxy: deadProxy }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(error, 'connect-failed')).toBe(true);
    expect((error as Error).message).toContain(`proxy 127.0.0.1:${closed.port}`);
  });
});
