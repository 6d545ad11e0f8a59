/**
 * A real @grpc/grpc-js server with @grpc/reflection for the gRPC import tests: on 127.0.0.1,
 * port 0, plaintext or TLS (test/fixtures/tls: the test CA's server certificate, or the
 * self-signed one), offering reflection v1 only, v1alpha only, both, or none. Its services are
 * the .proto fixtures' (bruno's order and hello services, with the well-known types); their
 * methods are not implemented: an import only reads the definition. `huge` answers reflection
 * v1 with a descriptor response of that many bytes, for the size cap.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import protobuf from 'protobufjs';

const ROOT = resolve(import.meta.dirname, '..');
const PROTOS = join(ROOT, 'fixtures/proto/bruno');
const TLS = join(ROOT, 'fixtures/tls');

export type ReflectionOffered = 'v1' | 'v1alpha' | 'both' | 'none';

export interface ReflectionServerOptions {
  reflection: ReflectionOffered;
  tls?: 'ca' | 'self-signed';
  /** Answer every reflection v1 request with a response of this many bytes (a descriptor set too big to take). */
  huge?: number;
}

export interface ReflectionServer {
  address: string;
  /** The services the server defines, by full name, in the order the fixtures declare them. */
  services: string[];
  close(): Promise<void>;
}

export const REFLECTION_SERVER_FILES = ['services/order.proto', 'hello.proto'];

export async function startReflectionServer(options: ReflectionServerOptions): Promise<ReflectionServer> {
  const definition = protoLoader.loadSync(REFLECTION_SERVER_FILES, { includeDirs: [PROTOS], keepCase: true });
  const server = new grpc.Server();
  const services: string[] = [];
  for (const [name, entry] of Object.entries(definition)) {
    if (!('format' in entry) && typeof entry === 'object' && !('type' in entry)) {
      server.addService(entry as grpc.ServiceDefinition, {});
      services.push(name);
    }
  }
  if (options.huge !== undefined) addHugeReflection(server, options.huge);
  else if (options.reflection !== 'none') {
    const reflection = new ReflectionService(definition) as unknown as { v1: { addToServer(s: grpc.Server): void }; v1Alpha: { addToServer(s: grpc.Server): void } };
    if (options.reflection === 'v1' || options.reflection === 'both') reflection.v1.addToServer(server);
    if (options.reflection === 'v1alpha' || options.reflection === 'both') reflection.v1Alpha.addToServer(server);
  }
  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: readFileSync(join(TLS, options.tls === 'ca' ? 'server.pem' : 'self-signed.pem')), private_key: readFileSync(join(TLS, options.tls === 'ca' ? 'server.key' : 'self-signed.key')) }], false)
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((done, fail) => server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? fail(err) : done(p))));
  return {
    address: `127.0.0.1:${port}`,
    services,
    close: () => new Promise<void>((done) => server.tryShutdown(() => done())),
  };
}

/** Reflection v1 that lists one service and answers every file request with `bytes` bytes of descriptors. */
function addHugeReflection(server: grpc.Server, bytes: number): void {
  const messages = protobuf.parse(readFileSync(join(ROOT, '../processes/importer/engine/protobuf/reflection/proto/v1/reflection.proto'), 'utf8'), { keepCase: true }).root;
  const Request = messages.lookupType('grpc.reflection.v1.ServerReflectionRequest');
  const Response = messages.lookupType('grpc.reflection.v1.ServerReflectionResponse');
  const path = '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo';
  const service: grpc.ServiceDefinition = {
    ServerReflectionInfo: {
      path,
      requestStream: true,
      responseStream: true,
      requestSerialize: (m: object) => Buffer.from(Request.encode(Request.fromObject(m)).finish()),
      requestDeserialize: (b: Buffer) => Request.toObject(Request.decode(b)),
      responseSerialize: (m: object) => Buffer.from(Response.encode(Response.fromObject(m)).finish()),
      responseDeserialize: (b: Buffer) => Response.toObject(Response.decode(b)),
    },
  };
  server.addService(service, {
    ServerReflectionInfo: (call: grpc.ServerDuplexStream<Record<string, unknown>, object>) => {
      call.on('data', (request: Record<string, unknown>) => {
        if (request.list_services !== undefined) call.write({ list_services_response: { service: [{ name: 'huge.Service' }] } });
        else call.write({ file_descriptor_response: { file_descriptor_proto: [Buffer.alloc(bytes, 1)] } });
      });
      call.on('end', () => call.end());
      call.on('error', () => {});
    },
  });
}
