/**
 * A real @grpc/grpc-js server on 127.0.0.1 (port 0) for the gRPC call tests, serving
 * `parley.test.Greeter` (GREETER_PROTO) plaintext or over TLS (test/fixtures/tls: the server
 * certificate signed by the test CA, a self-signed one, or requiring a client certificate):
 *
 *   SayHello   unary: replies "Hello <name>", echoes `times`, `mood`, `at`, lists the metadata keys
 *              it got; `x-echo` metadata comes back as a header and a trailer
 *   Fail       unary: INVALID_ARGUMENT with a google.rpc.Status in grpc-status-details-bin (a BadRequest)
 *   Slow       unary: answers after `times` ms (default 30 s) unless cancelled first (deadline tests)
 *   Count      server stream: `count` Ticks (`bytes` of padding each), one every `every_ms`; count 0: until cancelled
 *   Add        client stream: the sum and count of the Numbers sent
 *   Chat       bidi: a reply to each request as it comes, and ends when the client half-closes
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { descriptorText } from '../../protocol/grpc/definition.js';

export const GREETER_PROTO = `
syntax = "proto3";
package parley.test;
import "google/protobuf/timestamp.proto";

enum Mood { MOOD_UNSPECIFIED = 0; HAPPY = 1; GRUMPY = 2; }
message Inner { string note = 1; Inner next = 2; }
message HelloRequest {
  string name = 1;
  int64 times = 2;
  Mood mood = 3;
  repeated string tags = 4;
  map<string, int32> counts = 5;
  google.protobuf.Timestamp at = 6;
  oneof pick { string word = 7; int32 number = 8; }
  Inner inner = 9;
}
message HelloReply { string message = 1; int64 times = 2; Mood mood = 3; google.protobuf.Timestamp at = 4; repeated string metadata = 5; }
message CountRequest { int32 count = 1; int32 every_ms = 2; int32 bytes = 3; }
message Tick { int32 n = 1; string pad = 2; }
message Number { int32 value = 1; }
message Sum { int32 total = 1; int32 count = 2; }

service Greeter {
  rpc SayHello (HelloRequest) returns (HelloReply);
  rpc Fail (HelloRequest) returns (HelloReply);
  rpc Slow (HelloRequest) returns (HelloReply);
  rpc Count (CountRequest) returns (stream Tick);
  rpc Add (stream Number) returns (Sum);
  rpc Chat (stream HelloRequest) returns (stream HelloReply);
}
`;

const RPC_PROTO = `
syntax = "proto3";
package google.rpc;
import "google/protobuf/any.proto";
message Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
message BadRequest { message FieldViolation { string field = 1; string description = 2; } repeated FieldViolation field_violations = 1; }
`;

function rootOf(text: string, wkts: string[]): protobuf.Root {
  const root = new protobuf.Root();
  for (const file of wkts) root.addJSON(protobuf.common.get(file)!.nested!);
  protobuf.parse(text, root, { keepCase: true });
  root.resolveAll();
  return root;
}

/** The Greeter's definition as a gRPC API keeps it (definition/grpc-descriptor.json). */
export function greeterDescriptor(): string {
  return descriptorText(rootOf(GREETER_PROTO, ['google/protobuf/timestamp.proto']));
}

export type GrpcTls = 'none' | 'server' | 'self-signed' | 'mutual';

export interface GrpcTestServer {
  /** host:port */
  address: string;
  /** grpc://address or grpcs://address */
  baseUrl: string;
  /** How many calls were cancelled by the client (Slow and endless Count). */
  cancelled: () => number;
  /** The last metadata a call carried, as plain pairs. */
  lastMetadata: () => Record<string, string>;
  close(): Promise<void>;
}

const TLS_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'tls');
export const tlsFile = (name: string) => readFileSync(join(TLS_DIR, name));

export async function startGrpcServer(tls: GrpcTls = 'none'): Promise<GrpcTestServer> {
  const root = rootOf(GREETER_PROTO, ['google/protobuf/timestamp.proto']);
  const rpc = rootOf(RPC_PROTO, ['google/protobuf/any.proto']);
  const type = (name: string) => root.lookupType(`parley.test.${name}`);
  const codec = (t: protobuf.Type) => ({
    serialize: (value: object) => Buffer.from(t.encode(t.fromObject(value)).finish()),
    deserialize: (bytes: Buffer) => t.toObject(t.decode(bytes), { longs: String, enums: String, defaults: true }),
  });
  const method = (name: string, input: string, output: string, requestStream: boolean, responseStream: boolean) => ({
    path: `/parley.test.Greeter/${name}`,
    requestStream,
    responseStream,
    requestSerialize: codec(type(input)).serialize,
    requestDeserialize: codec(type(input)).deserialize,
    responseSerialize: codec(type(output)).serialize,
    responseDeserialize: codec(type(output)).deserialize,
  });
  const definition = {
    SayHello: method('SayHello', 'HelloRequest', 'HelloReply', false, false),
    Fail: method('Fail', 'HelloRequest', 'HelloReply', false, false),
    Slow: method('Slow', 'HelloRequest', 'HelloReply', false, false),
    Count: method('Count', 'CountRequest', 'Tick', false, true),
    Add: method('Add', 'Number', 'Sum', true, false),
    Chat: method('Chat', 'HelloRequest', 'HelloReply', true, true),
  } as grpc.ServiceDefinition;

  let cancelled = 0;
  let lastMetadata: Record<string, string> = {};
  const seen = (metadata: grpc.Metadata) => {
    lastMetadata = Object.fromEntries(Object.entries(metadata.getMap()).map(([k, v]) => [k, String(v)]));
    return Object.keys(metadata.getMap()).sort();
  };
  type Hello = { name: string; times: string; mood: string; at?: { seconds: string; nanos: number } | null };
  const reply = (req: Hello, metadata: string[]) => ({ message: `Hello ${req.name}`, times: req.times, mood: req.mood, at: req.at ?? undefined, metadata });

  const server = new grpc.Server();
  server.addService(definition, {
    SayHello: (call: grpc.ServerUnaryCall<Hello, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const keys = seen(call.metadata);
      const echo = call.metadata.get('x-echo')[0];
      const trailer = new grpc.Metadata();
      if (echo !== undefined) {
        const header = new grpc.Metadata();
        header.set('x-echo', String(echo));
        call.sendMetadata(header);
        trailer.set('x-echo-trailer', String(echo));
      }
      callback(null, reply(call.request, keys), trailer);
    },
    Fail: (call: grpc.ServerUnaryCall<Hello, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      seen(call.metadata);
      const badRequest = rpc.lookupType('google.rpc.BadRequest');
      const status = rpc.lookupType('google.rpc.Status');
      const details = status.encode(
        status.fromObject({
          code: grpc.status.INVALID_ARGUMENT,
          message: 'name must not be empty',
          details: [{ type_url: 'type.googleapis.com/google.rpc.BadRequest', value: badRequest.encode(badRequest.fromObject({ field_violations: [{ field: 'name', description: 'must not be empty' }] })).finish() }],
        }),
      ).finish();
      const metadata = new grpc.Metadata();
      metadata.set('grpc-status-details-bin', Buffer.from(details));
      callback({ code: grpc.status.INVALID_ARGUMENT, details: 'name must not be empty', metadata });
    },
    Slow: (call: grpc.ServerUnaryCall<Hello, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      seen(call.metadata);
      const ms = Number(call.request.times) || 30_000;
      const timer = setTimeout(() => callback(null, reply(call.request, [])), ms);
      call.on('cancelled', () => {
        cancelled++;
        clearTimeout(timer);
      });
    },
    Count: (call: grpc.ServerWritableStream<{ count: number; every_ms: number; bytes: number }, unknown>) => {
      seen(call.metadata);
      const { count, every_ms: every, bytes } = call.request;
      const pad = 'x'.repeat(bytes);
      let n = 0;
      let done = false;
      call.on('cancelled', () => {
        cancelled++;
        done = true;
      });
      const next = () => {
        while (!done) {
          if (count > 0 && n >= count) {
            done = true;
            call.end();
            return;
          }
          n++;
          const more = call.write({ n, pad });
          if (every > 0) {
            setTimeout(next, every);
            return;
          }
          if (!more) {
            call.once('drain', next);
            return;
          }
        }
      };
      next();
    },
    Add: (call: grpc.ServerReadableStream<{ value: number }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      seen(call.metadata);
      let total = 0;
      let count = 0;
      call.on('data', (m: { value: number }) => {
        total += m.value;
        count++;
      });
      call.on('end', () => callback(null, { total, count }));
    },
    Chat: (call: grpc.ServerDuplexStream<Hello, unknown>) => {
      const keys = seen(call.metadata);
      call.on('data', (req: Hello) => call.write(reply(req, keys)));
      call.on('end', () => call.end());
      call.on('cancelled', () => void cancelled++);
    },
  });

  const credentials =
    tls === 'none'
      ? grpc.ServerCredentials.createInsecure()
      : tls === 'self-signed'
        ? grpc.ServerCredentials.createSsl(null, [{ private_key: tlsFile('self-signed.key'), cert_chain: tlsFile('self-signed.pem') }])
        : grpc.ServerCredentials.createSsl(tls === 'mutual' ? tlsFile('ca.pem') : null, [{ private_key: tlsFile('server.key'), cert_chain: tlsFile('server.pem') }], tls === 'mutual');
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? reject(err) : resolve(p))));
  const address = `127.0.0.1:${port}`;
  return {
    address,
    baseUrl: `${tls === 'none' ? 'grpc' : 'grpcs'}://${address}`,
    cancelled: () => cancelled,
    lastMetadata: () => lastMetadata,
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
