/**
 * Real servers on 127.0.0.1 for the engine's tests: HTTP, HTTPS with the test CA, an HTTP/2
 * secure server (ALPN), and a small forward proxy (CONNECT and absolute-form requests).
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

const tlsDir = fileURLToPath(new URL('../../../../test/fixtures/tls/', import.meta.url));

export type CertName = 'server' | 'wrong-host' | 'self-signed';

export function testCaPem(): string {
  return readFileSync(`${tlsDir}ca.pem`, 'utf8');
}

export function certificate(name: CertName): { key: Buffer; cert: Buffer } {
  return { key: readFileSync(`${tlsDir}${name}.key`), cert: readFileSync(`${tlsDir}${name}.pem`) };
}

export interface RunningServer {
  /** Origin, e.g. http://127.0.0.1:34567 */
  url: string;
  port: number;
  /** Sockets the server accepted (to see connection reuse and release). */
  sockets: Set<Socket>;
  close(): Promise<void>;
}

interface Closable extends net.Server {
  closeAllConnections?: () => void;
}

async function listen(server: Closable, scheme: string): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    sockets,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function startHttp(handler: RequestListener): Promise<RunningServer> {
  return listen(http.createServer(handler), 'http');
}

export function startHttps(handler: RequestListener, cert: CertName = 'server'): Promise<RunningServer> {
  return listen(https.createServer(certificate(cert), handler), 'https');
}

/** HTTP/2 over TLS, with HTTP/1.1 allowed, so ALPN decides. */
export function startHttp2(handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void): Promise<RunningServer> {
  return listen(http2.createSecureServer({ ...certificate('server'), allowHTTP1: true }, handler) as unknown as Closable, 'https');
}

/** Reads a request body whole (test bodies are small). */
export async function readRequestBody(req: IncomingMessage | http2.Http2ServerRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface ForwardProxy extends RunningServer {
  /** host:port of every CONNECT tunnel opened. */
  tunnels: string[];
  /** Absolute URLs of plain forwarded requests. */
  forwarded: string[];
}

/**
 * A small real forward proxy: CONNECT tunnels for any target, absolute-form requests forwarded.
 * With `auth`, a CONNECT without that user and password (Proxy-Authorization Basic) is answered 407.
 */
export async function startForwardProxy(auth?: { user: string; password: string }): Promise<ForwardProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    forwarded.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const upstream = http.request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    if (auth && req.headers['proxy-authorization'] !== `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    tunnels.push(target);
    const [host, port] = target.split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  const running = await listen(server, 'http');
  return { ...running, tunnels, forwarded };
}
