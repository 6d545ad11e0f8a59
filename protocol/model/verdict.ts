/**
 * Definitions as they travel between processes and engines (ARCHITECTURE.md, "Names:
 * definitions and contracts"), and contract checks: what the checker is asked (a CheckJob) and
 * what it answers (a Verdict).
 * See SPEC.md "Response and contract verdict" and "Contract-check rules".
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { OperationLink } from './request.js';

/** One document of a definition, already parsed; `uri` is its address, which relative `$ref`s in it resolve against. */
export const DefinitionDocument = T.Object({
  uri: T.String({ minLength: 1 }),
  document: T.Unknown(),
});
export type DefinitionDocument = Static<typeof DefinitionDocument>;

/**
 * A definition: an OpenAPI 3.x or Swagger 2.0 API's documents, parsed, entry first, each with the
 * uri its relative `$ref`s resolve from (a project's cached documents: protocol/cached-definition-uri.ts;
 * a document read from a file or URL: that address). The one shape the checker, the mock host,
 * New Mock and the supervisor's checks pass it in.
 */
export const Definition = T.Array(DefinitionDocument);
export type Definition = Static<typeof Definition>;

/**
 * One cached document of a WSDL definition (the WSDL, a WSDL it imports, an XSD it includes) as
 * text, by its path in the API folder; `source` is the address it was read from at import (the
 * API's `soap.sources`), so an absolute import finds its cached copy offline.
 */
export const WsdlDocument = T.Object({
  path: T.String({ minLength: 1 }),
  text: T.String(),
  source: T.Optional(T.String()),
});
export type WsdlDocument = Static<typeof WsdlDocument>;

/** What a mock is served from: a REST mock's OpenAPI definition, or a SOAP mock's WSDL documents (entry first). */
export const MockDocuments = T.Union([T.Object({ openapi: Definition }), T.Object({ wsdl: T.Array(WsdlDocument) })]);
export type MockDocuments = Static<typeof MockDocuments>;

/**
 * A definition named by its fingerprint, which caches key on (the supervisor's reads, the
 * checker's prepared definitions). `documents` may be left out once the checker has seen the
 * fingerprint, or when the checker can look it up itself; `Required<DefinitionRef>` is a
 * definition with its fingerprint.
 */
export const DefinitionRef = T.Object({
  fingerprint: T.String({ minLength: 1 }),
  documents: T.Optional(Definition),
});
export type DefinitionRef = Static<typeof DefinitionRef>;

export const CheckJob = T.Object({
  /** Absent when the API has no imported definition: the verdict is `none`. */
  definition: T.Optional(DefinitionRef),
  request: T.Object({
    method: T.String({ minLength: 1 }),
    /** The URL as sent (any host); only its path is matched. */
    url: T.String(),
    /** The operation an import linked the request to, if any. */
    operation: T.Optional(OperationLink),
  }),
  response: T.Object({
    status: T.Integer({ minimum: 100, maximum: 999 }),
    /** The Content-Type header as received, parameters and all; absent when there was none. */
    contentType: T.Optional(T.String()),
    /** The decoded body; may be empty when `size` says it is over 1 MiB (it is not parsed then). */
    body: T.Uint8Array(),
    /** The whole decoded size in bytes when it differs from `body.length` (a spooled body). */
    size: T.Optional(T.Integer({ minimum: 0 })),
  }),
});
export type CheckJob = Static<typeof CheckJob>;

/** Where in the body (RFC 6901 JSON Pointer, "" is the whole body) and what the schema wanted. */
export const ContractProblem = T.Object({
  pointer: T.String(),
  message: T.String(),
  /** The schema keyword that failed, e.g. `type`, `required`. */
  keyword: T.String(),
});
export type ContractProblem = Static<typeof ContractProblem>;

/** The six chip values plus `none` (no chip). */
export const VerdictKind = T.Union([
  T.Literal('pass'),
  T.Literal('problems'),
  T.Literal('unexpected-status'),
  T.Literal('no-schema'),
  T.Literal('skipped'),
  T.Literal('not-checked'),
  T.Literal('none'),
]);
export type VerdictKind = Static<typeof VerdictKind>;

/** Why a check gave up (`not-checked`) or shows no chip (`none`), as a stable code. */
export const VerdictReasonCode = T.Union([
  // not-checked
  T.Literal('budget'),
  T.Literal('too-deep'),
  T.Literal('too-many-steps'),
  T.Literal('cancelled'),
  T.Literal('queue-full'),
  T.Literal('checker-failure'),
  T.Literal('schema-error'),
  // none
  T.Literal('no-definition'),
  T.Literal('unsupported-definition'),
  T.Literal('no-operation'),
  T.Literal('event-stream'),
  T.Literal('not-json'),
  T.Literal('no-body'),
  // skipped
  T.Literal('too-large'),
]);
export type VerdictReasonCode = Static<typeof VerdictReasonCode>;

export const Verdict = T.Object({
  kind: VerdictKind,
  /** At most 50; kept on a `not-checked` verdict when found before the stop. */
  problems: T.Array(ContractProblem),
  /** More problems existed than the 50 listed. */
  moreProblems: T.Boolean(),
  /** The check stopped before it finished; `problems` are the ones found until then. */
  partial: T.Boolean(),
  reason: T.Optional(T.Object({ code: VerdictReasonCode, message: T.String() })),
  /** The operation checked against, method and path as the document writes them. */
  operation: T.Optional(OperationLink),
  /** The response key used: `200`, `4XX` or `default`. */
  responseKey: T.Optional(T.String()),
  /** The media type key of the response content used. */
  mediaType: T.Optional(T.String()),
  /** What the check could not evaluate: unsupported keywords, unresolved references, unknown formats. */
  notes: T.Array(T.String()),
  /** Schema steps taken. */
  steps: T.Integer({ minimum: 0 }),
});
export type Verdict = Static<typeof Verdict>;
