/**
 * Kerberos (SPNEGO): a Negotiate token for one service from the signed-in ticket, through the
 * `kerberos` package (native, an optional dependency). One engine for the importer's definition
 * fetcher and the sender's requests (node-only: the page never imports it). The package is
 * loaded on first use only, so an import or send without Kerberos never needs the system library.
 * GSSAPI's own words are kept after a message that says what was wrong in Parley's terms.
 */
import { createRequire } from 'node:module';
import { ParleyError, quote } from './errors.js';

/**
 * What the token was for, which words its errors use: a definition fetch
 * (`definition-auth-*`, "<url> was not fetched") or a request (`auth-kerberos-*`, "The request to <host> could not sign in with Kerberos").
 */
export type KerberosPurpose = 'definition' | 'request';

const CODE_PREFIX: Record<KerberosPurpose, string> = { definition: 'definition-auth', request: 'auth-kerberos' };

function notDone(purpose: KerberosPurpose, shown: string): string {
  return purpose === 'definition' ? `${shown} was not fetched` : `The request to ${shown} could not sign in with Kerberos`;
}

/** Makes the token for `service` (`HTTP@host`); the fetcher's seam for tests. */
export type NegotiateToken = (service: string) => Promise<string>;

interface KerberosModule {
  initializeClient(service: string, options?: { mechOID?: number }): Promise<{ step(challenge: string): Promise<string> }>;
  GSS_MECH_OID_SPNEGO: number;
}

let loaded: KerberosModule | undefined;

// createRequire: the package is CommonJS with a native addon, kept out of the bundle.
const requireKerberos = (): KerberosModule => createRequire(import.meta.url)('kerberos') as KerberosModule;

/** The `kerberos` package, or `kerberos-unavailable` naming what to install. `load` is a seam for tests. */
export function kerberosModule(load: () => KerberosModule = requireKerberos): KerberosModule {
  if (loaded && load === requireKerberos) return loaded;
  try {
    const module = load();
    if (load === requireKerberos) loaded = module;
    return module;
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ParleyError(
      'kerberos-unavailable',
      `Kerberos sign-in is not available here: Parley's kerberos module could not be loaded (${reason}). It needs the system Kerberos library: install libkrb5-dev (Debian/Ubuntu) or krb5-devel (Fedora), then reinstall Parley's dependencies (npm install).`,
    );
  }
}

/**
 * The GSSAPI service name for an SPN as typed: `HTTP@host` as it is; `HTTP/host` or
 * `HTTP/host@REALM` as `HTTP@host` (the realm then comes from krb5.conf's domain_realm, as for
 * any host-based name). Empty or absent: `HTTP@<host>` of the document.
 */
export function serviceName(spn: string | undefined, host: string, purpose: KerberosPurpose = 'definition'): string {
  const typed = spn?.trim() ?? '';
  if (typed === '') return `HTTP@${host.replace(/^\[|\]$/g, '')}`;
  const bad = () => new ParleyError(`${CODE_PREFIX[purpose]}-bad-spn`, `The SPN ${quote(typed)} is not a service principal name: write it as HTTP@host or HTTP/host@REALM.`);
  if (/[\s\p{Cc}]/u.test(typed) || typed.length > 255) throw bad();
  const principal = /^([^/@]+)\/([^/@]+)(?:@[^/@]+)?$/.exec(typed);
  if (principal) return `${principal[1]}@${principal[2]}`;
  if (/^[^/@]+@[^/@]+$/.test(typed)) return typed;
  throw bad();
}

/** A SPNEGO token from the signed-in ticket (no mutual authentication: the server's answer token is not checked). */
export const kerberosToken: NegotiateToken = async (service) => {
  const kerberos = kerberosModule();
  const client = await kerberos.initializeClient(service, { mechOID: kerberos.GSS_MECH_OID_SPNEGO });
  return client.step('');
};

/**
 * A library failure as the error the user reads: what went wrong, for which URL (a definition)
 * or host (a request) and service, then GSSAPI's words.
 */
export function kerberosError(err: unknown, shown: string, service: string, purpose: KerberosPurpose = 'definition'): ParleyError {
  if (err instanceof ParleyError) return err;
  const prefix = CODE_PREFIX[purpose];
  const not = notDone(purpose, shown);
  const detail = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  const data = purpose === 'definition' ? { url: shown, service, detail } : { host: shown, service, detail };
  const said = (words: RegExp) => words.test(detail);
  if (said(/no credentials (were supplied|cache)|credentials cache file .* not found|no kerberos credentials|ticket expired|credentials? (have|has) expired|matching credential not found/i)) {
    return new ParleyError(`${prefix}-no-ticket`, `${not}: there is no valid signed-in Kerberos ticket. Sign in (kinit, or your system's sign-in) and try again. Kerberos said: ${detail}`, data);
  }
  if (said(/not found in kerberos database|server not found|unknown server|cannot determine realm/i)) {
    return new ParleyError(`${prefix}-bad-spn`, `${not}: the Kerberos KDC does not know the service ${service}. Check the SPN (it defaults to HTTP@<host of the URL>). Kerberos said: ${detail}`, data);
  }
  if (said(/cannot (contact|find) any kdc|cannot find kdc|unable to reach any kdc|connection refused|resolving|timed out/i)) {
    return new ParleyError(`${prefix}-kdc-unreachable`, `${not}: no Kerberos KDC could be reached for the service ${service}. Check the network and krb5.conf. Kerberos said: ${detail}`, data);
  }
  return new ParleyError(purpose === 'definition' ? 'definition-auth-kerberos-failed' : 'auth-kerberos-failed', `${not}: Kerberos could not make a token for the service ${service}. Kerberos said: ${detail}`, data);
}
