/**
 * Credentials for fetching a definition, against real servers on 127.0.0.1 that record what
 * they received: credentials reach only the document's own origin (not a cross-origin
 * redirect, not a cross-origin `$ref`, not a later hop back after leaving), a query key never
 * shows in the recorded source, a progress message, a report item or an error, 401 and 403
 * read as SPEC says, and the proxy and CA bundle from the preferences are used.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchCredentials } from '../../../../protocol/model/import.js';
import { importSource, type HttpImportResult } from '../test-support.js';

interface Seen {
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

const KEY = 'SECRET-KEY-123';
const PASSWORD = 'pa55-word-xyz';
const TOKEN = 'tok-abc-987';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function recordingServer(routes: Record<string, Handler>, log: Seen[]): Server {
  return createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const seen = { path: url.pathname, query: url.search, headers: req.headers };
    log.push(seen);
    const route = routes[url.pathname];
    if (!route) {
      res.writeHead(404).end('not here');
      return;
    }
    route(req, res, seen);
  });
}

const yaml = (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
const redirect = (res: ServerResponse, location: string) => res.writeHead(302, { location }).end();

let a: Server;
let b: Server;
let aUrl = '';
let bUrl = '';
const aLog: Seen[] = [];
const bLog: Seen[] = [];

function authorized(seen: Seen): boolean {
  return (
    seen.headers.authorization === `Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}` ||
    seen.headers.authorization === `Bearer ${TOKEN}` ||
    seen.headers['x-key'] === KEY ||
    seen.query.includes(`api_key=${KEY}`)
  );
}

/** A document that needs credentials on A: 401 without, 403 with wrong ones. */
const guarded =
  (body: () => string): Handler =>
  (req, res, seen) => {
    if (authorized(seen)) return yaml(res, body());
    const tried = seen.headers.authorization !== undefined || seen.headers['x-key'] !== undefined || seen.query.includes('api_key');
    res.writeHead(tried ? 403 : 401).end();
  };

const spec = () => `openapi: 3.0.3
info: {title: Guarded, version: '1'}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '${bUrl}/schemas.yaml#/Pet'}
      responses:
        '400':
          description: bad
          content:
            application/json:
              schema: {$ref: 'common.yaml#/Err'}
`;

beforeAll(async () => {
  a = recordingServer(
    {
      '/spec.yaml': guarded(spec),
      '/common.yaml': guarded(() => 'Err: {type: object, properties: {code: {type: integer}}}\n'),
      '/common2.yaml': (_req, res) => yaml(res, 'openapi: 3.0.3\ninfo: {title: Back, version: "1"}\npaths: {}\n'),
      '/moved.yaml': (_req, res) => redirect(res, `${bUrl}/spec-b.yaml`),
      '/bounce.yaml': (_req, res) => redirect(res, `${bUrl}/bounce`),
      '/echo.yaml': (_req, res, seen) => redirect(res, `${bUrl}/landing.yaml${seen.query}`),
      '/401.yaml': (_req, res) => res.writeHead(401).end(),
      '/403.yaml': (_req, res) => res.writeHead(403).end(),
    },
    aLog,
  );
  b = recordingServer(
    {
      '/schemas.yaml': (_req, res) => yaml(res, 'Pet: {type: object, required: [name], properties: {name: {type: string, example: Rex}}}\n'),
      '/spec-b.yaml': (_req, res) => yaml(res, 'openapi: 3.1.0\ninfo: {title: Moved, version: "2"}\npaths:\n  /x: {get: {responses: {}}}\n'),
      '/bounce': (_req, res) => redirect(res, `${aUrl}/common2.yaml`),
      '/landing.yaml': (_req, res) => yaml(res, 'openapi: 3.1.0\ninfo: {title: Landed, version: "3"}\npaths: {}\n'),
    },
    bLog,
  );
  aUrl = `http://127.0.0.1:${await listen(a)}`;
  bUrl = `http://127.0.0.1:${await listen(b)}`;
});

afterAll(async () => {
  await Promise.all([a, b].map((s) => new Promise((resolve) => s.close(resolve))));
});

function clear(): void {
  aLog.length = 0;
  bLog.length = 0;
}

const basic: FetchCredentials = { type: 'basic', username: 'user', password: PASSWORD };
const bearer: FetchCredentials = { type: 'bearer', token: TOKEN };
const queryKey: FetchCredentials = { type: 'apikey', name: 'api_key', value: KEY, in: 'query' };
const headerKey: FetchCredentials = { type: 'apikey', name: 'X-Key', value: KEY, in: 'header' };

async function fetchImport(path: string, credentials?: FetchCredentials): Promise<{ result: HttpImportResult; messages: string[] }> {
  const { result, progress } = await importSource({ kind: 'url', url: `${aUrl}${path}`, ...(credentials ? { credentials } : {}) }, {}, credentials ? { credentials } : {});
  return { result, messages: progress.map((p) => p.message) };
}

const carried = (seen: Seen) => seen.headers.authorization !== undefined || seen.headers['x-key'] !== undefined || seen.query.includes(KEY);

describe('credentials go only to the document’s own origin', () => {
  it.each([
    ['basic', basic],
    ['bearer', bearer],
    ['API key in a header', headerKey],
    ['API key in the query', queryKey],
  ])('%s: sent for the document and its same-origin $ref, not for the cross-origin $ref', async (_label, credentials) => {
    clear();
    const { result } = await fetchImport('/spec.yaml', credentials);
    expect(aLog.map((s) => s.path)).toEqual(['/spec.yaml', '/common.yaml']);
    expect(aLog.every(authorized)).toBe(true);
    expect(bLog.map((s) => s.path)).toEqual(['/schemas.yaml']);
    expect(bLog.some(carried)).toBe(false);
    // The cross-origin schema was still read and used.
    const post = result.apis[0]?.requests[0]?.request;
    expect(JSON.parse(post?.body.raw.text ?? '')).toEqual({ name: 'Rex' });
    expect(result.apis[0]?.documents.map((d) => d.path)).toEqual(['spec.yaml', '_remote/127.0.0.1_' + new URL(bUrl).port + '/schemas.yaml', 'common.yaml']);
  });

  it('a redirect to another origin is fetched without them, and relative references resolve there', async () => {
    clear();
    const { result } = await fetchImport('/moved.yaml', bearer);
    expect(aLog).toHaveLength(1);
    expect(aLog[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(bLog.map((s) => s.path)).toEqual(['/spec-b.yaml']);
    expect(bLog.some(carried)).toBe(false);
    expect(result.apis[0]?.api.name).toBe('Moved');
    expect(result.apis[0]?.api.definition?.source?.location).toBe(`${aUrl}/moved.yaml`);
  });

  it('once a redirect chain has left the origin, a hop back to it gets no credentials either', async () => {
    clear();
    await fetchImport('/bounce.yaml', basic);
    expect(aLog.map((s) => [s.path, s.headers.authorization !== undefined])).toEqual([
      ['/bounce.yaml', true],
      ['/common2.yaml', false],
    ]);
    expect(bLog.some(carried)).toBe(false);
  });

  it('a query key echoed into a cross-origin redirect is not carried along', async () => {
    clear();
    const { result } = await fetchImport('/echo.yaml', queryKey);
    expect(aLog[0]?.query).toBe(`?api_key=${KEY}`);
    expect(bLog.map((s) => s.path)).toEqual(['/landing.yaml']);
    expect(bLog.some(carried)).toBe(false);
    expect(result.apis[0]?.api.name).toBe('Landed');
  });
});

describe('a query key never shows', () => {
  it('not in the recorded source, progress, report or cached sources', async () => {
    clear();
    const { result, messages } = await fetchImport('/spec.yaml', queryKey);
    const api = result.apis[0]?.api;
    expect(api?.definition?.source).toEqual({
      kind: 'url',
      location: `${aUrl}/spec.yaml`,
      credentials: { type: 'apikey', name: 'api_key', in: 'query', secret: `\${secret:api.${api?.id}.definition}` },
    });
    expect(result.apis[0]?.secret).toEqual({ name: `api.${api?.id}.definition`, from: 'apikey' });
    const everything = JSON.stringify({ ...result, apis: result.apis.map((x) => ({ ...x, documents: x.documents.map((d) => d.source) })) }) + messages.join('\n');
    expect(messages.length).toBeGreaterThan(0);
    expect(everything).not.toContain(KEY);
  });

  it('not in an error', async () => {
    for (const path of ['/missing.yaml?x=1', '/403.yaml', '/401.yaml']) {
      const err = await fetchImport(path, queryKey).catch((e: unknown) => e);
      expect(JSON.stringify(err)).not.toContain(KEY);
      expect((err as Error).message).not.toContain(KEY);
      expect((err as Error).message).toContain('127.0.0.1');
    }
  });

  it('not even when the user typed it into the URL as well', async () => {
    clear();
    const { result, progress } = await importSource({ kind: 'url', url: `${aUrl}/spec.yaml?api_key=${KEY}`, credentials: queryKey }, {}, { credentials: queryKey });
    expect(result.apis[0]?.api.definition?.source?.location).toBe(`${aUrl}/spec.yaml`);
    expect(JSON.stringify(result.report) + progress.map((p) => p.message).join()).not.toContain(KEY);
  });
});

describe('401 and 403', () => {
  it('401 needs authentication', async () => {
    const err = await fetchImport('/401.yaml', basic).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'auth-required', data: { status: 401 } });
    expect((err as Error).message).toMatch(/needs authentication/);
    expect((err as Error).message).not.toContain(PASSWORD);
  });

  it('403 to given credentials is a refusal; 403 with none is a need for them', async () => {
    const refused = await fetchImport('/403.yaml', bearer).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'auth-refused' });
    expect((refused as Error).message).toMatch(/refused the given credentials/);
    expect((refused as Error).message).not.toContain(TOKEN);
    const none = await fetchImport('/403.yaml').catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'auth-required' });
  });

  it('wrong credentials on a guarded document are refused, without echoing them', async () => {
    const err = await fetchImport('/spec.yaml', { type: 'basic', username: 'user', password: 'wrong-password' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'auth-refused' });
    expect(JSON.stringify(err)).not.toContain('wrong-password');
  });
});

describe('network settings from the preferences', () => {
  it('trusts the extra CA bundle for an HTTPS definition, and refuses without it', async () => {
    const dir = 'test/fixtures/tls';
    const server = createHttpsServer({ key: readFileSync(`${dir}/server.key`), cert: readFileSync(`${dir}/server.pem`) }, (_req, res) => yaml(res, 'openapi: 3.1.0\ninfo: {title: TLS, version: "1"}\npaths: {}\n'));
    const port = await listen(server);
    try {
      const url = `https://127.0.0.1:${port}/spec.yaml`;
      const refused = await importSource({ kind: 'url', url }, {}, {}).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'import-fetch-failed' });
      const { result } = await importSource({ kind: 'url', url }, {}, { network: { proxy: '', caPem: readFileSync(`${dir}/ca.pem`, 'utf8') } });
      expect(result.apis[0]?.api.name).toBe('TLS');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('goes through the proxy', async () => {
    const tunnels: string[] = [];
    const sockets = new Set<Socket>();
    const proxy = createHttpServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: IncomingMessage, client: Socket) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream).add(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    const port = await listen(proxy);
    try {
      const { result } = await importSource({ kind: 'url', url: `${bUrl}/spec-b.yaml` }, {}, { network: { proxy: `http://127.0.0.1:${port}`, caPem: '' } });
      expect(result.apis[0]?.api.name).toBe('Moved');
      expect(tunnels).toEqual([new URL(bUrl).host]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
