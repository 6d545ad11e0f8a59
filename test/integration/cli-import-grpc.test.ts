/**
 * `parley import` of gRPC definitions end to end (the built CLI with its own supervisor and
 * importer child): a .proto file with an include path, a folder of .proto files, and a running
 * server by reflection; each makes a gRPC API whose requests are .grpc.yaml files in a folder per
 * service, its descriptor file and .proto sources kept in the project. dist/ must be built first.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { GRPC_DESCRIPTOR_FILE, grpcMethods, loadGrpcRoot } from '../../protocol/grpc/definition.js';
import type { Api } from '../../protocol/model/api.js';
import type { GrpcRequest } from '../../protocol/model/grpc.js';
import { startReflectionServer } from '../support/grpc-reflection-server.js';
import { filesUnder, runParley, type Run } from '../support/processes.js';

const root = repoRoot();
const FIXTURES = join(root, 'test', 'fixtures', 'proto');
const SLOW = { timeout: 120_000 };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-cli-grpc-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function parley(args: string[]): Promise<Run> {
  return runParley(args, { home: join(work, 'home') });
}

/** The project's one API as the files hold it: api.yaml, its request files by path, its methods from the descriptor file. */
async function reopen(project: string) {
  const [name] = await readdir(join(project, 'apis'));
  const dir = join(project, 'apis', name!);
  const api = parseYaml(await readFile(join(dir, 'api.yaml'), 'utf8')) as Api;
  const files = (await filesUnder(join(dir, 'requests'))).filter((f) => f.endsWith('.grpc.yaml')).sort();
  const requests = new Map<string, GrpcRequest>();
  for (const f of files) requests.set(f, parseYaml(await readFile(join(dir, 'requests', f), 'utf8')) as GrpcRequest);
  const methods = grpcMethods(loadGrpcRoot(await readFile(join(dir, GRPC_DESCRIPTOR_FILE), 'utf8')));
  return { dir, api, requests, methods };
}

describe('parley import <.proto | folder> and --grpc-server', SLOW, () => {
  it('a .proto file with --proto-path: a gRPC API, one .grpc.yaml per method, the files kept', async () => {
    const project = join(work, 'file-project');
    const run = await parley(['import', join(FIXTURES, 'bruno/services/product.proto'), '--proto-path', join(FIXTURES, 'bruno/types'), '--new-project', project]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Imported from files: 1 service, \d+ methods/);
    const { api, requests, methods, dir } = await reopen(project);
    expect(api).toMatchObject({ kind: 'grpc', name: 'Product', baseUrl: '', definition: { format: 'protobuf', cached: [GRPC_DESCRIPTOR_FILE, 'definition/proto/product.proto', 'definition/proto/product-message.proto'] } });
    expect([...requests.keys()]).toEqual(methods.map((m) => `${m.service}/${m.method}.grpc.yaml`).sort());
    expect(requests.get('product.Product/ReadProduct.grpc.yaml')).toMatchObject({ kind: 'grpc', service: 'product.Product', method: 'ReadProduct' });
    await expect(readFile(join(dir, 'definition/proto/product-message.proto'), 'utf8')).resolves.toContain('package product;');
  });

  it('a folder of .proto files: every one of them, a folder per service', async () => {
    const project = join(work, 'folder-project');
    const run = await parley(['import', join(FIXTURES, 'bruno'), '--proto-path', join(FIXTURES, 'bruno/types'), '--new-project', project, '--json']);
    expect(run.code).toBe(0);
    const { api, requests } = await reopen(project);
    expect(api.definition!.source).toMatchObject({ kind: 'folder', location: join(FIXTURES, 'bruno') });
    expect(new Set([...requests.keys()].map((f) => f.split('/')[0]))).toEqual(new Set(['grpcbin.GRPCBin', 'hello.HelloService', 'order.Order', 'product.Product']));
  });

  it('--grpc-server by reflection: the target is where the server was found; a server without reflection exits 2 saying so', async () => {
    const server = await startReflectionServer({ reflection: 'v1alpha' });
    try {
      const project = join(work, 'server-project');
      const run = await parley(['import', '--grpc-server', server.address, '--new-project', project]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Imported from reflection v1alpha at ${server.address}: 2 services`);
      const { api, requests } = await reopen(project);
      expect(api).toMatchObject({ kind: 'grpc', baseUrl: `grpc://${server.address}`, definition: { source: { kind: 'grpc-reflection', location: server.address, reflection: { version: 'v1alpha' } } } });
      expect(requests.has('hello.HelloService/SayHello.grpc.yaml')).toBe(true);
    } finally {
      await server.close();
    }
    const bare = await startReflectionServer({ reflection: 'none' });
    try {
      const run = await parley(['import', '--grpc-server', bare.address, '--new-project', join(work, 'none-project')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`The server at ${bare.address} does not offer reflection (v1 or v1alpha): import its .proto files instead.`);
    } finally {
      await bare.close();
    }
  });
});
