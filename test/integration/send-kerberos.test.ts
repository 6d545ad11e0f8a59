/**
 * Kerberos request auth on the send path against a real MIT KDC (test/support/kdc.ts) and an HTTP
 * server requiring Negotiate (test/support/negotiate-server.mjs), all on 127.0.0.1: a request the
 * supervisor resolves with auth kerberos gets the 401 Negotiate answered with a token and ends
 * 200, the server having accepted the signed-in user; nobody signed in is a clear
 * auth-kerberos-no-ticket error; a redirect to another origin reaches that origin without any
 * Authorization (it records what it got). The KDC's krb5.conf and ticket cache are this test
 * process's environment (vitest runs each file in its own process). Under CI=true missing krb5
 * tools fail; elsewhere they skip.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../protocol/model/api.js';
import type { Request } from '../../protocol/model/request.js';
import { hasCode } from '../../protocol/errors.js';
import { closeDispatchers, send } from '../../processes/sender/engine/index.js';
import { sendSpec } from '../../processes/sender/engine/test-support/spec.js';
import { resolveRequest, type ResolveContext } from '../../processes/supervisor/send/resolve.js';
import { kerberosMissing, startKdc, type Kdc } from '../support/kdc.js';
import { startNegotiateServer, startRecordingOrigin, type NegotiateServer, type RecordingOrigin } from '../support/negotiate-server.js';

const missing = kerberosMissing();

let work: string;
let kdc: Kdc;
let server: NegotiateServer;
/**
 * Another origin (another port) the Negotiate server redirects to; it records what it got, and asks
 * for Negotiate too, so a sender that wrongly answered it would show a second request with a token.
 */
let other: RecordingOrigin;

beforeAll(async () => {
  if (missing) return;
  work = await mkdtemp(join(tmpdir(), 'parley-send-kerberos-'));
  kdc = await startKdc();
  Object.assign(process.env, kdc.env);
  const hello = join(work, 'hello.txt');
  await writeFile(hello, 'hello, alice');
  other = await startRecordingOrigin((res) => res.writeHead(401, { 'www-authenticate': 'Negotiate', 'content-type': 'text/plain' }).end('elsewhere'));
  server = await startNegotiateServer(kdc, {
    '/hello': { file: hello, contentType: 'text/plain' },
    '/away': { redirect: `${other.origin}/landing` },
  });
});

afterAll(async () => {
  if (missing) return;
  await closeDispatchers();
  await server?.close();
  await other?.close();
  await kdc?.stop();
  await rm(work, { recursive: true, force: true });
});

/** The spec the supervisor makes of a request with auth kerberos: what the sender gets over the bus. */
async function resolvedSpec(path: string, spn = ''): Promise<ReturnType<typeof sendSpec>> {
  const request = {
    id: 'r1',
    name: 'hello',
    method: 'GET',
    url: path,
    pathParams: [],
    query: [],
    headers: [],
    body: { kind: 'none' },
    auth: { type: 'kerberos', spn },
    settings: { timeoutMs: 10_000, httpVersion: '1.1' },
  } as unknown as Request;
  const api = { id: 'a1', name: 'Kerb', baseUrl: server.origin, auth: { type: 'none' } } as unknown as Api;
  const ctx: ResolveContext = {
    expander: { expand: (t: string) => t, unresolved: new Set<string>(), secretValues: new Map() } as unknown as ResolveContext['expander'],
    projectRoot: work,
    proxy: '',
    caPem: '',
    inlineLimit: 1024 * 1024,
    oauthToken: () => Promise.reject(new Error('no OAuth here')),
  };
  return resolveRequest(request, api, ctx);
}

describe.skipIf(missing !== null)(`a request with Kerberos auth${missing ? ` (skipped: ${missing})` : ''}`, { timeout: 60_000 }, () => {
  it('with nobody signed in fails with auth-kerberos-no-ticket, saying to sign in', async () => {
    process.env.KRB5CCNAME = kdc.noTicketEnv.KRB5CCNAME;
    try {
      const spec = await resolvedSpec('/hello');
      const err = await send(spec, { spoolDir: work }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(hasCode(err, 'auth-kerberos-no-ticket')).toBe(true);
      expect((err as Error).message).toMatch(/^The request to 127\.0\.0\.1:\d+ could not sign in with Kerberos: there is no valid signed-in Kerberos ticket\. Sign in \(kinit/);
    } finally {
      process.env.KRB5CCNAME = kdc.env.KRB5CCNAME;
    }
  });

  it('answers the 401 Negotiate with a token from the signed-in ticket and gets 200', async () => {
    const spec = await resolvedSpec('/hello');
    expect(spec.negotiate).toEqual({ spn: '' });
    const before = server.seen.length;
    const result = await send(spec, { spoolDir: work });
    expect(result.status).toBe(200);
    expect(new TextDecoder().decode(result.body.bytes)).toBe('hello, alice');
    const seen = server.seen.slice(before);
    // Asked first without a token (not preemptive), then once with it.
    expect(seen.map((s) => s.authorization)).toEqual([null, 'Negotiate']);
    expect(seen[1]!.user).toBe(kdc.user);
    // The raw request shows the scheme that was sent.
    expect(result.raw.request).toMatch(/^Authorization: Negotiate /m);
  });

  it('with an SPN the KDC does not know fails with auth-kerberos-bad-spn naming it', async () => {
    const spec = await resolvedSpec('/hello', 'HTTP/nosuch.parley.test@PARLEY.TEST');
    const err = await send(spec, { spoolDir: work }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(hasCode(err, 'auth-kerberos-bad-spn')).toBe(true);
    expect((err as Error).message).toMatch(/does not know the service HTTP@nosuch\.parley\.test/);
  });

  it('a redirect to another origin goes there without any Authorization, and its 401 Negotiate is not answered', async () => {
    const before = server.seen.length;
    const result = await send(sendSpec(`${server.origin}/away`, { negotiate: { spn: '' } }), { spoolDir: work });
    expect(result.status).toBe(401);
    expect(new TextDecoder().decode(result.body.bytes)).toBe('elsewhere');
    expect(result.hops.map((h) => h.status)).toEqual([302]);
      // The redirect itself came after the token was accepted on the request's own origin.
    expect(server.seen.slice(before).map((s) => s.user)).toEqual([null, kdc.user]);
    expect(other.saw).toHaveLength(1);
    expect(other.saw[0]!.authorization).toBeUndefined();
  });
});
