/**
 * A gRPC API's definition as the project keeps it (docs/grpc.md): one JSON file of protobufjs
 * descriptors, `definition/grpc-descriptor.json` in the API folder, written by the importer from
 * .proto files or from server reflection, and read by every process that sends, checks or edits
 * a call. The .proto files of a file import are kept beside it (`definition/proto/...`) only so
 * a definition update can read them again; nothing loads them at send time.
 */
import protobuf from 'protobufjs';
import { ParleyError, quote } from '../errors.js';

/** `definition.format` of a gRPC API. */
export const GRPC_DEFINITION_FORMAT = 'protobuf';
/** The descriptors, relative to the API folder: always `definition.cached[0]` of a gRPC API. */
export const GRPC_DESCRIPTOR_FILE = 'definition/grpc-descriptor.json';
/** Where a file import's .proto sources are kept, relative to the API folder. */
export const GRPC_PROTO_DIR = 'definition/proto';
/** The largest descriptor file read: a definition bigger than this is refused, not parsed. */
export const MAX_GRPC_DESCRIPTOR_BYTES = 64 * 1024 * 1024;

/** A method as a picker lists it: its service's full name, its name, its types and streaming kind. */
export interface GrpcMethodInfo {
  /** e.g. `helloworld.Greeter` */
  service: string;
  method: string;
  /** Fully qualified, without the leading dot. */
  requestType: string;
  responseType: string;
  requestStream: boolean;
  responseStream: boolean;
}

/** The four call kinds of gRPC, named by their streaming sides. */
export type GrpcCallKind = 'unary' | 'server-stream' | 'client-stream' | 'bidi';

export function callKindOf(method: Pick<GrpcMethodInfo, 'requestStream' | 'responseStream'>): GrpcCallKind {
  if (method.requestStream) return method.responseStream ? 'bidi' : 'client-stream';
  return method.responseStream ? 'server-stream' : 'unary';
}

/** The descriptor file's JSON as protobufjs writes it (`Root.toJSON()`). */
export type GrpcDescriptorJson = protobuf.INamespace;

/** The JSON text of a root's descriptors, as the importer writes the file. */
export function descriptorText(root: protobuf.Root): string {
  return `${JSON.stringify(root.toJSON({ keepComments: true }), null, 1)}\n`;
}

/**
 * The descriptors of a descriptor file, every reference resolved. A file too big, not JSON, or
 * naming a type it does not hold is a `grpc-definition-invalid` naming what was wrong.
 */
export function loadGrpcRoot(text: string, where = GRPC_DESCRIPTOR_FILE): protobuf.Root {
  if (text.length > MAX_GRPC_DESCRIPTOR_BYTES) {
    throw new ParleyError('grpc-definition-invalid', `The gRPC definition ${where} is ${text.length.toLocaleString('en')} bytes, over the ${MAX_GRPC_DESCRIPTOR_BYTES / 1024 / 1024} MB limit.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ParleyError('grpc-definition-invalid', `The gRPC definition ${where} is not JSON: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ParleyError('grpc-definition-invalid', `The gRPC definition ${where} is not a descriptor object.`);
  }
  try {
    const root = protobuf.Root.fromJSON(json as GrpcDescriptorJson);
    root.resolveAll();
    return root;
  } catch (err) {
    throw new ParleyError('grpc-definition-invalid', `The gRPC definition ${where} cannot be read: ${quote((err as Error).message, 300)}`);
  }
}

/** Every method of every service in the root, in the order the definition declares them. */
export function grpcMethods(root: protobuf.Root): GrpcMethodInfo[] {
  const methods: GrpcMethodInfo[] = [];
  const visit = (ns: protobuf.NamespaceBase) => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Service) {
        for (const m of child.methodsArray) {
          methods.push({
            service: fullName(child),
            method: m.name,
            requestType: fullName(m.resolvedRequestType!),
            responseType: fullName(m.resolvedResponseType!),
            requestStream: m.requestStream === true,
            responseStream: m.responseStream === true,
          });
        }
      } else if (child instanceof protobuf.Namespace) {
        visit(child);
      }
    }
  };
  visit(root);
  return methods;
}

function fullName(item: protobuf.ReflectionObject): string {
  return item.fullName.replace(/^\./, '');
}

/** A gRPC API's base URL: `grpc://host:port` (plaintext) or `grpcs://host:port` (TLS). */
export interface GrpcTarget {
  address: string;
  tls: boolean;
}

/** The target a gRPC base URL names, or null when it names none (the import's note: one is still needed). */
export function grpcTarget(baseUrl: string): GrpcTarget | null {
  const m = /^(grpcs?):\/\/([^/\s]+)\/?$/i.exec(baseUrl.trim());
  if (!m) return null;
  return { address: m[2]!, tls: m[1]!.toLowerCase() === 'grpcs' };
}

export function grpcBaseUrl(target: GrpcTarget): string {
  return `${target.tls ? 'grpcs' : 'grpc'}://${target.address}`;
}
