/**
 * `parley run` with gRPC requests (issue 30 item 4, docs/grpc.md): the built CLI against a
 * @grpc/grpc-js server on 127.0.0.1. A unary call's assertions read the response message
 * (JSONPath) and the status by name (`status equals OK`); an error status fails its assertion
 * and the reports name the status; a server stream with a deadline collects its messages; one
 * without a deadline is refused with why.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_DEFINITION_FORMAT, GRPC_DESCRIPTOR_FILE } from '../../protocol/grpc/definition.js';
import type { GrpcRequest } from '../../protocol/model/grpc.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { greeterDescriptor, startGrpcServer, type GrpcTestServer } from '../support/grpc-server.js';
import { runParley } from '../support/processes.js';
import { assertion } from '../support/run-project.js';

const SLOW = { timeout: 120_000 };

let work: string;
let home: string;
let project: string;
let server: GrpcTestServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-run-grpc-'));
  home = join(work, 'home');
  project = join(work, 'project');
  server = await startGrpcServer();
  const store = await ProjectStore.open(project, { create: true, name: 'Calls' });
  await store.setProperties([{ name: 'who', value: 'Ada', enabled: true }]);
  const api = await store.createApi({ name: 'Greeter', baseUrl: server.baseUrl, api: { definition: { format: GRPC_DEFINITION_FORMAT, cached: [GRPC_DESCRIPTOR_FILE], fingerprint: 'test', apiVersion: '' } } });
  await mkdir(join(store.apiDir(api.id), 'definition'), { recursive: true });
  await writeFile(join(store.apiDir(api.id), GRPC_DESCRIPTOR_FILE), greeterDescriptor());
  const make = async (name: string, patch: Partial<GrpcRequest>) => {
    const created = (await store.createRequestOfKind({ parent: api.id, kind: 'grpc', name, url: '' })) as GrpcRequest;
    await store.saveRequest({ ...created, service: 'parley.test.Greeter', ...patch });
  };
  await make('1 hello', {
    method: 'SayHello',
    message: '{"name": "${who}", "times": 3}',
    assertions: [assertion({ source: 'status', value: 'OK' }), assertion({ path: '$.message', value: 'Hello Ada' }), assertion({ path: '$.times', value: '"3"' })],
  });
  await make('2 fail', { method: 'Fail', assertions: [assertion({ source: 'status', value: 'OK' })] });
  await make('3 count', { method: 'Count', message: '{"count": 3}', deadlineMs: 10_000, assertions: [assertion({ path: '$[2].json.n', value: '3' }), assertion({ source: 'status', value: 'OK' })] });
  await make('4 endless', { method: 'Count', message: '{"count": 0}' });
  await store.close();
});

afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

interface Outcome {
  request: { name: string; method: string; url: string };
  response?: { status: number; statusText: string };
  error?: { code: string; message: string };
  failed: boolean;
  assertions: { label: string; passed: boolean; message: string }[];
}

describe('parley run with gRPC requests', () => {
  it('checks unary calls by the response message and the status name, collects a stream with a deadline, refuses one without', SLOW, async () => {
    const junit = join(work, 'junit.xml');
    const run = await runParley(['run', project, '--reporter', 'json', '--reporter', `junit:${junit}`], { home });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { summary: Record<string, unknown>; outcomes: Outcome[] };
    const [hello, fail, count, endless] = report.outcomes;
    expect(hello).toMatchObject({ request: { name: '1 hello', method: 'gRPC', url: `${server.baseUrl}/parley.test.Greeter/SayHello` }, response: { status: 0, statusText: 'OK' }, failed: false });
    expect(hello!.assertions.map((a) => [a.label, a.passed])).toEqual([
      ['status equals OK', true],
      ['$.message equals Hello Ada', true],
      ['$.times equals "3"', true],
    ]);
    expect(fail).toMatchObject({ response: { status: 3, statusText: 'INVALID_ARGUMENT' }, failed: true });
    expect(fail!.assertions[0]).toMatchObject({ label: 'status equals OK', passed: false, message: expect.stringContaining('3') });
    expect(count).toMatchObject({ response: { statusText: 'OK' }, failed: false });
    expect(count!.assertions.every((a) => a.passed)).toBe(true);
    expect(endless).toMatchObject({ failed: true, error: { code: 'bad-input', message: expect.stringContaining('needs a deadline') } });
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('3 INVALID_ARGUMENT');
    expect(xml).toContain('status equals OK');
  });

  it('prints each gRPC call in the console report with its status name', SLOW, async () => {
    const run = await runParley(['run', project, '--request', '1 hello'], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ok +gRPC +Greeter\/1 hello/);
    expect(run.stdout).toContain('0 OK');
  });
});
