/**
 * The undici dispatcher a definition fetch goes through: the proxy and extra CAs from the
 * preferences (SPEC "Credentials for fetching a definition" 5). Redirects are never followed
 * here: the fetcher follows them hop by hop to decide, per hop, whether credentials go along.
 */
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { ParleyError } from '../../../../protocol/errors.js';
import type { FetchNetwork } from '../../../../protocol/model/import.js';

/** Until the response headers arrive, and between body chunks. */
const TIMEOUT_MS = 30_000;

export function createFetchDispatcher(network: FetchNetwork): Dispatcher {
  const timeouts = { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS };
  const tls = network.caPem === '' ? {} : { secureContext: trustingAlso(network.caPem) };
  if (network.proxy === '') return new Agent({ ...timeouts, connect: tls });
  let proxyUrl: URL;
  try {
    proxyUrl = new URL(network.proxy);
  } catch {
    throw new ParleyError('bad-proxy', 'The proxy in the preferences is not a valid URL.');
  }
  return new ProxyAgent({ ...timeouts, uri: proxyUrl.href, requestTls: tls });
}

/** Extra CAs are added to the bundled roots, not put in their place. */
function trustingAlso(caPem: string) {
  try {
    return createSecureContext({ ca: [...rootCertificates, caPem] });
  } catch {
    throw new ParleyError('bad-ca', 'The extra CA certificates in the preferences are not valid PEM.');
  }
}
