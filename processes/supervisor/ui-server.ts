/**
 * Serves the UI to a browser on 127.0.0.1 and carries the bus over a WebSocket. Every request
 * must carry the per-run token and a Host naming this server; a WebSocket must also come
 * from this server's own Origin. Anything else is refused before it reaches the supervisor.
 * The token is new at every start and never written down (ARCHITECTURE.md, "UI server"): a page
 * left open across a restart asks `/alive`, is refused, and says how to get back.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { Peer, type Handlers, type Transport } from '../../protocol/peer.js';
import { DEFAULT_MAX_FRAME } from '../../protocol/framing.js';
import { validateCompiled } from '../../protocol/validate-node.js';
import { messageScope } from '../runtime/crash-policy.js';

export interface UiServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export interface UiServerOptions {
  port?: number;
  uiDir: string;
  handlers: Handlers;
  onConnect: (peer: Peer) => void;
  log?: (line: string) => void;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const ASSETS = new Set(['/app.js', '/app.css', '/app.js.map', '/app.css.map']);
export const STALE_ADDRESS =
  'This address has no token, or its token is from an earlier run of Parley: every start of `parley ui` makes a new one. Open the address it printed in its terminal ("Parley is running at http://127.0.0.1:...").';

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  const log = options.log ?? (() => {});
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const tokenOk = (given: string | null) => {
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch((err: Error) => {
      log(`ui server: ${err.message}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error.');
    });
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(res, 421, 'This server only answers as 127.0.0.1 or localhost.');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (!tokenOk(url.searchParams.get('token'))) return refuse(res, 403, STALE_ADDRESS);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
    // What a page whose bus closed asks: still here (204) or restarted with a new token (403 above).
    if (url.pathname === '/alive') {
      res.writeHead(204, { 'cache-control': 'no-store' });
      return void res.end();
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      const html = (await readFile(join(options.uiDir, 'index.html'), 'utf8')).replaceAll('%TOKEN%', token);
      return send(res, 200, TYPES['.html']!, html);
    }
    if (ASSETS.has(url.pathname)) {
      const body = await readFile(join(options.uiDir, url.pathname.slice(1))).catch(() => null);
      if (!body) return refuse(res, 404, 'Not found.');
      return send(res, 200, TYPES[extname(url.pathname)]!, body);
    }
    return refuse(res, 404, 'Not found.');
  }

  function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
    res.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'content-security-policy': csp(port),
    });
    res.end(body);
  }

  function refuse(res: ServerResponse, status: number, message: string): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(message);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: DEFAULT_MAX_FRAME });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const reject = (status: number, why: string) => {
      log(`ui server: WebSocket refused: ${why}`);
      socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Misdirected Request'}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${why}`);
    };
    if (!allowedHosts().has(req.headers.host ?? '')) return reject(421, 'foreign Host');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return reject(403, 'foreign Origin');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname !== '/bus' || !tokenOk(url.searchParams.get('token'))) return reject(403, 'wrong or missing token');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const peer = new Peer(webSocketTransport(ws), {
        role: 'supervisor',
        pid: process.pid,
        validate: validateCompiled,
        handlers: options.handlers,
        scope: messageScope,
        onProtocolError: (err) => log(`ui bus: ${err.code}: ${err.message}`),
        onHandlerError: (type, err) => log(`ui bus: ${type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
      });
      options.onConnect(peer);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function csp(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    'img-src data: blob:',
    "font-src 'self'",
    // http: for the page's `/alive` question when its bus closes.
    `connect-src ws://127.0.0.1:${port} ws://localhost:${port} http://127.0.0.1:${port} http://localhost:${port}`,
    "frame-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A Transport over a `ws` socket; sends made while it is still connecting wait for it to open. */
export function webSocketTransport(ws: WebSocket): Transport {
  const outbox: Uint8Array[] = [];
  ws.once('open', () => {
    for (const bytes of outbox.splice(0)) ws.send(bytes, { binary: true });
  });
  const transport: Transport = {
    onMessage: null,
    onFrameError: null,
    onClose: null,
    send(bytes) {
      if (ws.readyState === ws.OPEN) ws.send(bytes, { binary: true });
      else if (ws.readyState === ws.CONNECTING) outbox.push(bytes);
    },
    close() {
      ws.close();
    },
    backlog() {
      return ws.bufferedAmount + outbox.reduce((sum, bytes) => sum + bytes.byteLength, 0);
    },
  };
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (!isBinary) return;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    transport.onMessage?.(bytes);
  });
  ws.on('close', () => transport.onClose?.('The UI connection closed.'));
  ws.on('error', () => {});
  return transport;
}
