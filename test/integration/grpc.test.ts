/**
 * gRPC requests through the real supervisor and sender against a @grpc/grpc-js server on
 * 127.0.0.1 (docs/grpc.md): a gRPC API with its definition file, a request of the gRPC kind in
 * its own file; `request.send` of each call kind with metadata, `${...}` and Bearer auth as
 * metadata; a deadline exceeded; an error status with its details; TLS with a CA and a client
 * certificate from project files, and insecure; the methods and an input type's schema for the
 * editor; a message not of its type refused naming the field; History and the HTTP Log; a
 * kill -9 of the sender during a server stream ending it with a clear error, the next call working.
 */
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { GRPC_DEFINITION_FORMAT, GRPC_DESCRIPTOR_FILE } from '../../protocol/grpc/definition.js';
import type { SendProgress } from '../../protocol/model/exchange.js';
import type { GrpcRequest } from '../../protocol/model/grpc.js';
import type { Exchange } from '../../protocol/model/history.js';
import { unpackRows, type StreamRow } from '../../protocol/model/stream.js';
import { greeterDescriptor, startGrpcServer, tlsFile, type GrpcTestServer } from '../support/grpc-server.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';
import { until } from '../support/until.js';

const TOKEN = 'grpc-t0ken-93ab1';

let sup: Supervisor;
let call: UiCall;
let server: GrpcTestServer;
let projectDir: string;
let apiId: string;

/** A gRPC API named `name` with the Greeter's definition, as an import leaves it. */
async function grpcApi(name: string, baseUrl: string): Promise<string> {
  const api = await call('api.create', { project: projectDir, name, baseUrl });
  const saved = await call('api.save', { project: projectDir, api: { ...api, definition: { format: GRPC_DEFINITION_FORMAT, cached: [GRPC_DESCRIPTOR_FILE], fingerprint: 'test', apiVersion: '' } } });
  await mkdir(join(projectDir, 'apis', name, 'definition'), { recursive: true });
  await writeFile(join(projectDir, 'apis', name, GRPC_DESCRIPTOR_FILE), greeterDescriptor());
  return saved.id;
}

beforeAll(async () => {
  const home = await mkdtemp(join(tmpdir(), 'parley-grpc-'));
  projectDir = join(home, 'project');
  server = await startGrpcServer();
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  call = handlerCaller(uiHandlers(sup));
  await sup.openProject(projectDir, { create: true });
  apiId = await grpcApi('Greeter', server.baseUrl);
  await call('project.setProperties', { project: projectDir, properties: [{ name: 'who', value: 'Ada', enabled: true }, { name: 'token', value: TOKEN, enabled: true }] });
});

afterAll(async () => {
  await sup?.shutdown();
  await server?.close();
});

async function grpcRequest(patch: Partial<GrpcRequest>, parent = apiId): Promise<GrpcRequest> {
  const created = await call('request.createOfKind', { project: projectDir, parent, kind: 'grpc', name: `call${Math.random()}`, url: '' });
  return (await call('request.save', { project: projectDir, request: { ...(created as GrpcRequest), service: 'parley.test.Greeter', ...patch } })) as GrpcRequest;
}

/** `request.send` as the page calls it, collecting a stream's progress. */
function start(request: GrpcRequest) {
  const progress: SendProgress[] = [];
  const rows: StreamRow[] = [];
  const done = Promise.resolve(
    uiHandlers(sup)['request.send']!({ project: projectDir, request }, {
      signal: new AbortController().signal,
      chunk: (p: SendProgress) => {
        progress.push(p);
        if (p.kind === 'batch') rows.push(...unpackRows(p.batch));
      },
    }) as Promise<Exchange>,
  );
  const stream = () => progress.find((p) => p.kind === 'head')?.stream;
  return { rows, done, stream, opened: () => until(() => stream() !== undefined) };
}

const bodyOf = (exchange: Exchange) => JSON.parse(new TextDecoder().decode(exchange.response.body.bytes)) as Record<string, unknown>;

describe('gRPC requests', () => {
  it('is a request kind of its own file, and the editor gets the methods and an input type to check and complete', async () => {
    const request = await grpcRequest({ method: 'SayHello' });
    expect(await readdir(join(projectDir, 'apis', 'Greeter', 'requests'))).toContain(`${request.name}.grpc.yaml`);
    const described = await call('grpc.describe', { project: projectDir, api: apiId, service: 'parley.test.Greeter', method: 'SayHello' });
    expect(described.methods.map((m) => `${m.method}:${m.kind}`)).toEqual(['SayHello:unary', 'Fail:unary', 'Slow:unary', 'Count:server-stream', 'Add:client-stream', 'Chat:bidi']);
    const example = JSON.parse(described.input!.example) as Record<string, unknown>;
    expect(example).toMatchObject({ name: '', times: '0', mood: 'MOOD_UNSPECIFIED', tags: [''], counts: {}, word: '' });
    expect(example).not.toHaveProperty('number');
  });

  it('a unary call with metadata, ${...} and Bearer auth as metadata; History and the HTTP Log keep it with the token masked', async () => {
    const request = await grpcRequest({ method: 'SayHello', message: '{"name": "${who}", "mood": "HAPPY"}', metadata: [{ name: 'x-echo', value: 'hi ${who}', enabled: true }], auth: { type: 'bearer', token: '${token}' } });
    const exchange = await call('request.send', { project: projectDir, request });
    expect(exchange.response).toMatchObject({ status: 0, statusText: 'OK', headers: expect.arrayContaining([['x-echo', 'hi Ada']]) });
    expect(exchange.response.grpc?.trailers).toContainEqual(['x-echo-trailer', 'hi Ada']);
    expect(bodyOf(exchange)).toMatchObject({ message: 'Hello Ada', mood: 'HAPPY' });
    expect(server.lastMetadata().authorization).toBe(`Bearer ${TOKEN}`);
    // Only the request's metadata goes: not the Accept an HTTP send adds.
    expect(server.lastMetadata()).not.toHaveProperty('accept');
    expect(exchange.request.url).toBe(`${server.baseUrl}/parley.test.Greeter/SayHello`);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response).toMatchObject({ status: 0, statusText: 'OK', grpc: { name: 'OK' } });
    expect(entry.response!.body).toContain('Hello Ada');
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
    const logged = (await call('httpLog.list', {})).rows.find((row) => row.requestId === request.id);
    expect(logged).toMatchObject({ status: 0 });
  });

  it('a deadline exceeded and an error status with details are answers with the status named', async () => {
    const slow = await call('request.send', { project: projectDir, request: await grpcRequest({ method: 'Slow', message: '{"times": "20000"}', deadlineMs: 200 }) });
    expect(slow.response.statusText).toBe('DEADLINE_EXCEEDED');
    const failed = await call('request.send', { project: projectDir, request: await grpcRequest({ method: 'Fail' }) });
    expect(failed.response).toMatchObject({ status: 3, statusText: 'INVALID_ARGUMENT', grpc: { message: 'name must not be empty' } });
    expect(failed.response.grpc!.details).toContain('"field": "name"');
  });

  it('a message not of its type is refused naming the field, and nothing is sent', async () => {
    const request = await grpcRequest({ method: 'SayHello', message: '{"name": "x", "counts": {"a": "many"}}' });
    await expect(call('request.send', { project: projectDir, request })).rejects.toMatchObject({ code: 'grpc-message-invalid', message: expect.stringContaining('$.counts.a: int32: expected an integer, found "many"') });
    await expect(call('request.send', { project: projectDir, request: await grpcRequest({ method: 'Nope' }) })).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('parley.test.Greeter/Nope') });
  });

  it('streams: a server stream of rows, a client stream and a bidirectional one with the composer and half-close', async () => {
    const count = start(await grpcRequest({ method: 'Count', message: '{"count": 3}' }));
    const counted = await count.done;
    expect(counted.response.stream!.rows.map((r) => r.kind)).toEqual(['sent', 'received', 'received', 'received', 'close']);
    expect(counted.response.statusText).toBe('OK');

    const add = start(await grpcRequest({ method: 'Add', message: '{"value": 40}', messages: [{ name: 'one', text: '{"value": 1}' }] }));
    await add.opened();
    await call('request.socketSend', { stream: add.stream()!, message: { format: 'json', text: '{"value": 1}', file: '' } });
    await expect(call('request.socketSend', { stream: add.stream()!, message: { format: 'json', text: '{"value": "x"}', file: '' } })).rejects.toMatchObject({ code: 'grpc-message-invalid' });
    await call('request.halfClose', { stream: add.stream()! });
    const added = await add.done;
    expect(JSON.parse(added.response.stream!.rows.find((r) => r.kind === 'received')!.data)).toEqual({ total: 42, count: 3 });

    const chat = start(await grpcRequest({ method: 'Chat', message: '{"name": "one"}' }));
    await chat.opened();
    await call('request.socketSend', { stream: chat.stream()!, message: { format: 'json', text: '{"name": "${who}"}', file: '' } });
    await until(() => chat.rows.filter((r) => r.kind === 'received').length === 2);
    await call('request.halfClose', { stream: chat.stream()! });
    const chatted = await chat.done;
    expect(chatted.response.stream!.rows.filter((r) => r.kind === 'received').map((r) => (JSON.parse(r.data) as { message: string }).message)).toEqual(['Hello one', 'Hello Ada']);
    const entry = await call('history.get', { project: projectDir, id: chatted.id });
    expect(entry.response!.stream).toMatchObject({ state: 'ended', events: 4 });
  });

  it('TLS: a CA and a client certificate from project files; insecure for a self-signed server', async () => {
    const mutual = await startGrpcServer('mutual');
    const selfSigned = await startGrpcServer('self-signed');
    try {
      await mkdir(join(projectDir, 'certs'), { recursive: true });
      for (const name of ['ca.pem', 'client.pem', 'client.key']) await writeFile(join(projectDir, 'certs', name), tlsFile(name));
      const tls = { caFile: 'certs/ca.pem', certFile: 'certs/client.pem', keyFile: 'certs/client.key', insecure: false };
      const ok = await call('request.send', { project: projectDir, request: await grpcRequest({ url: mutual.baseUrl, method: 'SayHello', message: '{"name": "mtls"}', tls }) });
      expect(bodyOf(ok).message).toBe('Hello mtls');
      await expect(call('request.send', { project: projectDir, request: await grpcRequest({ url: mutual.baseUrl, method: 'SayHello', tls: { ...tls, caFile: '../outside.pem' } }) })).rejects.toMatchObject({ code: 'path-escape' });
      const refused = await call('request.send', { project: projectDir, request: await grpcRequest({ url: selfSigned.baseUrl, method: 'SayHello' }) });
      expect(refused.response.statusText).toBe('UNAVAILABLE');
      const insecure = await call('request.send', { project: projectDir, request: await grpcRequest({ url: selfSigned.baseUrl, method: 'SayHello', message: '{"name": "anyway"}', tls: { caFile: '', certFile: '', keyFile: '', insecure: true } }) });
      expect(bodyOf(insecure).message).toBe('Hello anyway');
    } finally {
      await mutual.close();
      await selfSigned.close();
    }
  });

  it('a kill -9 of the sender during a server stream ends it with a clear error, keeps its rows, and the next call works', async () => {
    const s = start(await grpcRequest({ method: 'Count', message: '{"count": 0, "every_ms": 20}' }));
    await until(() => s.rows.filter((r) => r.kind === 'received').length >= 2);
    const pid = sup.sender.pid!;
    process.kill(pid, 'SIGKILL');
    const exchange = await s.done;
    expect(exchange.response.stream).toMatchObject({ state: 'stopped', error: { code: 'child-died', message: expect.stringMatching(/sender process was stopped by SIGKILL/) } });
    const received = exchange.response.stream!.rows.filter((r) => r.kind === 'received').length;
    expect(received).toBeGreaterThanOrEqual(2);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream!.rows.filter((r) => r.kind === 'received')).toHaveLength(received);
    await until(() => server.cancelled() > 0);
    await until(() => sup.sender.state === 'running' && sup.sender.pid !== pid, 15_000);
    // The new sender has not parsed the definition: it asks for it again.
    const next = await call('request.send', { project: projectDir, request: await grpcRequest({ method: 'SayHello', message: '{"name": "again"}' }) });
    expect(bodyOf(next).message).toBe('Hello again');
  });
});
