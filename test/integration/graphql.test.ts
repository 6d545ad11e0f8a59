/**
 * GraphQL requests through the real supervisor, sender and checker against graphql-js served by
 * graphql-http on 127.0.0.1 (docs/graphql.md): a query with variables as a POST and as a GET, a
 * validation error with its locations, introspection cached in the workspace, a schema from an
 * SDL file in the project (one outside it refused), and the hostile ones: a 50 MB introspection
 * answer refused with memory bounded, a schema of 10,000 types built off the supervisor's loop.
 */
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Request } from '../../protocol/model/request.js';
import { emptyGraphqlBody, type GraphqlBody } from '../../protocol/model/graphql.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';
import { until } from '../support/until.js';
import type { SendProgress } from '../../protocol/model/exchange.js';
import type { Exchange } from '../../protocol/model/history.js';
import { unpackRows, type StreamRow } from '../../protocol/model/stream.js';
import { GRAPHQL_TOKEN, startGraphqlServer, type GraphqlServer } from '../support/graphql-server.js';

let sup: Supervisor;
let call: UiCall;
let server: GraphqlServer;
let home: string;
let projectDir: string;
let apiId: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-graphql-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  call = handlerCaller(uiHandlers(sup));
  server = await startGraphqlServer({ auth: false, manyTypes: 10_000, hugeBytes: 50 * 1024 * 1024 });
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Graph', baseUrl: server.url })).id;
});

afterAll(async () => {
  await sup?.shutdown();
  await server?.close();
});

async function graphqlRequest(graphql: Partial<GraphqlBody>, patch: Partial<Request> = {}): Promise<Request> {
  const created = (await call('request.create', { project: projectDir, parent: apiId, name: `q${Math.random()}`, method: 'POST', url: '/graphql' })) as Request;
  return (await call('request.save', { project: projectDir, request: { ...created, body: { ...created.body, kind: 'graphql', graphql: { ...emptyGraphqlBody(), ...graphql } }, ...patch } })) as Request;
}

const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as { data?: unknown; errors?: { message: string; locations?: { line: number; column: number }[] }[] };

describe('GraphQL over HTTP', () => {
  it('sends a query with variables (expanded) and an operation name as a JSON POST, and saves the body as a version 4 request', async () => {
    await call('project.setProperties', { project: projectDir, properties: [{ name: 'who', value: 'Ada', enabled: true }] });
    const request = await graphqlRequest({ query: 'query A { hello }\nquery Greet($name: String) { hello(name: $name) }', variables: '{ "name": "${who}" }', operationName: 'Greet' });
    expect(request.version).toBe(4);
    const exchange = await call('request.send', { project: projectDir, request });
    expect(exchange.response.status).toBe(200);
    expect(json(exchange.response.body.bytes)).toEqual({ data: { hello: 'Hello, Ada!' } });
    expect(exchange.request.headers).toEqual(expect.arrayContaining([['Content-Type', 'application/json']]));
    expect(exchange.request.headers.find(([n]) => n === 'Accept')?.[1]).toContain('application/graphql-response+json');
    expect(JSON.parse(exchange.request.body)).toEqual({ query: expect.stringContaining('Greet'), variables: { name: 'Ada' }, operationName: 'Greet' });
  });

  it('sends a query as a GET with query, variables and operationName in the URL when the method is GET', async () => {
    const request = await graphqlRequest({ query: 'query U($id: ID!) { user(id: $id) { name city } }', variables: '{"id":"1"}' }, { method: 'GET' });
    const exchange = await call('request.send', { project: projectDir, request });
    expect(json(exchange.response.body.bytes)).toEqual({ data: { user: { name: 'Ada', city: 'London' } } });
    const hit = server.hits.at(-1)!;
    expect(hit.method).toBe('GET');
    const params = new URL(hit.url, server.url).searchParams;
    expect(params.get('query')).toContain('user(id: $id)');
    expect(JSON.parse(params.get('variables')!)).toEqual({ id: '1' });
  });

  it('gets a validation error back with its locations in the query', async () => {
    const request = await graphqlRequest({ query: '{\n  user(id: "1") {\n    nope\n  }\n}' });
    const exchange = await call('request.send', { project: projectDir, request });
    const errors = json(exchange.response.body.bytes).errors!;
    expect(errors[0]!.message).toContain('nope');
    expect(errors[0]!.locations).toEqual([{ line: 3, column: 5 }]);
  });

  it('refuses variables that are not a JSON object before anything is sent', async () => {
    const before = server.hits.length;
    const request = await graphqlRequest({ query: '{ hello }', variables: '{ "name": ' });
    await expect(call('request.send', { project: projectDir, request })).rejects.toMatchObject({ code: 'bad-input', message: expect.stringContaining('GraphQL variables are not JSON') });
    expect(server.hits.length).toBe(before);
  });

  it('introspects the schema through the request, caches it in the workspace and reads the cache until refreshed', async () => {
    const request = await graphqlRequest({ query: '{ hello }' });
    expect(await call('graphql.schema', { project: projectDir, request, refresh: false })).toEqual({ source: 'none', from: '', types: 0 });
    const fresh = await call('graphql.schema', { project: projectDir, request, refresh: true });
    expect(fresh).toMatchObject({ source: 'introspection', from: `${server.url}/graphql`, types: expect.any(Number) });
    expect(fresh.sdl).toContain('type User');
    expect(fresh.sdl).toContain('"""Where they live, when known."""');
    const hits = server.hits.length;
    expect(await call('graphql.schema', { project: projectDir, request, refresh: false })).toEqual(fresh);
    expect(server.hits.length).toBe(hits);
    expect(await readdir(join(home, 'cache', 'graphql'))).toHaveLength(1);
    // Introspection is not the user's send: neither History nor the HTTP Log keeps it.
    const log = await call('httpLog.list', {});
    expect(log.rows.some((row) => row.requestId === request.id)).toBe(false);
  });

  it('introspects with the request\'s auth, and names the status when the server refuses', async () => {
    const guarded = await startGraphqlServer({ auth: true });
    try {
      const refused = await graphqlRequest({ query: '{ hello }' }, { url: `${guarded.url}/graphql` });
      await expect(call('graphql.schema', { project: projectDir, request: refused, refresh: true })).rejects.toMatchObject({ code: 'graphql-introspection-failed', message: expect.stringContaining('401') });
      await call('project.setProperties', { project: projectDir, properties: [{ name: 'gqlToken', value: GRAPHQL_TOKEN, enabled: true }] });
      const signedIn = await graphqlRequest({ query: '{ hello }' }, { url: `${guarded.url}/graphql`, auth: { type: 'bearer', token: '${gqlToken}' } });
      await expect(call('graphql.schema', { project: projectDir, request: signedIn, refresh: true })).resolves.toMatchObject({ source: 'introspection' });
      expect(guarded.hits.at(-1)!.authorization).toBe(`Bearer ${GRAPHQL_TOKEN}`);
    } finally {
      await guarded.close();
    }
  });

  it('reads the schema from a .graphql file in the project, and refuses one outside it', async () => {
    await writeFile(join(projectDir, 'schema.graphql'), 'type Query { ping: String }\n');
    const request = await graphqlRequest({ query: '{ ping }', schemaFile: 'schema.graphql' });
    await expect(call('graphql.schema', { project: projectDir, request, refresh: false })).resolves.toMatchObject({ source: 'file', from: 'schema.graphql', types: 3, sdl: expect.stringContaining('ping: String') });
    const outside = await graphqlRequest({ query: '{ ping }', schemaFile: '../elsewhere.graphql' });
    await expect(call('graphql.schema', { project: projectDir, request: outside, refresh: false })).rejects.toMatchObject({ code: 'path-escape' });
    await writeFile(join(projectDir, 'broken.graphql'), 'type Query { ping: }\n');
    const broken = await graphqlRequest({ query: '{ ping }', schemaFile: 'broken.graphql' });
    await expect(call('graphql.schema', { project: projectDir, request: broken, refresh: false })).rejects.toMatchObject({ code: 'graphql-schema-invalid', message: expect.stringContaining('Syntax Error') });
  });
});

/** `request.send` as the page calls it, collecting its progress: the head, then the rows of the batches. */
function sendStreaming(request: Request, signal = new AbortController().signal) {
  const progress: SendProgress[] = [];
  const rows: StreamRow[] = [];
  const done = Promise.resolve(
    uiHandlers(sup)['request.send']!({ project: projectDir, request }, {
      signal,
      chunk: (p: SendProgress) => {
        progress.push(p);
        if (p.kind === 'batch') rows.push(...unpackRows(p.batch));
      },
    }) as Promise<Exchange>,
  );
  return { progress, rows, done, stream: () => progress.find((p) => p.kind === 'head')?.stream };
}

describe('GraphQL subscriptions', () => {
  it('streams a subscription\'s results over graphql-ws as an event stream\'s rows, kept in History with the true count', async () => {
    const request = await graphqlRequest({ query: 'subscription Ticks($n: Int!) { ticks(count: $n, every: 10) }', variables: '{ "n": 4 }' });
    const s = sendStreaming(request);
    const exchange = await s.done;
    expect(s.progress[0]).toMatchObject({ kind: 'head', head: { status: 101 } });
    expect(s.rows.map((r) => [r.n, r.name, r.data])).toEqual([1, 2, 3, 4].map((n) => [n, 'next', `{"data":{"ticks":${n}}}`]));
    expect(exchange.request).toMatchObject({ method: 'GET', url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/graphql$/) });
    expect(exchange.response.stream).toMatchObject({ state: 'ended', total: 4, events: 4 });
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream).toMatchObject({ state: 'ended', total: 4 });
    expect(entry.response!.stream!.rows.map((r) => r.data)).toEqual(s.rows.map((r) => r.data));
  });

  it('stops a subscription on request.stopStream, the server told to complete it', async () => {
    const request = await graphqlRequest({ query: 'subscription { ticks(count: 100000, every: 10) }' });
    const s = sendStreaming(request);
    await until(() => s.rows.length >= 3);
    await call('request.stopStream', { stream: s.stream()! });
    const exchange = await s.done;
    expect(exchange.response.stream).toMatchObject({ state: 'stopped' });
    expect(exchange.response.stream!.error).toBeUndefined();
    expect(exchange.response.stream!.total).toBeGreaterThanOrEqual(3);
  });

  it('a kill -9 of the sender mid-subscription ends it as stopped with a clear message, the rows kept; the connection is closed', async () => {
    const request = await graphqlRequest({ query: 'subscription { ticks(count: 100000, every: 10) }' });
    const s = sendStreaming(request);
    await until(() => s.rows.length >= 3);
    const pid = sup.sender.pid!;
    process.kill(pid, 'SIGKILL');
    const exchange = await s.done;
    expect(exchange.response.stream).toMatchObject({ state: 'stopped', error: { code: 'child-died', message: expect.stringMatching(/sender process was stopped by SIGKILL/) } });
    expect(exchange.response.stream!.total).toBeGreaterThanOrEqual(3);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream).toMatchObject({ state: 'stopped', error: { code: 'child-died' } });
    // The socket died with the process: the server has no client left.
    await until(() => server.sockets() === 0);
    await until(() => sup.sender.state === 'running' && sup.sender.pid !== pid, 15_000);
  });
});

describe('GraphQL bad input', () => {
  it('refuses a 50 MB introspection answer, spooled by the sender rather than held, with a message naming the limit', async () => {
    const request = await graphqlRequest({ query: '{ hello }' }, { url: '/huge-introspection' });
    await expect(call('graphql.schema', { project: projectDir, request, refresh: true })).rejects.toMatchObject({
      code: 'graphql-schema-too-large',
      message: expect.stringMatching(/is 50 MiB, over the 16 MiB Parley reads for a schema/),
    });
  });

  it('builds a schema of 10,000 types on the checker\'s thread while the supervisor keeps answering', async () => {
    const request = await graphqlRequest({ query: '{ first { id } }' }, { url: '/many-types' });
    let answered = 0;
    let done = false;
    const schema = call('graphql.schema', { project: projectDir, request, refresh: true }).finally(() => (done = true));
    while (!done) {
      await call('app.ping', { t: 1 });
      answered++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answer = await schema;
    // The 10,000 types, Query and the scalars ID, String and Boolean.
    expect(answer.types).toBe(10_004);
    expect(answer.sdl).toContain('type T9999');
    expect(answered).toBeGreaterThan(1);
  });
});
