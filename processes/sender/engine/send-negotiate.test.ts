/**
 * Kerberos on a send with the token maker replaced (the real one, against a real KDC, is
 * test/integration/send-kerberos.test.ts): servers on 127.0.0.1 record what they got. A 401
 * Negotiate is answered once, for HTTP@<host> or the SPN given, with the body sent again; a token
 * refused is the 401 shown; a server that does not ask never gets a token; a cancel stops a token
 * that never comes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { closeDispatchers, send } from './index.js';
import { readRequestBody, startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

const TOKEN = 'c3BuZWdvLXRva2Vu';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: RunningServer;
const seen: Seen[] = [];
const spool = tempDir();

beforeAll(async () => {
  server = await startHttp(async (req, res) => {
    const body = (await readRequestBody(req)).toString();
    const path = req.url ?? '';
    seen.push({ path, headers: req.headers, body });
    if (path === '/open') return void res.writeHead(200).end('open');
    if (path === '/basic-only') return void res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
    const accepted = req.headers.authorization === `Negotiate ${TOKEN}`;
    if (path === '/refuses' || !accepted) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="x", Negotiate' }).end('sign in');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${body}`);
  });
});

afterAll(async () => {
  await closeDispatchers();
  await server.close();
  spool.remove();
});

function maker(services: string[]) {
  return (service: string) => {
    services.push(service);
    return Promise.resolve(TOKEN);
  };
}

describe('a send with Kerberos auth', () => {
  it('answers a 401 offering Negotiate once with a token for HTTP@<host>, the body sent again', async () => {
    seen.length = 0;
    const services: string[] = [];
    const spec = sendSpec(`${server.url}/secure`, { method: 'POST', body: { type: 'bytes', data: new TextEncoder().encode('alice') }, negotiate: { spn: '' } });
    const result = await send(spec, { spoolDir: spool.path, negotiate: maker(services) });
    expect(result.status).toBe(200);
    expect(new TextDecoder().decode(result.body.bytes)).toBe('hello alice');
    expect(services).toEqual(['HTTP@127.0.0.1']);
    expect(seen.map((s) => [s.headers.authorization, s.body])).toEqual([
      [undefined, 'alice'],
      [`Negotiate ${TOKEN}`, 'alice'],
    ]);
  });

  it('makes the token for the SPN given', async () => {
    const services: string[] = [];
    await send(sendSpec(`${server.url}/secure`, { negotiate: { spn: 'HTTP/svc.example.test@EXAMPLE.TEST' } }), { spoolDir: spool.path, negotiate: maker(services) });
    expect(services).toEqual(['HTTP@svc.example.test']);
  });

  it('shows the 401 of a refused token, after one try', async () => {
    seen.length = 0;
    const result = await send(sendSpec(`${server.url}/refuses`, { negotiate: { spn: '' } }), { spoolDir: spool.path, negotiate: maker([]) });
    expect(result.status).toBe(401);
    expect(seen.map((s) => s.headers.authorization)).toEqual([undefined, `Negotiate ${TOKEN}`]);
  });

  it('never makes a token for a server that does not ask for Negotiate', async () => {
    const services: string[] = [];
    expect((await send(sendSpec(`${server.url}/open`, { negotiate: { spn: '' } }), { spoolDir: spool.path, negotiate: maker(services) })).status).toBe(200);
    expect((await send(sendSpec(`${server.url}/basic-only`, { negotiate: { spn: '' } }), { spoolDir: spool.path, negotiate: maker(services) })).status).toBe(401);
    expect(services).toEqual([]);
  });

  it('without Kerberos auth a 401 Negotiate is the response', async () => {
    const services: string[] = [];
    expect((await send(sendSpec(`${server.url}/secure`), { spoolDir: spool.path, negotiate: maker(services) })).status).toBe(401);
    expect(services).toEqual([]);
  });

  it('a cancel stops the wait for a token that never comes', async () => {
    const controller = new AbortController();
    let failure: unknown;
    const asked = new Promise<void>((resolve) => {
      const never = () => {
        resolve();
        return new Promise<string>(() => undefined);
      };
      void send(sendSpec(`${server.url}/secure`, { negotiate: { spn: '' } }), { spoolDir: spool.path, signal: controller.signal, negotiate: never }).catch((err: unknown) => {
        failure = err;
      });
    });
    await asked;
    controller.abort();
    await expect.poll(() => failure).toBeDefined();
    expect(hasCode(failure, 'cancelled')).toBe(true);
  });

  it('a token maker failure is an auth-kerberos error naming the host', async () => {
    const err = await send(sendSpec(`${server.url}/secure`, { negotiate: { spn: '' } }), {
      spoolDir: spool.path,
      negotiate: () => Promise.reject(new Error('No Kerberos credentials available (default cache: FILE:/tmp/none)')),
    }).catch((e: unknown) => e);
    expect(hasCode(err, 'auth-kerberos-no-ticket')).toBe(true);
    expect((err as Error).message).toMatch(/^The request to 127\.0\.0\.1:\d+ could not sign in with Kerberos: there is no valid signed-in Kerberos ticket/);
  });
});
