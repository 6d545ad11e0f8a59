import { Type as T, type Static } from '@sinclair/typebox';
import { Id } from './common.js';
import { Auth } from './auth.js';

/** Where a definition was read from; a query key or password is never part of `location`. */
export const DefinitionSource = T.Object({
  /** A document's URL or file, a folder of .proto files, or a gRPC server read by reflection (location host:port). */
  kind: T.Union([T.Literal('url'), T.Literal('file'), T.Literal('folder'), T.Literal('grpc-reflection')]),
  location: T.String(),
  /** gRPC reflection: the version that answered, and whether the server was reached over TLS (and without checking its certificate). */
  reflection: T.Optional(T.Object({ version: T.Union([T.Literal('v1'), T.Literal('v1alpha')]), tls: T.Boolean(), insecure: T.Boolean() })),
  /** .proto files: the include paths imports were looked for in after the file's own folder. */
  includePaths: T.Optional(T.Array(T.String())),
  /**
   * How it was fetched: the type, and for a secret the keychain reference holding it. Kerberos
   * has no secret (the signed-in ticket), only an optional SPN.
   */
  credentials: T.Optional(
    T.Union([
      T.Object({
        type: T.Union([T.Literal('basic'), T.Literal('bearer'), T.Literal('apikey')]),
        username: T.Optional(T.String()),
        name: T.Optional(T.String()),
        in: T.Optional(T.Union([T.Literal('header'), T.Literal('query')])),
        secret: T.String(),
      }),
      T.Object({ type: T.Literal('kerberos'), spn: T.Optional(T.String()) }),
    ]),
  ),
});
export type DefinitionSource = Static<typeof DefinitionSource>;

export const ApiDefinition = T.Object({
  /** e.g. openapi-3.1, swagger-2.0 */
  format: T.String(),
  /** Absent for an API imported from pasted text. */
  source: T.Optional(DefinitionSource),
  /** Cached documents, relative to the API folder; the first is the entry document. */
  cached: T.Array(T.String()),
  /** Fingerprint of every document read, to refuse an Apply whose sources changed since preview. */
  fingerprint: T.String(),
  /** The API's own version (info.version) as the document states it. */
  apiVersion: T.Optional(T.String()),
});
export type ApiDefinition = Static<typeof ApiDefinition>;

/** A SOAP interface: the WSDL binding the API was made from (docs/soap.md). */
export const SoapInterface = T.Object({
  binding: T.String(),
  /** The binding's target namespace. */
  namespace: T.String(),
  soapVersion: T.Union([T.Literal('1.1'), T.Literal('1.2')]),
  /**
   * Where each cached document was read from (parallel to `definition.cached`, never with a
   * credential), so an absolute import or include resolves to its cached copy offline.
   */
  sources: T.Array(T.String()),
});
export type SoapInterface = Static<typeof SoapInterface>;

export const Api = T.Object({
  version: T.Literal(1),
  id: Id,
  name: T.String({ minLength: 1 }),
  /**
   * What kind of API it is (protocol/kinds: the kind of requests it holds); absent: REST, as
   * every file written before kinds is. A gRPC API offers no New Mock and no OpenAPI update.
   */
  kind: T.Optional(T.Union([T.Literal('rest'), T.Literal('websocket'), T.Literal('grpc')])),
  baseUrl: T.String(),
  auth: Auth,
  definition: T.Optional(ApiDefinition),
  /** What the import generated for API-wide fields; see Definition update rules. */
  generated: T.Optional(T.Object({ baseUrl: T.String(), auth: Auth, apiVersion: T.String() })),
  /** Set for an API made from a WSDL binding; its definition's format is then `wsdl-1.1`. */
  soap: T.Optional(SoapInterface),
  /** Its place among the project's APIs: a fractional index key (protocol/project/order-keys.ts); absent: by name, before keyed ones. */
  order: T.Optional(T.String()),
});
export type Api = Static<typeof Api>;

/** SPEC Errors: the API was imported from a definition, but without keeping a copy of its documents. */
export const DEFINITION_NOT_CACHED = 'Cannot be mocked until imported again with definitions cached.';

/** An API made by hand, or from a collection, a HAR capture or a curl command: no contract to mock. */
export const NO_DEFINITION_TO_MOCK =
  'No definition: a mock answers from an imported OpenAPI document or WSDL, and this API was not imported from one. Import its definition (Import…) and mock the API that makes.';

/** Why a mock cannot be made or started for this API, in the user's words; undefined when it can. */
/** A gRPC API: a mock answers HTTP and SOAP, not gRPC. */
export const GRPC_NOT_MOCKABLE = 'A gRPC API cannot be mocked: a mock answers from an OpenAPI document or a WSDL.';

export function whyNotMockable(api: Pick<Api, 'definition' | 'kind'>): string | undefined {
  if (api.kind === 'grpc') return GRPC_NOT_MOCKABLE;
  if (!api.definition) return NO_DEFINITION_TO_MOCK;
  return api.definition.cached.length === 0 ? DEFINITION_NOT_CACHED : undefined;
}
