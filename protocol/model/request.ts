import { Type as T, type Static } from '@sinclair/typebox';
import { Id, Row } from './common.js';
import { Auth } from './auth.js';
import { Assertion } from './assertion.js';
import { Capture } from './capture.js';
import { queryInUrl, syncPathParams } from '../request-url.js';
import { GraphqlBody } from './graphql.js';

export const RawLanguage = T.Union([
  T.Literal('json'),
  T.Literal('xml'),
  T.Literal('text'),
  T.Literal('html'),
  T.Literal('javascript'),
]);
export type RawLanguage = Static<typeof RawLanguage>;

export const BodyKind = T.Union([
  T.Literal('none'),
  T.Literal('raw'),
  T.Literal('form'),
  T.Literal('multipart'),
  T.Literal('binary'),
  T.Literal('graphql'),
]);
export type BodyKind = Static<typeof BodyKind>;

export const MultipartPart = T.Union([
  T.Object({ kind: T.Literal('text'), name: T.String(), value: T.String(), enabled: T.Boolean() }),
  T.Object({
    kind: T.Literal('file'),
    name: T.String(),
    /** Absolute path, or relative to the project folder. */
    file: T.String(),
    contentType: T.String(),
    enabled: T.Boolean(),
  }),
]);
export type MultipartPart = Static<typeof MultipartPart>;

/** Every body kind keeps its own draft, so trying another kind loses nothing. */
export const Body = T.Object({
  kind: BodyKind,
  raw: T.Object({ language: RawLanguage, text: T.String() }),
  form: T.Array(Row),
  multipart: T.Array(MultipartPart),
  binary: T.Object({ file: T.String(), contentType: T.String() }),
  /** A GraphQL body (docs/graphql.md); absent until the GraphQL kind is first chosen. */
  graphql: T.Optional(GraphqlBody),
});
export type Body = Static<typeof Body>;

/** The Content-Type a send adds for each raw body language (and the other body kinds) when no header row sets one. */
export const RAW_CONTENT_TYPES: Readonly<Record<RawLanguage, string>> = {
  json: 'application/json',
  xml: 'application/xml',
  text: 'text/plain',
  html: 'text/html',
  javascript: 'application/javascript',
};
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const BINARY_CONTENT_TYPE = 'application/octet-stream';

export const HttpVersion = T.Union([T.Literal('1.1'), T.Literal('2')]);
export type HttpVersion = Static<typeof HttpVersion>;

export const RequestSettings = T.Object({
  sendCookies: T.Boolean(),
  /** Milliseconds until the response headers arrive; 0 waits forever. */
  timeoutMs: T.Integer({ minimum: 0 }),
  httpVersion: HttpVersion,
});
export type RequestSettings = Static<typeof RequestSettings>;

/** The operation an import linked the request to: method and path as the document writes them. */
export const OperationLink = T.Object({ method: T.String(), path: T.String() });
export type OperationLink = Static<typeof OperationLink>;

/** What the import generated, kept so a definition update can tell user edits from generated values. */
export const GeneratedFields = T.Object({
  url: T.String(),
  query: T.Array(Row),
  headers: T.Array(Row),
  pathParams: T.Array(T.Object({ name: T.String(), value: T.String() })),
  contentType: T.String(),
  body: T.String(),
  auth: Auth,
});
export type GeneratedFields = Static<typeof GeneratedFields>;

export const SoapVersionField = T.Union([T.Literal('1.1'), T.Literal('1.2')]);

/**
 * A SOAP request (docs/soap.md): the WSDL operation it was made from, its binding's SOAP version
 * and the action it sends (SOAPAction header in 1.1, `action=` in the Content-Type in 1.2).
 * Optional, so every older file reads as before; the request is sent as any other POST.
 */
export const SoapRequestLink = T.Object({
  binding: T.String(),
  operation: T.String(),
  soapVersion: SoapVersionField,
  action: T.String(),
});
export type SoapRequestLink = Static<typeof SoapRequestLink>;

export const Request = T.Object({
  /** The request kind (protocol/kinds/): absent, as in every file written before kinds, is HTTP. */
  kind: T.Optional(T.Literal('http')),
  /**
   * 1; 2 when the request has assertions; 3 when it has captures; 4 with a GraphQL body or an
   * assertion on GraphQL errors (an older release refuses those rather than drop them): `requestVersionOf`.
   */
  version: T.Union([T.Literal(1), T.Literal(2), T.Literal(3), T.Literal(4)]),
  id: Id,
  name: T.String({ minLength: 1 }),
  method: T.String({ minLength: 1, maxLength: 32 }),
  /**
   * The URL or path as the user typed it, query string and fragment included (protocol/request-url.ts):
   * the query rows the editor shows are read from it. A fragment is kept, never sent.
   */
  url: T.String(),
  pathParams: T.Array(T.Object({ name: T.String(), value: T.String() })),
  /**
   * Query rows switched off, kept for when they are switched back on. A switched-on row here (a
   * file written before the URL held its query, an importer's rows) is sent after the URL's
   * query, and a load or save moves it into the URL (`requestForFile`).
   */
  query: T.Array(Row),
  headers: T.Array(Row),
  body: Body,
  auth: Auth,
  settings: RequestSettings,
  operation: T.Optional(OperationLink),
  generated: T.Optional(GeneratedFields),
  /** What the source said of the request (a Postman description), shown above the editor's tabs. */
  description: T.Optional(T.String()),
  /** Set by a definition update: the linked operation is no longer in the document. */
  orphaned: T.Optional(T.Boolean()),
  /** Set by a definition update: the linked operation came back. */
  restored: T.Optional(T.Boolean()),
  /** What a response must satisfy (docs/assertions.md); absent or empty: none. */
  assertions: T.Optional(T.Array(Assertion, { maxItems: 200 })),
  /** Variables set from its response for the requests after it (docs/captures.md); absent or empty: none. */
  captures: T.Optional(T.Array(Capture, { maxItems: 200 })),
  /** Set for a request made from a WSDL operation. */
  soap: T.Optional(SoapRequestLink),
  /** Its place among its folder's items: a fractional index key (protocol/project/order-keys.ts); absent: by name, before keyed ones. */
  order: T.Optional(T.String()),
});
export type Request = Static<typeof Request>;

/**
 * The `version` a request is saved with: the lowest that holds what it has (2 for assertions, 3
 * for captures, 4 for GraphQL: a body, or an assertion on its errors), so files without them stay
 * readable by older releases.
 */
export function requestVersionOf(request: Pick<Request, 'assertions' | 'captures' | 'body'>): 1 | 2 | 3 | 4 {
  if (request.body.graphql !== undefined || request.assertions?.some((a) => a.source === 'graphqlErrors')) return 4;
  if (request.captures && request.captures.length > 0) return 3;
  return request.assertions && request.assertions.length > 0 ? 2 : 1;
}

/**
 * A request as written to its file, and as a file is read: its version set by what it holds, no
 * empty assertion or capture list, its query in its URL (`queryInUrl`: the URL text is what the user edits).
 */
export function requestForFile(request: Request): Request {
  const { assertions, captures, ...rest } = queryInUrl(request);
  return {
    ...rest,
    version: requestVersionOf({ assertions, captures, body: request.body }),
    ...(assertions && assertions.length > 0 ? { assertions } : {}),
    ...(captures && captures.length > 0 ? { captures } : {}),
  };
}

export function emptyBody(): Body {
  return {
    kind: 'none',
    raw: { language: 'json', text: '' },
    form: [],
    multipart: [],
    binary: { file: '', contentType: 'application/octet-stream' },
  };
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export function defaultSettings(): RequestSettings {
  return { sendCookies: false, timeoutMs: DEFAULT_TIMEOUT_MS, httpVersion: '1.1' };
}

/** A new request with nothing set but these: no headers or body, auth inherited; the URL as typed, a row per `{name}` path segment. */
export function blankRequest(fields: { id: string; name: string; method: string; url: string }): Request {
  return {
    version: 1,
    ...fields,
    method: fields.method.toUpperCase(),
    pathParams: syncPathParams(fields.url, []),
    query: [],
    headers: [],
    body: emptyBody(),
    auth: { type: 'inherit' },
    settings: defaultSettings(),
  };
}
