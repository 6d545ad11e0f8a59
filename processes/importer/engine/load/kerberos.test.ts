/**
 * Kerberos (SPNEGO) in the job's loader, against real servers on 127.0.0.1 that record what they
 * received, with the token maker replaced (the real one is exercised against a real KDC in
 * test/integration/import-kerberos.test.ts): a 401 offering Negotiate from the entry's origin is
 * asked again once with the token; a server that does not offer Negotiate, one that refuses the
 * token, and a hop to another origin are reported as SPEC says and never get a token; GSSAPI's
 * failures become errors that say what to do; cancel stops a token that never comes.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../../../protocol/errors.js';
import { createDocumentLoader } from './loader.js';
import { kerberosModule, serviceName } from '../../../../protocol/spnego.js';

const TOKEN = 'c3BuZWdvLXRva2Vu';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

let a: Server;
let b: Server;
let aUrl = '';
let bUrl = '';
const aLog: Seen[] = [];
const bLog: Seen[] = [];

const doc = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/yaml' }).end('openapi: 3.0.3\n');

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  a = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    aLog.push({ path, headers: req.headers });
    const negotiated = req.headers.authorization === `Negotiate ${TOKEN}`;
    if (path === '/basic-only') return void res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
    if (path === '/refuses') return void res.writeHead(401, { 'www-authenticate': 'Negotiate' }).end();
    if (path === '/open-redirect') return void res.writeHead(302, { location: `${bUrl}/guarded` }).end();
    if (!negotiated) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="x", Negotiate' }).end();
    if (path === '/guarded') return doc(res);
    if (path === '/to-b') return void res.writeHead(302, { location: `${bUrl}/open` }).end();
    res.writeHead(404).end();
  });
  b = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    bLog.push({ path, headers: req.headers });
    if (path === '/open') return doc(res);
    res.writeHead(401, { 'www-authenticate': 'Negotiate' }).end();
  });
  aUrl = await listen(a);
  bUrl = await listen(b);
});

afterAll(async () => {
  await new Promise((r) => a.close(r));
  await new Promise((r) => b.close(r));
});

/** Loads `url` as an entry with Kerberos; returns what it read or the error, and the services asked for. */
async function load(url: string, make: (service: string) => Promise<string> = async () => TOKEN, spn?: string, signal?: AbortSignal) {
  const asked: string[] = [];
  const loader = createDocumentLoader({
    credentials: spn === undefined ? { type: 'kerberos' } : { type: 'kerberos', spn },
    negotiate: (service) => (asked.push(service), make(service)),
    ...(signal ? { signal } : {}),
  });
  try {
    const loaded = await loader.load(new URL(url), 'entry');
    return { loaded, asked };
  } catch (err) {
    return { err: err as ParleyError, asked };
  } finally {
    await loader.close();
  }
}

describe('Kerberos definition authentication', () => {
  it('answers a 401 offering Negotiate with a token for HTTP@<host>, on the same request again', async () => {
    aLog.length = 0;
    const { loaded, asked, err } = await load(`${aUrl}/guarded`);
    expect(err).toBeUndefined();
    expect(Buffer.from(loaded!.bytes).toString()).toBe('openapi: 3.0.3\n');
    expect(asked).toEqual(['HTTP@127.0.0.1']);
    expect(aLog.map((s) => s.headers.authorization)).toEqual([undefined, `Negotiate ${TOKEN}`]);
  });

  it('uses the SPN given, HTTP/host@REALM as HTTP@host', async () => {
    expect((await load(`${aUrl}/guarded`, undefined, 'HTTP/svc.example.test@EXAMPLE.TEST')).asked).toEqual(['HTTP@svc.example.test']);
    expect((await load(`${aUrl}/guarded`, undefined, 'HTTP@other.example.test')).asked).toEqual(['HTTP@other.example.test']);
  });

  it('refuses an SPN that is not one, before asking Kerberos', async () => {
    const { err, asked } = await load(`${aUrl}/guarded`, undefined, 'HTTP @ bad host');
    expect(err).toMatchObject({ code: 'definition-auth-bad-spn' });
    expect(err!.message).toMatch(/is not a service principal name: write it as HTTP@host or HTTP\/host@REALM/);
    expect(asked).toEqual([]);
    expect(() => serviceName('a/b/c', 'h')).toThrow(ParleyError);
    expect(serviceName('  ', '[::1]')).toBe('HTTP@::1');
  });

  it('a server that does not offer Negotiate needs authentication, and gets no token', async () => {
    const { err, asked } = await load(`${aUrl}/basic-only`);
    expect(err).toMatchObject({ code: 'auth-required' });
    expect(err!.message).toBe(`${aUrl}/basic-only needs authentication (HTTP 401), but does not offer Kerberos (Negotiate).`);
    expect(asked).toEqual([]);
  });

  it('a server that answers the token with 401 again refused the ticket (asked once, no loop)', async () => {
    aLog.length = 0;
    const { err, asked } = await load(`${aUrl}/refuses`);
    expect(err).toMatchObject({ code: 'auth-refused' });
    expect(err!.message).toBe(`${aUrl}/refuses refused the signed-in Kerberos ticket (HTTP 401).`);
    expect(asked).toHaveLength(1);
    expect(aLog).toHaveLength(2);
  });

  it('a redirect to another origin is followed without the token', async () => {
    bLog.length = 0;
    const { loaded, asked } = await load(`${aUrl}/to-b`);
    expect(loaded?.url).toBe(`${bUrl}/open`);
    expect(asked).toEqual(['HTTP@127.0.0.1']);
    expect(bLog.map((s) => s.headers.authorization)).toEqual([undefined]);
  });

  it('another origin asking for Negotiate after a redirect gets no token: it needs authentication', async () => {
    bLog.length = 0;
    const { err, asked } = await load(`${aUrl}/open-redirect`);
    expect(err).toMatchObject({ code: 'auth-required' });
    expect(asked).toEqual([]);
    expect(bLog.map((s) => s.headers.authorization)).toEqual([undefined]);
  });

  it.each([
    ['No credentials were supplied, or the credentials were unavailable or inaccessible: SPNEGO cannot find mechanisms to negotiate', 'definition-auth-no-ticket', /no valid signed-in Kerberos ticket\. Sign in \(kinit/],
    ['Unspecified GSS failure.  Minor code may provide more information: Server HTTP/x@R not found in Kerberos database', 'definition-auth-bad-spn', /the Kerberos KDC does not know the service HTTP@127\.0\.0\.1/],
    ['Unspecified GSS failure.  Minor code may provide more information: Cannot contact any KDC for realm \'R\'', 'definition-auth-kdc-unreachable', /no Kerberos KDC could be reached/],
    ['Something else entirely', 'definition-auth-kerberos-failed', /Kerberos could not make a token for the service HTTP@127\.0\.0\.1\. Kerberos said: Something else entirely/],
  ])('GSSAPI saying "%s" is %s, with its words after Parley\'s', async (said, code, message) => {
    const { err } = await load(`${aUrl}/guarded`, () => Promise.reject(new Error(said)));
    expect(err).toMatchObject({ code });
    expect(err!.message).toMatch(message);
    expect(err!.message.startsWith(`${aUrl}/guarded was not fetched: `)).toBe(true);
  });

  it('cancel stops the wait for a token that never comes', async () => {
    const cancel = new AbortController();
    const started = Date.now();
    const pending = load(`${aUrl}/guarded`, () => new Promise<string>(() => cancel.abort()), undefined, cancel.signal);
    const { err } = await pending;
    expect(err).toMatchObject({ code: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('without the kerberos module', () => {
  it('says Kerberos needs the system library and what to install', () => {
    const missing = () => {
      throw new Error("Cannot find module 'kerberos'\nRequire stack: ...");
    };
    expect(() => kerberosModule(missing)).toThrow(ParleyError);
    try {
      kerberosModule(missing);
    } catch (err) {
      expect(err).toMatchObject({ code: 'kerberos-unavailable' });
      expect((err as Error).message).toBe(
        "Kerberos sign-in is not available here: Parley's kerberos module could not be loaded (Cannot find module 'kerberos'). It needs the system Kerberos library: install libkrb5-dev (Debian/Ubuntu) or krb5-devel (Fedora), then reinstall Parley's dependencies (npm install).",
      );
    }
  });
});
