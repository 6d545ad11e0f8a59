import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { buildConnector } from 'undici';

/** How long a new connection took to set up, per phase, in ms. */
export interface ConnectionTiming {
  dns: number;
  connect: number;
  tls: number;
}

const NO_SETUP: ConnectionTiming = { dns: 0, connect: 0, tls: 0 };

/** Set-up timing of each socket we opened; the first request on a socket claims it. */
const bySocket = new WeakMap<object, ConnectionTiming & { claimed: boolean }>();

/**
 * The set-up phases paid by the request now using `socket`: the first request on a new
 * connection gets them, a request on a reused connection gets zeros and `reused`.
 */
export function claimConnectionTiming(socket: object): { timing: ConnectionTiming; reused: boolean } {
  const timing = bySocket.get(socket);
  if (timing === undefined || timing.claimed) return { timing: NO_SETUP, reused: true };
  timing.claimed = true;
  return { timing: { dns: timing.dns, connect: timing.connect, tls: timing.tls }, reused: false };
}

type Connector = buildConnector.connector;
type ConnectorOptions = buildConnector.Options;
interface SocketEvents {
  once(event: string, listener: () => void): unknown;
}

/**
 * Wraps undici's connector to time DNS, TCP and TLS with the socket's own events. undici's
 * connector returns the socket it creates (its typings say void); without it we can only time
 * the whole set-up, which then counts as `connect`.
 */
export function timeDirectConnections(connector: Connector): Connector {
  return (options: ConnectorOptions, callback) => {
    const started = performance.now();
    let lookedUp: number | undefined;
    let connected: number | undefined;
    const socket = (connector as (o: ConnectorOptions, cb: buildConnector.Callback) => unknown)(options, (err, sock) => {
      if (err === null) {
        const done = performance.now();
        const dnsDone = lookedUp ?? started;
        const tcpDone = connected ?? done;
        bySocket.set(sock, {
          dns: dnsDone - started,
          connect: Math.max(0, tcpDone - dnsDone),
          tls: options.protocol === 'https:' ? Math.max(0, done - tcpDone) : 0,
          claimed: false,
        });
        callback(null, sock);
      } else {
        callback(err, null);
      }
    });
    if (isEventSource(socket)) {
      socket.once('lookup', () => (lookedUp = performance.now()));
      socket.once('connect', () => (connected = performance.now()));
    }
  };
}

/**
 * Through a proxy the target connection is: TCP to the proxy, a CONNECT tunnel, then TLS inside
 * it. undici announces the open tunnel on `undici:proxy:connected` from inside the connect call,
 * so an AsyncLocalStorage store ties that event to the connection being timed.
 */
interface TunnelProgress {
  tunnelledAt?: number;
  proxySocket?: object;
}
const tunnelProgress = new AsyncLocalStorage<TunnelProgress>();

diagnosticsChannel.subscribe('undici:proxy:connected', (message) => {
  const progress = tunnelProgress.getStore();
  if (progress === undefined) return;
  progress.tunnelledAt = performance.now();
  progress.proxySocket = (message as { socket?: object }).socket;
});

/** Wraps ProxyAgent's tunnelling connector: dns = the proxy's, connect = TCP + CONNECT, tls = inside the tunnel. */
export function timeTunnelledConnections(tunnel: Connector): Connector {
  return (options: ConnectorOptions, callback) => {
    const started = performance.now();
    const progress: TunnelProgress = {};
    tunnelProgress.run(progress, () =>
      tunnel(options, (err, sock) => {
        if (err === null) {
          const done = performance.now();
          const proxyTiming = progress.proxySocket === undefined ? undefined : bySocket.get(progress.proxySocket);
          const dns = proxyTiming?.dns ?? 0;
          const tunnelled = progress.tunnelledAt ?? done;
          bySocket.set(sock, {
            dns,
            connect: Math.max(0, tunnelled - started - dns),
            tls: options.protocol === 'https:' ? Math.max(0, done - tunnelled) : 0,
            claimed: false,
          });
          callback(null, sock);
        } else {
          callback(err, null);
        }
      }),
    );
  };
}

function isEventSource(value: unknown): value is SocketEvents {
  return typeof value === 'object' && value !== null && typeof (value as SocketEvents).once === 'function';
}
