/**
 * Protocol Buffers import through the importer engine: detection; the corpus's .proto files with
 * their import chains read into the same services, methods and fields protobufjs reads from them;
 * the gRPC API, its service folders and one request per method; and bad input (a file importing
 * itself, a cycle, a missing import, a name climbing out of its folder, a symbolic link, 10,000
 * messages).
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, test } from 'vitest';
import { GRPC_DESCRIPTOR_FILE, grpcMethods, loadGrpcRoot } from '../../../../protocol/grpc/definition.js';
import type { GrpcRequest } from '../../../../protocol/model/grpc.js';
import type { ImportResult } from '../../../../protocol/model/import.js';
import { createImporterRegistry } from '../registry.js';
import { importAnyKind as importSource } from '../test-support.js';
import { runImportJob } from '../run-job.js';
import { counterIds, FIXED_CLOCK } from '../test-support.js';

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures/proto');
const fixture = (rel: string) => join(FIXTURES, rel);

/** What protobufjs itself reads from the same entry, with the same roots (google/api/* as empty stand-ins). */
function protobufjsReads(entries: string[], roots: string[]): protobuf.Root {
  const stubs = mkdtempSync(join(tmpdir(), 'parley-proto-stubs-'));
  for (const name of ['annotations', 'field_behavior', 'httpbody', 'visibility', 'client']) {
    mkdirSync(join(stubs, 'google/api'), { recursive: true });
    writeFileSync(join(stubs, `google/api/${name}.proto`), 'syntax = "proto3";\npackage google.api;\n');
  }
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (target.startsWith('/')) return target;
    for (const dir of [...roots, stubs]) if (existsSync(join(dir, target))) return join(dir, target);
    return protobuf.util.path.resolve(origin, target);
  };
  root.loadSync(entries, { keepCase: true });
  root.resolveAll();
  return root;
}

/** Services with their methods, and every message type with its field count. */
function shape(root: protobuf.Root): { methods: string[]; fields: Record<string, number> } {
  const fields: Record<string, number> = {};
  const visit = (ns: protobuf.NamespaceBase) => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Type) fields[child.fullName] = child.fieldsArray.length;
      if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) visit(child);
    }
  };
  visit(root);
  const methods = grpcMethods(root).map((m) => `${m.service}/${m.method}(${m.requestType}${m.requestStream ? ' stream' : ''})->${m.responseType}${m.responseStream ? ' stream' : ''}`);
  return { methods: methods.sort(), fields };
}

/** The API's definition read back from its cached descriptor file. */
function cachedRoot(result: ImportResult): protobuf.Root {
  const doc = result.apis[0]!.documents.find((d) => `definition/${d.path}` === GRPC_DESCRIPTOR_FILE)!;
  return loadGrpcRoot(new TextDecoder().decode(doc.bytes));
}

function tempFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-proto-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('detect', () => {
  test('a .proto name, or text that opens as a .proto file does; not JSON, YAML or XML', () => {
    const registry = createImporterRegistry();
    expect(registry.detectFormat({ name: 'svc.proto', text: 'anything' })).toMatchObject({ format: 'protobuf', settledBy: 'file-name' });
    expect(registry.detectFormat({ text: '// c\n/* block */\nsyntax = "proto3";\npackage a;' })).toMatchObject({ format: 'protobuf', label: 'Protocol Buffers (proto3)', version: 'proto3' });
    expect(registry.detectFormat({ text: 'package a.b;\nmessage M { optional int32 x = 1; }' })).toMatchObject({ format: 'protobuf', version: 'proto2' });
    expect(registry.detectFormat({ text: 'service Greeter {\n rpc Hi (A) returns (B);\n}' })).toMatchObject({ format: 'protobuf' });
    expect(registry.detectFormat({ text: '{"openapi":"3.0.0"}' })?.format).not.toBe('protobuf');
    expect(registry.detectFormat({ text: 'openapi: 3.0.0\ninfo: {}' })?.format).not.toBe('protobuf');
    expect(registry.detectFormat({ text: 'message: hello' })).toBeNull();
  });
});

describe('files from the corpus', () => {
  test('grpc-gateway echo_service.proto with its import chain: what protobufjs reads, google/api left out with a warning', async () => {
    const entry = fixture('grpc-gateway/examples/internal/proto/examplepb/echo_service.proto');
    const include = fixture('grpc-gateway');
    const { result } = await importSource({ kind: 'file', path: entry }, { protoIncludePaths: [include] });
    expect(shape(cachedRoot(result))).toEqual(shape(protobufjsReads([entry], [dirname(entry), include])));
    expect(result.report.warnings.map((w) => w.message).join('\n')).toMatch(/google\/api\/annotations\.proto, imported by echo_service\.proto, is not in the chosen folders/);
    const api = result.apis[0]!;
    expect(api.api).toMatchObject({ kind: 'grpc', name: 'EchoService', baseUrl: '', definition: { format: 'protobuf', source: { kind: 'file', location: entry, includePaths: [include] } } });
    expect(api.api.definition!.cached).toEqual([
      GRPC_DESCRIPTOR_FILE,
      'definition/proto/echo_service.proto',
      'definition/proto/examples/internal/proto/sub/message.proto',
      'definition/proto/examples/internal/proto/sub2/message.proto',
    ]);
    expect(result.report.notes!.map((n) => n.message).join('\n')).toMatch(/Imported from files: 1 service, \d+ methods[^]*A target is still needed/);
  });

  test('bruno services/product.proto imports types/product-message.proto through an include path', async () => {
    const entry = fixture('bruno/services/product.proto');
    const include = fixture('bruno/types');
    const { result } = await importSource({ kind: 'file', path: entry }, { protoIncludePaths: [include] });
    expect(shape(cachedRoot(result))).toEqual(shape(protobufjsReads([entry], [dirname(entry), include])));
  });

  test('a folder: every .proto below it, one read of a file met under two names, services in folders in file order', async () => {
    const folder = fixture('bruno');
    const include = fixture('bruno/types');
    const { result: imported } = await runImportJob({ source: { kind: 'folder', path: folder }, format: 'auto', options: { protoIncludePaths: [include] }, network: { proxy: '', caPem: '' } }, { newId: counterIds(), now: FIXED_CLOCK });
    const entries = ['grpcbin.proto', 'hello.proto', 'services/order.proto', 'services/product.proto', 'types/product-message.proto'].map((n) => join(folder, n));
    expect(shape(cachedRoot(imported))).toEqual(shape(protobufjsReads(entries, [folder, include])));
    const api = imported.apis[0]!;
    expect(api.api.name).toBe('bruno');
    expect(api.api.definition!.source).toMatchObject({ kind: 'folder', location: folder });
    // A folder per service, in the order the files declare them; each request in its place.
    expect(api.folders.map((f) => f.path)).toEqual(['grpcbin.GRPCBin', 'hello.HelloService', 'order.Order', 'product.Product']);
    const order = api.requests.filter((r) => r.folder === 'order.Order').map((r) => r.request.name);
    expect(order).toEqual(['CreateOrder', 'GetOrder', 'ListOrders', 'UpdateOrder', 'DeleteOrder', 'TrackOrderStatus']);
  });

  test('one gRPC request per method: its service, method and an example message of its input type', async () => {
    const { result } = await importSource({ kind: 'file', path: fixture('bruno/services/order.proto') });
    const create = result.apis[0]!.requests.find((r) => r.request.name === 'CreateOrder')!.request as GrpcRequest;
    expect(create).toMatchObject({ kind: 'grpc', service: 'order.Order', method: 'CreateOrder', url: '' });
    expect(JSON.parse(create.message)).toEqual({ id: '', user_id: '', items: [{ product_id: 0, quantity: 0, unit_price: 0 }], shipping_address: '', status: 'PENDING', total_amount: 0 });
    expect(result.report).toMatchObject({ format: 'protobuf', declaredVersion: 'proto3', requestCount: 6, folderCount: 1 });
  });

  test('paste: the well-known types are built in; the Target option sets the base URL', async () => {
    const text = 'syntax = "proto3";\npackage t;\nimport "google/protobuf/timestamp.proto";\nimport "google/protobuf/empty.proto";\nservice Clock { rpc Now (google.protobuf.Empty) returns (When); rpc Watch (When) returns (stream When); }\nmessage When { google.protobuf.Timestamp at = 1; int64 n = 2; oneof o { string a = 3; string b = 4; } map<string, When> m = 5; }';
    const { result } = await importSource({ kind: 'paste', text }, { baseUrl: 'localhost:50051', targetTls: true });
    expect(result.apis[0]!.api.baseUrl).toBe('grpcs://localhost:50051');
    const watch = result.apis[0]!.requests[1]!.request as GrpcRequest;
    // Recursion stops where the type would repeat; one member of a oneof; 64-bit as a string.
    expect(JSON.parse(watch.message)).toEqual({ at: '1970-01-01T00:00:00Z', n: '0', a: '' });
  });
});

describe('bad input', () => {
  test('a file importing itself is refused, as protoc refuses it', async () => {
    const dir = tempFolder({ 'self.proto': 'syntax = "proto3";\nimport "self.proto";\nmessage A {}' });
    await expect(importSource({ kind: 'file', path: join(dir, 'self.proto') })).rejects.toMatchObject({ code: 'import-malformed', message: expect.stringMatching(/self\.proto imports itself \(self\.proto -> self\.proto\)/) });
  });

  test('a cycle through two files is refused, naming it', async () => {
    const dir = tempFolder({ 'a.proto': 'syntax = "proto3";\nimport "b.proto";\nmessage A {}', 'b.proto': 'syntax = "proto3";\nimport "a.proto";\nmessage B {}' });
    await expect(importSource({ kind: 'file', path: join(dir, 'a.proto') })).rejects.toMatchObject({ message: expect.stringMatching(/a\.proto -> b\.proto -> a\.proto/) });
  });

  test('a missing import names the file and who imports it', async () => {
    await expect(importSource({ kind: 'file', path: fixture('grpc-gateway/examples/internal/proto/examplepb/a_bit_of_everything.proto') }, { protoIncludePaths: [fixture('grpc-gateway')] })).rejects.toMatchObject({
      code: 'import-file-unreadable',
      message: expect.stringMatching(/^google\/rpc\/status\.proto, imported by a_bit_of_everything\.proto, was not found in the folders /),
    });
    await expect(importSource({ kind: 'paste', text: 'syntax = "proto3";\nimport "other.proto";\nservice S { rpc M (A) returns (A); }\nmessage A {}' })).rejects.toMatchObject({ message: expect.stringMatching(/other\.proto, imported by pasted\.proto, was not built in, and pasted text has no folder/) });
  });

  test('a type used from a google/api file left out is an error naming it', async () => {
    const dir = tempFolder({ 'd.proto': 'syntax = "proto3";\nimport "google/api/httpbody.proto";\nservice S { rpc Download (A) returns (stream google.api.HttpBody); }\nmessage A {}' });
    await expect(importSource({ kind: 'file', path: join(dir, 'd.proto') })).rejects.toMatchObject({ message: expect.stringMatching(/uses google\.api\.HttpBody, from google\/api\/httpbody\.proto[^]*include path/) });
  });

  test('an import climbing out of its folder, or through a symbolic link, is not read', async () => {
    const outside = tempFolder({ 'secret.proto': 'syntax = "proto3";\nmessage Secret {}' });
    const dir = tempFolder({ 'up.proto': 'syntax = "proto3";\nimport "../secret.proto";\nmessage A {}', 'abs.proto': `syntax = "proto3";\nimport "${join(outside, 'secret.proto')}";\nmessage A {}`, 'link.proto': 'syntax = "proto3";\nimport "sub/secret.proto";\nmessage A {}' });
    symlinkSync(outside, join(dir, 'sub'));
    await expect(importSource({ kind: 'file', path: join(dir, 'up.proto') })).rejects.toMatchObject({ code: 'import-ref-refused', message: expect.stringMatching(/may not climb out/) });
    await expect(importSource({ kind: 'file', path: join(dir, 'abs.proto') })).rejects.toMatchObject({ code: 'import-ref-refused', message: expect.stringMatching(/never absolute/) });
    await expect(importSource({ kind: 'file', path: join(dir, 'link.proto') })).rejects.toMatchObject({ code: 'import-ref-refused', message: expect.stringMatching(/symbolic link/) });
  });

  test('10,000 messages import, with one small request per method', async () => {
    const lines = ['syntax = "proto3";', 'package big;', 'service Big { rpc First (M0) returns (M1); rpc Last (M9999) returns (M0); }'];
    for (let i = 0; i < 10_000; i++) lines.push(`message M${i} { string name = 1; int32 n = 2; ${i + 1 < 10_000 ? `M${i + 1} next = 3; M${(i * 7) % 10_000} other = 4;` : ''} }`);
    const { result } = await importSource({ kind: 'paste', text: lines.join('\n') });
    expect(result.report.counts).toContainEqual({ label: 'Messages', count: 10_000 });
    const first = result.apis[0]!.requests[0]!.request as GrpcRequest;
    // Depth and size are bounded: the example of a 10,000-deep chain stays small.
    expect(first.message.length).toBeLessThan(100_000);
  });
});

describe('aggregate options', () => {
  test('a list in an aggregate option value (which protobufjs cannot read) is read as empty; braces in strings and comments count for nothing', async () => {
    const text = [
      'syntax = "proto3";',
      'package g;',
      'service S {',
      '  rpc Update (A) returns (A) {',
      '    option (google.api.http) = {',
      '      put: "/v2/{abe.uuid}" // a } in a comment',
      '      additional_bindings: [ { patch: "/v2a/{abe.uuid}" body: "*" }, { patch: "/x/{y}" } ]',
      '    };',
      '  }',
      '}',
      'message A { string uuid = 1 [(f.o) = { a: "}" }]; }',
    ].join('\n');
    expect(() => protobuf.parse(text, new protobuf.Root())).toThrow(/illegal/);
    const { result } = await importSource({ kind: 'paste', text });
    expect(grpcMethods(cachedRoot(result)).map((m) => m.method)).toEqual(['Update']);
    expect(JSON.parse((result.apis[0]!.requests[0]!.request as GrpcRequest).message)).toEqual({ uuid: '' });
  });
});
