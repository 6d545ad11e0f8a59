/**
 * A WebSocket through the preferences' proxy (docs/websocket.md): an HTTP CONNECT tunnel to the
 * target's host and port, opened as undici's ProxyAgent opens one for an HTTP send (the same
 * proxy URL, http: or https:, its user and password sent as Proxy-Authorization Basic), and the
 * handshake then goes over the tunnel (inside TLS for wss:). Node's ClientRequest takes a socket
 * made later (`createConnection` calling back), so ws needs nothing else.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { ParleyError } from '../../../../protocol/errors.js';

export interface Tunnel {
  /** The target, `host:port` (an IPv6 host in brackets), as CONNECT names it. */
  authority: string;
  /** TLS settings for an https: proxy (the preferences' extra CAs, `insecure`). */
  tls: ConnectionOptions;
  signal: AbortSignal;
}

/**
 * Opens a CONNECT tunnel through `proxy` and gives its socket to `done`, or why it could not: the
 * proxy's connection failing as a connection does (sendFailure names the proxy), a refusal (not
 * 2xx, 407 among them) as `connect-failed` with the proxy's status. The credentials in the
 * proxy's URL go in the header only, never in an error.
 */
export function openTunnel(proxy: URL, tunnel: Tunnel, done: (err: Error | null, socket?: Socket) => void, watch: (socket: Socket) => void): void {
  const headers: Record<string, string> = { host: tunnel.authority };
  if (proxy.username !== '' || proxy.password !== '') {
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
  }
  const options = { host: proxy.hostname.replace(/^\[|\]$/g, ''), port: proxy.port === '' ? (proxy.protocol === 'https:' ? 443 : 80) : Number(proxy.port), method: 'CONNECT', path: tunnel.authority, headers, agent: false as const };
  let settled = false;
  const settle = (err: Error | null, socket?: Socket) => {
    if (settled) return;
    settled = true;
    tunnel.signal.removeEventListener('abort', onAbort);
    done(err, socket);
  };
  const req: ClientRequest = proxy.protocol === 'https:' ? httpsRequest({ ...options, ...tunnel.tls }) : httpRequest(options);
  const onAbort = () => {
    req.destroy();
    settle(tunnel.signal.reason instanceof Error ? tunnel.signal.reason : new ParleyError('cancelled', 'Cancelled.'));
  };
  if (tunnel.signal.aborted) return onAbort();
  tunnel.signal.addEventListener('abort', onAbort, { once: true });
  req.once('socket', (socket: Socket) => watch(socket));
  req.once('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      socket.destroy();
      const why = status === 407 ? ': it asks for credentials (407), give them in the proxy URL as http://user:password@host:port' : `: ${status} ${res.statusMessage ?? ''}`.trimEnd();
      settle(new ParleyError('connect-failed', `The proxy ${proxy.host} refused to open a tunnel to ${tunnel.authority}${why}.`, { status }));
      return;
    }
    if (head.length > 0) socket.unshift(head);
    settle(null, socket);
  });
  // A proxy that answers CONNECT with a response of its own and no tunnel.
  req.once('response', (res: IncomingMessage) => {
    res.resume();
    settle(new ParleyError('connect-failed', `The proxy ${proxy.host} refused to open a tunnel to ${tunnel.authority}: ${res.statusCode ?? 0} ${res.statusMessage ?? ''}`.trimEnd() + '.', { status: res.statusCode ?? 0 }));
  });
  req.once('error', (err) => settle(err));
  req.end();
}
