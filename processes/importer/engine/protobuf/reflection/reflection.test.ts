/**
 * Import by server reflection from a real @grpc/grpc-js server with @grpc/reflection on
 * 127.0.0.1 (test/support/grpc-reflection-server.ts): each version, automatic choosing the one
 * offered, a server without reflection, TLS verified by the preferences' CA and "Ask even if
 * the certificate does not verify", and a 50 MB descriptor answer refused with memory bounded.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { grpcMethods, loadGrpcRoot, GRPC_DESCRIPTOR_FILE } from '../../../../../protocol/grpc/definition.js';
import type { GrpcRequest } from '../../../../../protocol/model/grpc.js';
import type { GrpcServerSource, ImportOptions } from '../../../../../protocol/model/import.js';
import { startReflectionServer, type ReflectionServer } from '../../../../../test/support/grpc-reflection-server.js';
import { runImportJob } from '../../run-job.js';
import { FIXED_CLOCK, counterIds } from '../../test-support.js';

const CA = readFileSync(resolve(import.meta.dirname, '../../../../../test/fixtures/tls/ca.pem'), 'utf8');

let server: ReflectionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function reflectImport(source: Partial<GrpcServerSource> & { address: string }, options: ImportOptions = {}, caPem = '') {
  const { result } = await runImportJob(
    { source: { kind: 'grpc-server', reflection: 'auto', tls: false, insecure: false, ...source }, format: 'auto', options, network: { proxy: '', caPem }, deadlines: { fetchMs: 20_000, jobMs: 60_000 } },
    { newId: counterIds(), now: FIXED_CLOCK },
  );
  return result;
}

function methodsOf(result: Awaited<ReturnType<typeof reflectImport>>): string[] {
  const doc = result.apis[0]!.documents.find((d) => `definition/${d.path}` === GRPC_DESCRIPTOR_FILE)!;
  return grpcMethods(loadGrpcRoot(new TextDecoder().decode(doc.bytes))).map((m) => `${m.service}/${m.method}`);
}

describe('reflection by version', () => {
  test.each([
    ['v1', 'v1', 'v1'],
    ['v1alpha', 'v1alpha', 'v1alpha'],
    ['both', 'auto', 'v1'],
    ['v1', 'auto', 'v1'],
    ['v1alpha', 'auto', 'v1alpha'],
  ] as const)('a server offering %s, asked %s, answers by %s', async (offered, asked, used) => {
    server = await startReflectionServer({ reflection: offered });
    const result = await reflectImport({ address: server.address, reflection: asked });
    expect(result.report.declaredVersion).toBe(`reflection-${used}`);
    expect(result.report.notes![0]!.message).toMatch(new RegExp(`^Imported from reflection ${used} at ${server.address.replace(/\./g, '\\.')}: 2 services`));
    const api = result.apis[0]!;
    expect(api.api).toMatchObject({ kind: 'grpc', baseUrl: `grpc://${server.address}`, definition: { format: 'protobuf', source: { kind: 'grpc-reflection', location: server.address, reflection: { version: used, tls: false, insecure: false } } } });
    expect(methodsOf(result)).toEqual(expect.arrayContaining(['order.Order/CreateOrder', 'order.Order/TrackOrderStatus', 'hello.HelloService/SayHello']));
    expect(api.folders.map((f) => f.path).sort()).toEqual(['hello.HelloService', 'order.Order']);
    const create = api.requests.find((r) => r.request.name === 'CreateOrder')!.request as GrpcRequest;
    expect(JSON.parse(create.message)).toMatchObject({ id: '', items: [{ product_id: 0 }] });
  });

  test('a version the server does not offer, and a server with none, say so plainly', async () => {
    server = await startReflectionServer({ reflection: 'v1alpha' });
    await expect(reflectImport({ address: server.address, reflection: 'v1' })).rejects.toMatchObject({ code: 'grpc-reflection-unavailable', message: `The server at ${server.address} does not offer reflection v1: choose Reflection automatic, or import its .proto files instead.` });
    await server.close();
    server = await startReflectionServer({ reflection: 'none' });
    await expect(reflectImport({ address: server.address })).rejects.toMatchObject({ message: `The server at ${server.address} does not offer reflection (v1 or v1alpha): import its .proto files instead.` });
  });

  test('Name, Target and TLS options name the API and its base URL', async () => {
    server = await startReflectionServer({ reflection: 'both' });
    const result = await reflectImport({ address: server.address }, { name: 'Shop', baseUrl: 'shop.internal:443', targetTls: true });
    expect(result.apis[0]!.api).toMatchObject({ name: 'Shop', baseUrl: 'grpcs://shop.internal:443' });
  });
});

describe('TLS', () => {
  test('a certificate the preferences\' CA signs verifies; a self-signed one is refused unless asked not to verify', async () => {
    server = await startReflectionServer({ reflection: 'both', tls: 'ca' });
    const trusted = await reflectImport({ address: server.address, tls: true }, {}, CA);
    expect(trusted.apis[0]!.api.baseUrl).toBe(`grpcs://${server.address}`);
    await server.close();
    server = await startReflectionServer({ reflection: 'both', tls: 'self-signed' });
    await expect(reflectImport({ address: server.address, tls: true })).rejects.toMatchObject({ code: 'grpc-unreachable', message: expect.stringMatching(/could not be reached over TLS[^]*Ask even if the certificate does not verify/) });
    const insecure = await reflectImport({ address: server.address, tls: true, insecure: true });
    expect(insecure.apis[0]!.api.definition!.source).toMatchObject({ reflection: { tls: true, insecure: true } });
  });
});

describe('limits', () => {
  test('a 50 MB descriptor answer is refused with a clear error, the importer\'s heap not grown by it', async () => {
    server = await startReflectionServer({ reflection: 'v1', huge: 50 * 1024 * 1024 });
    const before = process.memoryUsage().heapUsed;
    await expect(reflectImport({ address: server.address, reflection: 'v1' })).rejects.toMatchObject({ code: 'grpc-reflection-too-large', message: expect.stringMatching(/sent more than 32 MB of descriptors/) });
    // The answer was refused by its length, before its bytes were held (the server process is this one, so only the heap is looked at).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(40 * 1024 * 1024);
  });

  test('an address that is not host:port is refused before anything is sent', async () => {
    await expect(reflectImport({ address: 'http://x/' })).rejects.toMatchObject({ code: 'bad-input', message: expect.stringMatching(/is not an address as host:port/) });
  });
});
