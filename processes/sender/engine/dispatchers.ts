import { createHash } from 'node:crypto';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Agent, Pool, ProxyAgent, buildConnector, type Dispatcher } from 'undici';
import { ParleyError } from '../../../protocol/errors.js';
import type { SendSpec } from '../../../protocol/model/exchange.js';
import { timeDirectConnections, timeTunnelledConnections } from './connection-timing.js';

/** What makes two sends need different connections: the proxy, the trusted CAs, the HTTP version. */
export type DispatcherKey = Pick<SendSpec, 'proxy' | 'caPem' | 'httpVersion' | 'insecure'>;

/**
 * The network a dispatcher is made for. One factory serves sends, definition fetches (the
 * importer) and OAuth token calls (the supervisor), so a proxy or extra CA means the same to all.
 */
export interface NetworkSettings {
  /** The preferences' proxy (`http://host:port`), or '' for none. */
  proxy: string;
  /** Extra CAs (PEM) trusted beside the bundled roots, or ''. */
  caPem: string;
  httpVersion?: SendSpec['httpVersion'];
  /** undici's own limits until the headers and between body chunks; 0 (sends) leaves timing to the caller. */
  timeoutMs?: number;
  /** Accept any certificate (`parley run --insecure`). */
  insecure?: boolean;
}

/** A few combinations are normal (one proxy, one CA); more means settings are being flipped. */
const MAX_CACHED = 8;
const cache = new Map<string, Dispatcher>();

/** One dispatcher per (proxy, CA, HTTP version), reused so connections are kept alive. */
export function dispatcherFor(key: DispatcherKey): Dispatcher {
  const id = cacheId(key);
  const cached = cache.get(id);
  if (cached !== undefined) {
    // Move to the back: the map's order is least recently used first.
    cache.delete(id);
    cache.set(id, cached);
    return cached;
  }
  const dispatcher = createDispatcher(key);
  cache.set(id, dispatcher);
  if (cache.size > MAX_CACHED) {
    const [oldestId, oldest] = cache.entries().next().value as [string, Dispatcher];
    cache.delete(oldestId);
    // close() lets requests already running on it finish.
    void oldest.close().catch(() => undefined);
  }
  return dispatcher;
}

/** Closes every cached dispatcher (on shutdown, or in tests). */
export async function closeDispatchers(): Promise<void> {
  const all = [...cache.values()];
  cache.clear();
  await Promise.all(all.map((d) => d.destroy().catch(() => undefined)));
}

function cacheId({ proxy, caPem, httpVersion, insecure }: DispatcherKey): string {
  const ca = caPem === '' ? '' : createHash('sha256').update(caPem).digest('hex');
  return `${httpVersion}|${proxy}|${ca}|${insecure === true ? 'insecure' : ''}`;
}

export function createDispatcher({ proxy, caPem, httpVersion = '1.1', timeoutMs = 0, insecure = false }: NetworkSettings): Dispatcher {
  const allowH2 = httpVersion === '2';
  const tls = { ...(caPem === '' ? {} : { secureContext: trustingAlso(caPem) }), ...(insecure ? { rejectUnauthorized: false } : {}) };
  // A send's timeouts are the engine's own (until headers only), so undici's are off there.
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  if (proxy === '') {
    return new Agent({ ...timeouts, allowH2, connect: timeDirectConnections(buildConnector({ ...tls, allowH2 })) });
  }
  const proxyUrl = parseProxyUrl(proxy);
  return new ProxyAgent({
    ...timeouts,
    uri: proxyUrl.href,
    allowH2,
    requestTls: { ...tls, allowH2 },
    // The connection to the proxy itself: timed like a direct one.
    clientFactory: (origin: URL, opts: object) =>
      new Pool(origin, { ...opts, connect: timeDirectConnections((opts as { connect: buildConnector.connector }).connect) }),
    // The connection to the target, tunnelled through the proxy.
    factory: (origin: string | URL, opts: object) =>
      new Pool(origin, { ...opts, connect: timeTunnelledConnections((opts as { connect: buildConnector.connector }).connect) }),
  });
}

/**
 * Extra CAs are added to the default trust, not put in its place: passing `ca` alone to TLS
 * would replace the bundled roots. Built once per dispatcher, not per connection.
 */
function trustingAlso(caPem: string): SecureContext {
  try {
    return createSecureContext({ ca: [...rootCertificates, caPem] });
  } catch {
    throw new ParleyError('bad-ca', 'The extra CA certificates in the preferences are not valid PEM.');
  }
}

/** The preferences' proxy as a URL: http: or https:, refused otherwise (`bad-url`). */
export function parseProxyUrl(proxy: string): URL {
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    throw new ParleyError('bad-url', 'The proxy in the preferences is not a valid URL (expected http://host:port).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ParleyError('bad-url', `The proxy scheme ${url.protocol} is not supported (expected http://host:port).`);
  }
  return url;
}
