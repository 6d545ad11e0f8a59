import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { callKindOf, descriptorText, grpcBaseUrl, grpcMethods, grpcTarget, loadGrpcRoot } from './definition.js';

const PROTO = `
syntax = "proto3";
package demo.v1;
import "google/protobuf/timestamp.proto";
service Greeter {
  rpc Hello (HelloRequest) returns (HelloReply);
  rpc Watch (HelloRequest) returns (stream HelloReply);
  rpc Upload (stream HelloRequest) returns (HelloReply);
  rpc Chat (stream HelloRequest) returns (stream HelloReply);
}
message HelloRequest { string name = 1; google.protobuf.Timestamp at = 2; }
message HelloReply { string message = 1; }
`;

describe('gRPC definition file', () => {
  it('round-trips a parsed .proto through its JSON file: every method, its types and streaming kind', () => {
    const root = new protobuf.Root();
    // protobufjs carries the well-known types; an import of one resolves to them.
    root.addJSON(protobuf.common.get('google/protobuf/timestamp.proto')!.nested!);
    protobuf.parse(PROTO, root, { keepCase: true });
    const loaded = loadGrpcRoot(descriptorText(root));
    expect(grpcMethods(loaded).map((m) => [m.service, m.method, m.requestType, m.responseType, callKindOf(m)])).toEqual([
      ['demo.v1.Greeter', 'Hello', 'demo.v1.HelloRequest', 'demo.v1.HelloReply', 'unary'],
      ['demo.v1.Greeter', 'Watch', 'demo.v1.HelloRequest', 'demo.v1.HelloReply', 'server-stream'],
      ['demo.v1.Greeter', 'Upload', 'demo.v1.HelloRequest', 'demo.v1.HelloReply', 'client-stream'],
      ['demo.v1.Greeter', 'Chat', 'demo.v1.HelloRequest', 'demo.v1.HelloReply', 'bidi'],
    ]);
    // The well-known type came with it.
    expect(loaded.lookupType('google.protobuf.Timestamp').fieldsArray.map((f) => f.name)).toEqual(['seconds', 'nanos']);
  });

  it('refuses a file that is not JSON, not an object, or names a type it does not hold', () => {
    expect(() => loadGrpcRoot('{')).toThrow(expect.objectContaining({ code: 'grpc-definition-invalid' }));
    expect(() => loadGrpcRoot('[1]')).toThrow(expect.objectContaining({ code: 'grpc-definition-invalid' }));
    const dangling = JSON.stringify({ nested: { S: { methods: { M: { requestType: 'Missing', responseType: 'Missing' } } } } });
    expect(() => loadGrpcRoot(dangling)).toThrow(/cannot be read.*Missing/);
  });

  it('reads a target from grpc:// and grpcs:// base URLs, and none from anything else', () => {
    expect(grpcTarget('grpc://127.0.0.1:50051')).toEqual({ address: '127.0.0.1:50051', tls: false });
    expect(grpcTarget('GRPCS://api.example.test:443/')).toEqual({ address: 'api.example.test:443', tls: true });
    expect(grpcTarget('')).toBeNull();
    expect(grpcTarget('http://x')).toBeNull();
    expect(grpcBaseUrl({ address: 'h:1', tls: true })).toBe('grpcs://h:1');
  });
});
