/** gRPC, a request kind of its own (docs/grpc.md): a method of a gRPC API's definition, called unary or streaming. */
import { GrpcRequest, blankGrpcRequest } from '../model/grpc.js';
import type { FileKind } from '../project/yaml-file.js';
import type { RequestKind } from './kind.js';

export const GRPC_SUFFIX = '.grpc.yaml';

const file: FileKind<GrpcRequest> = { label: 'gRPC request', schema: GrpcRequest, version: 1 };

export const grpcKind: RequestKind<GrpcRequest> = {
  id: 'grpc',
  label: 'gRPC',
  api: 'grpc',
  schema: GrpcRequest,
  suffix: GRPC_SUFFIX,
  file,
  // An empty assertion list is not written, as for HTTP.
  forFile: ({ assertions, ...rest }) => (assertions && assertions.length > 0 ? { ...rest, assertions } : rest),
  blank: blankGrpcRequest,
  badge: () => 'gRPC',
  // A unary call's record is its request and response; a stream's rows are bounded as event streams are.
  record: 'session',
};
