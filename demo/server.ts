/**
 * The demo API: a tiny real pet store on 127.0.0.1 that `npm start` runs beside the app,
 * answering as its OpenAPI document says (except /store/inventory, which breaks its schema
 * on purpose so a newcomer sees a contract problem).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

interface Pet {
  id: number;
  name: string;
  tag?: string;
}

export interface DemoServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startDemoServer(port = 0): Promise<DemoServer> {
  const pets = new Map<number, Pet>([
    [1, { id: 1, name: 'Biscuit', tag: 'dog' }],
    [2, { id: 2, name: 'Pixel', tag: 'cat' }],
    [3, { id: 3, name: 'Nimbus', tag: 'cat' }],
  ]);
  let nextId = 4;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => json(res, 500, { title: 'Internal error', status: 500 }, 'application/problem+json'));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'pets' && parts.length === 1 && req.method === 'GET') {
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20));
      const tag = url.searchParams.get('tag');
      return json(res, 200, [...pets.values()].filter((p) => !tag || p.tag === tag).slice(0, limit));
    }
    if (parts[0] === 'pets' && parts.length === 1 && req.method === 'POST') {
      const body = await readJson(req);
      if (!body || typeof body !== 'object' || typeof (body as Pet).name !== 'string' || !(body as Pet).name) {
        return json(res, 400, { title: 'A pet needs a name', status: 400, detail: 'Send {"name": "...", "tag": "..."}' }, 'application/problem+json');
      }
      const pet: Pet = { id: nextId++, name: (body as Pet).name, ...(typeof (body as Pet).tag === 'string' ? { tag: (body as Pet).tag } : {}) };
      pets.set(pet.id, pet);
      return json(res, 201, pet);
    }
    if (parts[0] === 'pets' && parts.length === 2) {
      const pet = pets.get(Number(parts[1]));
      if (req.method === 'GET') return pet ? json(res, 200, pet) : json(res, 404, { title: 'No such pet', status: 404 }, 'application/problem+json');
      if (req.method === 'DELETE') {
        pets.delete(Number(parts[1]));
        res.writeHead(204).end();
        return;
      }
    }
    if (url.pathname === '/store/inventory' && req.method === 'GET') {
      // Deliberately off-contract: `available` is a string and `reserved` is not allowed.
      return json(res, 200, { available: String(pets.size), sold: 7, reserved: 1 });
    }
    json(res, 404, { title: `No route for ${req.method} ${url.pathname}`, status: 404 }, 'application/problem+json');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) return null;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}
