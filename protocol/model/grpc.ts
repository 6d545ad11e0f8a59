/**
 * A gRPC request (issue 30, docs/grpc.md): a method of a gRPC API's definition
 * (protocol/grpc/definition.ts), the request message as JSON text, metadata, a deadline and how
 * to reach the server. A unary call is an exchange; a streaming call is a session whose messages
 * are a stream's rows (protocol/model/stream.ts), as WebSocket's are.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Id, Row } from './common.js';
import { Auth } from './auth.js';
import { Assertion } from './assertion.js';

/** A message saved to send on a client or bidirectional stream, in order; `${...}` expands in it. */
export const GrpcSavedMessage = T.Object({
  name: T.String(),
  /** The message as JSON text, checked against the method's input type before it is sent. */
  text: T.String({ maxLength: 32 * 1024 * 1024 }),
});
export type GrpcSavedMessage = Static<typeof GrpcSavedMessage>;

/**
 * TLS beyond the base URL's `grpcs://`: files inside the project (a custom CA, a client
 * certificate and its key), and whether a certificate that does not verify is still accepted.
 */
export const GrpcTls = T.Object({
  caFile: T.String(),
  certFile: T.String(),
  keyFile: T.String(),
  insecure: T.Boolean(),
});
export type GrpcTls = Static<typeof GrpcTls>;

export const GrpcRequest = T.Object({
  kind: T.Literal('grpc'),
  version: T.Literal(1),
  id: Id,
  name: T.String({ minLength: 1 }),
  /** `grpc://host:port` or `grpcs://host:port` (`${...}` expands); empty: the API's base URL. */
  url: T.String(),
  /** The service's full name (`helloworld.Greeter`) and the method's name (`SayHello`). */
  service: T.String(),
  method: T.String(),
  /** The request message as JSON text (`${...}` expands); for a client or bidirectional stream, the first message. */
  message: T.String({ maxLength: 32 * 1024 * 1024 }),
  /** Further messages of a client or bidirectional stream, sent in order after `message`. */
  messages: T.Array(GrpcSavedMessage, { maxItems: 1_000 }),
  metadata: T.Array(Row),
  /** Milliseconds until the call's deadline; 0: none. */
  deadlineMs: T.Integer({ minimum: 0, maximum: 86_400_000 }),
  tls: GrpcTls,
  /** Bearer and API key auth become metadata; inherited from the folder and the API as for HTTP. */
  auth: Auth,
  /** Checked by `parley run` over the response message (JSON) and the status. */
  assertions: T.Optional(T.Array(Assertion, { maxItems: 200 })),
  description: T.Optional(T.String()),
  order: T.Optional(T.String()),
  /** Set by a definition update when the method is no longer in the definition; the request is kept. */
  orphaned: T.Optional(T.Boolean()),
});
export type GrpcRequest = Static<typeof GrpcRequest>;

export function blankGrpcRequest(fields: { id: string; name: string; url: string }): GrpcRequest {
  return {
    kind: 'grpc',
    version: 1,
    ...fields,
    service: '',
    method: '',
    message: '{}',
    messages: [],
    metadata: [],
    deadlineMs: 0,
    tls: { caFile: '', certFile: '', keyFile: '', insecure: false },
    auth: { type: 'inherit' },
  };
}
