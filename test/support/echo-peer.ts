/**
 * An echo server on 127.0.0.1 (port 0) that records what each client sends, in a form two clients
 * can be compared by (the export peer tests: newman, httpyac and `parley run` must send the same).
 * Headers a client adds for itself are left out; a multipart body is compared with its boundary
 * normalised and a form-encoded one as its pairs (with their Content-Length); a GraphQL body
 * (path /graphql) as JSON.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const OWN_HEADERS = new Set(['user-agent', 'connection', 'postman-token', 'cache-control', 'accept-encoding']);

export interface Received {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}

export class EchoPeer {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly received: Received[],
  ) {}

  static async start(): Promise<EchoPeer> {
    const received: Received[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const graphql = req.url === '/graphql';
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ method: req.method!, url: req.url!, headers: comparable(req.headers).filter(([name]) => !(graphql && name === 'content-length')), body: graphql ? JSON.stringify(JSON.parse(body)) : normaliseBody(req.headers, body) });
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo-token': 'tok-42' }).end('{"ok":true,"id":7,"items":[{"name":"first"}]}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new EchoPeer(server, (server.address() as AddressInfo).port, received);
  }

  take(): Received[] {
    return this.received.splice(0, this.received.length);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function comparable(headers: IncomingHttpHeaders): [string, string][] {
  return Object.entries(headers)
    .filter(([name]) => !OWN_HEADERS.has(name) && !(name === 'content-length' && /^(application\/x-www-form-urlencoded|multipart\/)/.test(headers['content-type'] ?? '')))
    .map(([name, value]): [string, string] => [name, normaliseBoundary(headers, Array.isArray(value) ? value.join(', ') : (value ?? ''))])
    .sort(([a], [b]) => a.localeCompare(b));
}

function normaliseBoundary(headers: IncomingHttpHeaders, text: string): string {
  const boundary = /boundary=("?)([^";]+)\1/.exec(headers['content-type'] ?? '')?.[2];
  return boundary ? text.split(boundary).join('BOUNDARY') : text;
}

function normaliseBody(headers: IncomingHttpHeaders, body: string): string {
  if ((headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return JSON.stringify([...new URLSearchParams(body)]);
  return normaliseBoundary(headers, body);
}
