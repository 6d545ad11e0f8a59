/**
 * Protocol Buffers import (docs/grpc-import.md): .proto files or a server's reflection become one
 * gRPC API. Its definition is the descriptor file every process reads (protocol/grpc/definition.ts)
 * and, for files, the .proto sources as read, so a definition update can read them again offline.
 * One request per method, in a folder per service, in the order the definition declares them.
 */
import type protobuf from 'protobufjs';
import { ParleyError } from '../../../../protocol/errors.js';
import { GRPC_DEFINITION_FORMAT, GRPC_DESCRIPTOR_FILE, GRPC_PROTO_DIR, callKindOf, descriptorText, grpcBaseUrl, grpcMethods, grpcTarget } from '../../../../protocol/grpc/definition.js';
import type { Api, DefinitionSource } from '../../../../protocol/model/api.js';
import { blankGrpcRequest } from '../../../../protocol/model/grpc.js';
import type { CachedDocument, ImportResult, PlacedRequest, ReportItem } from '../../../../protocol/model/import.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { fingerprintDocuments } from '../load/document-set.js';
import { exampleMessageText } from './example-message.js';
import { readProtoInput } from './proto-input.js';
import type { ProtoFile } from './proto-files.js';

/** A definition as read, from files or from a server. */
export interface GrpcDefinitionRead {
  root: protobuf.Root;
  /** The .proto files read (none from reflection), cached under definition/proto/. */
  files: ProtoFile[];
  skipped: { name: string; importedBy: string }[];
  source?: DefinitionSource;
  /** What the summary says it came from: "files" or "reflection v1alpha at host:port". */
  from: string;
  /** Reflection: the address the server was found at, and whether it was reached over TLS (the target's default). */
  foundAt?: { address: string; tls: boolean };
  /** proto2, proto3, or the reflection version. */
  declaredVersion: string;
}

export async function convertProtobuf(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const location = input.location;
  let read: GrpcDefinitionRead;
  if (location?.kind === 'grpc-server') {
    const { reflectDefinition } = await import('./reflection/reflect-definition.js');
    read = await reflectDefinition(location.server, ctx);
  } else {
    const files = await readProtoInput(input, ctx);
    const syntax = /\bsyntax\s*=\s*["']proto3["']/.test(files.files[0]?.text ?? '') ? 'proto3' : 'proto2';
    read = { ...files, from: 'files', declaredVersion: syntax };
  }
  return grpcImportResult(read, input, ctx);
}

export function grpcImportResult(read: GrpcDefinitionRead, input: ImportInput, ctx: ImportContext): ImportResult {
  const { root } = read;
  const methods = grpcMethods(root);
  const services = [...new Set(methods.map((m) => m.service))];
  if (methods.length === 0) {
    throw new ParleyError('import-refused', `${input.name ?? 'The pasted text'} defines no service with a method, so there is nothing to call: a gRPC API is made from a definition's services.`);
  }
  ctx.onProgress?.({ phase: 'convert', message: `Converting ${methods.length} method${methods.length === 1 ? '' : 's'} of ${services.length} service${services.length === 1 ? '' : 's'}` });

  const apiId = ctx.newId('a');
  const descriptor = new TextEncoder().encode(descriptorText(root));
  const cacheSources = ctx.options.cacheDefinition !== false;
  const documents: CachedDocument[] = [
    { path: relativeToDefinition(GRPC_DESCRIPTOR_FILE), bytes: descriptor, source: read.from },
    ...(cacheSources ? read.files.map((f) => ({ path: `${relativeToDefinition(GRPC_PROTO_DIR)}/${f.name}`, bytes: f.bytes, source: f.name })) : []),
  ];
  const fingerprint = fingerprintDocuments(read.files.length > 0 ? read.files.map((f) => ({ url: f.name, bytes: f.bytes })) : [{ url: read.from, bytes: descriptor }]);
  const baseUrl = targetOf(read, ctx);
  const api: Api = {
    version: 1,
    id: apiId,
    kind: 'grpc',
    name: apiName(ctx, input, services),
    baseUrl,
    auth: { type: 'none' },
    definition: {
      format: GRPC_DEFINITION_FORMAT,
      ...(read.source ? { source: read.source } : {}),
      cached: documents.map((d) => `${DEFINITION_DIR}/${d.path}`),
      fingerprint,
    },
  };

  // A folder per service (its full name, unique), methods in the definition's order (order-keys.ts).
  const order = new SourceOrder();
  const requests: PlacedRequest[] = methods.map((m) => {
    const service = root.lookupService(m.service);
    const method = service.methods[m.method]!;
    const request = {
      ...blankGrpcRequest({ id: ctx.newId('r'), name: m.method, url: '' }),
      service: m.service,
      method: m.method,
      message: exampleMessageText(root.lookupType(m.requestType)),
      ...(method.comment ? { description: method.comment } : {}),
    };
    return { folder: m.service, request: order.request(m.service, request) };
  });

  const notes: ReportItem[] = [{ message: `Imported from ${read.from}: ${services.length} service${services.length === 1 ? '' : 's'}, ${methods.length} method${methods.length === 1 ? '' : 's'}.` }];
  const streaming = methods.filter((m) => callKindOf(m) !== 'unary').length;
  if (streaming > 0) notes.push({ message: `${streaming} of the methods stream (server, client or both ways).` });
  if (!baseUrl) notes.push({ message: 'A target is still needed: set the API\'s base URL to grpc://host:port (or grpcs://host:port for TLS) before calling its methods.' });
  if (read.files.length > 0 && cacheSources) notes.push({ message: `${read.files.length} .proto file${read.files.length === 1 ? ' is' : 's are'} kept with the project (definition/proto/), so a definition update can read ${read.files.length === 1 ? 'it' : 'them'} again offline.` });
  const warnings: ReportItem[] = read.skipped.map((s) => ({ message: `${s.name}, imported by ${s.importedBy}, is not in the chosen folders and was left out: its HTTP annotations and field options are not needed to call the service.`, file: s.importedBy }));
  ctx.onProgress?.({ phase: 'done', message: `Imported ${methods.length} method${methods.length === 1 ? '' : 's'}`, done: methods.length, total: methods.length });
  return {
    apis: [{ api, folders: order.folders(), requests, documents }],
    report: {
      format: 'protobuf',
      declaredVersion: read.declaredVersion,
      baseUrl,
      requestCount: requests.length,
      folderCount: services.length,
      webhookCount: 0,
      securitySchemes: [],
      unimported: [],
      warnings,
      errors: [],
      notes,
      counts: [
        { label: 'Services', count: services.length },
        { label: 'Methods', count: methods.length },
        { label: 'Messages', count: countTypes(root) },
      ],
      importedAt: ctx.now().toISOString(),
    },
  };
}

/** The base URL: the user's Target (host:port or a grpc(s):// URL), else where the server was found, else none yet. */
function targetOf(read: GrpcDefinitionRead, ctx: ImportContext): string {
  const given = ctx.options.baseUrl?.trim();
  if (given) {
    const parsed = grpcTarget(given);
    if (parsed) return grpcBaseUrl(parsed);
    if (!/^[^\s/]+:\d+$/.test(given)) throw new ParleyError('bad-input', `The target ${JSON.stringify(given)} is not host:port, grpc://host:port or grpcs://host:port.`);
    return grpcBaseUrl({ address: given, tls: ctx.options.targetTls ?? read.foundAt?.tls ?? false });
  }
  if (read.foundAt) return grpcBaseUrl({ address: read.foundAt.address, tls: ctx.options.targetTls ?? read.foundAt.tls });
  return '';
}

function apiName(ctx: ImportContext, input: ImportInput, services: string[]): string {
  const given = ctx.options.name?.trim();
  if (given) return given;
  if (services.length === 1) return services[0]!.split('.').pop()!;
  const name = input.name?.replace(/\.proto$/i, '');
  return name || 'gRPC API';
}

function relativeToDefinition(path: string): string {
  return path.slice(DEFINITION_DIR.length + 1);
}

function countTypes(root: protobuf.NamespaceBase): number {
  let n = 0;
  for (const child of root.nestedArray) {
    if ('fieldsArray' in child) n++;
    if ('nestedArray' in child) n += countTypes(child as protobuf.NamespaceBase);
  }
  return n;
}
