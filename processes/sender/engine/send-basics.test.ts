import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import type { SendResult } from '../../../protocol/model/exchange.js';
import { closeDispatchers, send } from './index.js';
import { readRequestBody, startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: RunningServer;
const seen: Seen[] = [];
const spool = tempDir();

beforeAll(async () => {
  server = await startHttp(async (req, res) => {
    const body = await readRequestBody(req);
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (req.url === '/chunked') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first,');
      setTimeout(() => res.end('second'), 20);
      return;
    }
    res.writeHead(201, 'Made It', [['X-Mixed-Case', 'A'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'text/plain']]);
    res.end(`echo:${body.length}`);
  });
});

afterAll(async () => {
  await closeDispatchers();
  await server.close();
  spool.remove();
});

function phasesAreOrdered(result: SendResult): void {
  const { dns, connect, tls, send: sending, wait, download, total } = result.timing;
  for (const phase of [dns, connect, tls, sending, wait, download, total]) expect(phase).toBeGreaterThanOrEqual(0);
  // Phases are parts of the whole: together they cannot exceed it (a little slack for rounding).
  expect(dns + connect + tls + sending + wait + download).toBeLessThanOrEqual(total + 0.001);
}

describe('send over HTTP/1.1', () => {
  it('returns status, raw headers in order, body and what was sent', async () => {
    const result = await send(sendSpec(`${server.url}/things?q=1#frag`, { headers: [['X-Request-Id', 'abc'], ['Accept', 'text/plain']] }), { spoolDir: spool.path });

    expect(result.status).toBe(201);
    expect(result.statusText).toBe('Made It');
    expect(result.httpVersion).toBe('1.1');
    expect(result.headers.slice(0, 4)).toEqual([['X-Mixed-Case', 'A'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'text/plain']]);
    expect(Buffer.from(result.body.bytes).toString()).toBe('echo:0');
    expect(result.body.size).toBe(6);
    expect(result.body.wireSize).toBe(6);
    expect(result.body.spooledTo).toBeUndefined();
    expect(result.hops).toEqual([]);
    expect(result.url).toBe(`${server.url}/things?q=1#frag`);
    expect(result.remoteAddress).toBe(`127.0.0.1:${server.port}`);

    const got = seen.at(-1)!;
    expect(got.url).toBe('/things?q=1');
    expect(got.headers['x-request-id']).toBe('abc');
  });

  it('writes the raw exchange: request line, headers as sent, body preview; response head only', async () => {
    const result = await send(sendSpec(`${server.url}/raw`, { method: 'POST', headers: [['Content-Type', 'text/plain']], body: { type: 'bytes', data: Buffer.from('hello body') } }), {
      spoolDir: spool.path,
    });

    const [head, preview] = result.raw.request.split('\r\n\r\n');
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('POST /raw HTTP/1.1');
    expect(lines).toContain(`host: 127.0.0.1:${server.port}`);
    expect(lines).toContain('Content-Type: text/plain');
    // The framing header undici adds is part of what was sent.
    expect(lines).toContain('content-length: 10');
    expect(preview).toBe('hello body');

    expect(result.raw.response.startsWith('HTTP/1.1 201 Made It\r\nX-Mixed-Case: A\r\nSet-Cookie: a=1\r\n')).toBe(true);
    expect(result.raw.response.endsWith('\r\n\r\n')).toBe(true);
    expect(result.raw.response).not.toContain('echo:');
  });

  it('shows a binary body as a byte count and cuts a long body at 64 KiB with a note', async () => {
    const binary = await send(sendSpec(`${server.url}/bin`, { method: 'PUT', body: { type: 'bytes', data: new Uint8Array([0, 1, 2, 255, 254]) } }), { spoolDir: spool.path });
    expect(binary.raw.request.endsWith('\r\n\r\n[5 bytes binary]')).toBe(true);

    const long = 'x'.repeat(70 * 1024);
    const cut = await send(sendSpec(`${server.url}/long`, { method: 'POST', body: { type: 'bytes', data: Buffer.from(long) } }), { spoolDir: spool.path });
    const preview = cut.raw.request.split('\r\n\r\n')[1]!;
    expect(preview.startsWith('x'.repeat(64 * 1024) + '\n')).toBe(true);
    expect(preview).toContain(`[body cut: first 65536 of ${70 * 1024} bytes shown]`);
    expect(seen.at(-1)!.body.length).toBe(70 * 1024);
  });

  it('reads a chunked body', async () => {
    const result = await send(sendSpec(`${server.url}/chunked`), { spoolDir: spool.path });
    expect(Buffer.from(result.body.bytes).toString()).toBe('first,second');
    expect(result.headers.find(([name]) => name.toLowerCase() === 'transfer-encoding')?.[1]).toBe('chunked');
  });

  it('times every phase, and a reused connection pays no set-up', async () => {
    await closeDispatchers();
    const first = await send(sendSpec(`${server.url}/t1`), { spoolDir: spool.path });
    phasesAreOrdered(first);
    // undici's pool marks the connection free a tick after the body ends; a send in the same
    // tick would open a second connection.
    await new Promise((resolve) => setImmediate(resolve));
    const second = await send(sendSpec(`${server.url}/t2`), { spoolDir: spool.path });
    phasesAreOrdered(second);
    expect([second.timing.dns, second.timing.connect, second.timing.tls]).toEqual([0, 0, 0]);
  });

  it('resolves a host name (DNS phase) for localhost', async () => {
    const result = await send(sendSpec(`http://localhost:${server.port}/dns`), { spoolDir: spool.path });
    expect(result.status).toBe(201);
    phasesAreOrdered(result);
  });

  it('drops framing headers set by hand and sends URL credentials as Basic auth', async () => {
    const url = new URL(`${server.url}/creds`);
    url.username = 'ann';
    url.password = 'p@ss';
    const result = await send(sendSpec(url.href, { headers: [['Connection', 'upgrade'], ['Transfer-Encoding', 'chunked'], ['Content-Length', '99']] }), { spoolDir: spool.path });
    expect(result.status).toBe(201);
    const got = seen.at(-1)!;
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('ann:p@ss').toString('base64')}`);
    expect(got.headers['content-length']).toBeUndefined();
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(result.url).toBe(`${server.url}/creds`);
  });
});
