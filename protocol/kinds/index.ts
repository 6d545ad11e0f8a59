/**
 * The request kinds, in one list (ARCHITECTURE.md, "Request kinds": the recipe for adding one).
 * HTTP comes first; a request with no `kind` is HTTP. Code that serves every kind looks its kind
 * up here instead of testing for each one.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { ParleyError, quote } from '../errors.js';
import { Request } from '../model/request.js';
import { httpKind } from './http.js';
import { websocketKind } from './websocket.js';
import { grpcKind } from './grpc.js';
import { WebSocketRequest } from '../model/websocket.js';
import { GrpcRequest } from '../model/grpc.js';
import type { RequestKind } from './kind.js';

export type { RequestKind, ApiKindId } from './kind.js';
export { httpKind, websocketKind, grpcKind };

/** A request of any kind, as the store holds it and the bus carries it. */
export const AnyRequest = T.Union([Request, WebSocketRequest, GrpcRequest]);
export type AnyRequest = Static<typeof AnyRequest>;
export type RequestKindId = NonNullable<AnyRequest['kind']>;

type AnyKind = RequestKind<AnyRequest>;

/** Every kind, HTTP first. */
export const REQUEST_KINDS: readonly AnyKind[] = [httpKind as AnyKind, websocketKind as AnyKind, grpcKind as AnyKind];

const byId = new Map(REQUEST_KINDS.map((kind) => [kind.id, kind]));

/** The kind of a request (HTTP when it names none). */
export function kindOf(request: Pick<AnyRequest, 'kind'>): AnyKind {
  return kindById(request.kind ?? 'http');
}

export function kindById(id: string): AnyKind {
  const kind = byId.get(id);
  if (!kind) throw new ParleyError('bad-input', `${quote(id)} is not a request kind Parley knows (${REQUEST_KINDS.map((k) => k.id).join(', ')}).`);
  return kind;
}

/** The kind whose files end like `path`, if any: what the store reads a request file as. */
export function kindOfFile(path: string): AnyKind | undefined {
  return REQUEST_KINDS.find((kind) => path.endsWith(kind.suffix));
}

/** An HTTP request (GraphQL and SOAP ride on it): what HTTP-only features (cURL, a definition's update, contract checks) take. */
export function isHttp(request: AnyRequest): request is Request {
  return (request.kind ?? 'http') === 'http';
}

/** `request` when it is HTTP, else refused naming what `doing` needs (`Copy as cURL`). */
export function asHttp(request: AnyRequest, doing: string): Request {
  if (isHttp(request)) return request;
  throw new ParleyError('bad-input', `${doing} works on HTTP requests; ${quote(request.name)} is a ${kindOf(request).label} request.`);
}

/** The request as written to its file, by its kind's rule. */
export function forFile(request: AnyRequest): AnyRequest {
  return kindOf(request).forFile(request);
}
