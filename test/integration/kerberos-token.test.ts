/**
 * The SPNEGO token path against a real MIT KDC alone (test/support/kdc.ts), without an HTTP
 * server: a token for HTTP@127.0.0.1 from the signed-in ticket is a SPNEGO NegTokenInit; nobody
 * signed in, an SPN the KDC does not know, and a KDC that is gone become the errors Parley words. The KDC's
 * krb5.conf and ticket cache are this test process's environment (vitest runs each file in its
 * own process). Under CI=true missing krb5 tools fail; elsewhere they skip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kerberosError, kerberosToken } from '../../protocol/spnego.js';
import { kerberosMissing, startKdc, type Kdc } from '../support/kdc.js';

const missing = kerberosMissing();
let kdc: Kdc;

async function tokenOrError(service: string) {
  try {
    return { token: await kerberosToken(service) };
  } catch (err) {
    return { err: kerberosError(err, 'http://127.0.0.1/x.wsdl', service) };
  }
}

beforeAll(async () => {
  if (missing) return;
  kdc = await startKdc();
  Object.assign(process.env, kdc.env);
});
afterAll(async () => {
  await kdc?.stop();
});

describe.skipIf(missing !== null)(`a SPNEGO token from a real KDC${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('with nobody signed in is definition-auth-no-ticket', async () => {
    process.env.KRB5CCNAME = kdc.noTicketEnv.KRB5CCNAME;
    try {
      const { err } = await tokenOrError('HTTP@127.0.0.1');
      expect(err).toMatchObject({ code: 'definition-auth-no-ticket' });
      expect(err!.message).toMatch(/there is no valid signed-in Kerberos ticket\. Sign in \(kinit/);
    } finally {
      process.env.KRB5CCNAME = kdc.env.KRB5CCNAME;
    }
  });

  it('is a SPNEGO NegTokenInit for HTTP@127.0.0.1', async () => {
    const { token, err } = await tokenOrError('HTTP@127.0.0.1');
    expect(err).toBeUndefined();
    // ASN.1 application tag 0 (0x60), then the SPNEGO OID 1.3.6.1.5.5.2.
    const bytes = Buffer.from(token!, 'base64');
    expect(bytes[0]).toBe(0x60);
    expect(bytes.includes(Buffer.from([0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02]))).toBe(true);
  });

  it('for a service the KDC does not know is definition-auth-bad-spn', async () => {
    const { err } = await tokenOrError('HTTP@nosuch.parley.test');
    expect(err).toMatchObject({ code: 'definition-auth-bad-spn' });
    expect(err!.message).toMatch(/does not know the service HTTP@nosuch\.parley\.test\. Check the SPN[^]*not found in Kerberos database/);
  });

  it('with the KDC gone is definition-auth-kdc-unreachable', async () => {
    await kdc.stopKdc();
    const started = Date.now();
    // A service never asked for before: its ticket must come from the KDC.
    const { err } = await tokenOrError('HTTP@localhost');
    expect(err).toMatchObject({ code: 'definition-auth-kdc-unreachable' });
    expect(err!.message).toMatch(/no Kerberos KDC could be reached/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
