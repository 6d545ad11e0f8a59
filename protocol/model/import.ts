/**
 * What an import job is, what it reports while it runs and what it hands back; plus the
 * definition update's preview and result. Shared by the importer child, the supervisor and the
 * UI, so every shape here crosses the bus.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Api, DefinitionSource } from './api.js';
import { Auth } from './auth.js';
import { Row } from './common.js';
import { Example } from './example.js';
import { HistoryEntry } from './history.js';
import { Request } from './request.js';
import { AnyRequest } from '../kinds/index.js';

/** Credentials for fetching a definition by URL (SPEC "Credentials for fetching a definition"). */
export const FetchCredentials = T.Union([
  T.Object({ type: T.Literal('basic'), username: T.String(), password: T.String() }),
  T.Object({ type: T.Literal('bearer'), token: T.String() }),
  T.Object({ type: T.Literal('apikey'), name: T.String({ minLength: 1 }), value: T.String(), in: T.Union([T.Literal('header'), T.Literal('query')]) }),
  /** SPNEGO with the signed-in ticket: no secret; `spn` defaults to HTTP@<the document's host>. */
  T.Object({ type: T.Literal('kerberos'), spn: T.Optional(T.String({ maxLength: 255 })) }),
]);
export type FetchCredentials = Static<typeof FetchCredentials>;

export const ImportSource = T.Union([
  T.Object({ kind: T.Literal('url'), url: T.String({ minLength: 1 }), credentials: T.Optional(FetchCredentials) }),
  T.Object({ kind: T.Literal('file'), path: T.String({ minLength: 1 }) }),
  T.Object({ kind: T.Literal('paste'), text: T.String() }),
]);
export type ImportSource = Static<typeof ImportSource>;

/** A running gRPC server read by server reflection (the dialog's Server tab, `parley import --grpc-server`). */
export const GrpcServerSource = T.Object({
  kind: T.Literal('grpc-server'),
  /** host:port */
  address: T.String({ minLength: 1, maxLength: 1024 }),
  reflection: T.Union([T.Literal('auto'), T.Literal('v1'), T.Literal('v1alpha')]),
  tls: T.Boolean(),
  /** "Ask even if the certificate does not verify". */
  insecure: T.Boolean(),
});
export type GrpcServerSource = Static<typeof GrpcServerSource>;

/**
 * Where an import job reads: a document (`ImportSource`, which a definition update reads again),
 * a folder of .proto files (every .proto below it, imports resolved inside it), or a gRPC server.
 */
export const ImportJobSource = T.Union([...ImportSource.anyOf, T.Object({ kind: T.Literal('folder'), path: T.String({ minLength: 1 }) }), GrpcServerSource]);
export type ImportJobSource = Static<typeof ImportJobSource>;

/** The network settings from the preferences (SPEC: the fetch uses the proxy and CA bundle). */
export const FetchNetwork = T.Object({
  /** http://host:port or empty. */
  proxy: T.String(),
  /** Extra trusted CAs in PEM, or empty. */
  caPem: T.String(),
});
export type FetchNetwork = Static<typeof FetchNetwork>;

/** How long reading may take: one document's fetch, and the whole job (docs/importers.md, "Deadlines"). */
export const ImportDeadlines = T.Object({
  fetchMs: T.Integer({ minimum: 1 }),
  jobMs: T.Integer({ minimum: 1 }),
});
export type ImportDeadlines = Static<typeof ImportDeadlines>;

export const OpenApiImportOptions = T.Object({
  /** Name override; empty or absent takes info.title. */
  name: T.Optional(T.String()),
  /** Base URL override; empty or absent takes the first server. */
  baseUrl: T.Optional(T.String()),
  /** Cache specification documents with the project (default true). */
  cacheDefinition: T.Optional(T.Boolean()),
  /** Import webhooks & callbacks into the Webhooks collection (default true). */
  importWebhooks: T.Optional(T.Boolean()),
});
export type OpenApiImportOptions = Static<typeof OpenApiImportOptions>;

/**
 * Every format's options in one flat object: each importer reads the fields it knows and
 * ignores the rest, so the dialog and the CLI send one shape whatever the format.
 */
export const ImportOptions = T.Composite([
  OpenApiImportOptions,
  T.Object({
    /** HAR: import requests for static assets (images, scripts, styles, fonts) too (default false). */
    includeStaticAssets: T.Optional(T.Boolean()),
    /** HAR: what becomes of recorded responses (default 'none'). */
    recordedResponses: T.Optional(T.Union([T.Literal('none'), T.Literal('history'), T.Literal('examples')])),
    /** WSDL: "Use these credentials for requests too": Basic definition credentials become the interface's auth (default false). */
    useCredentialsForRequests: T.Optional(T.Boolean()),
    /** Protocol Buffers: folders imports are looked for in after the file's own folder, in order (protoc's -I). */
    protoIncludePaths: T.Optional(T.Array(T.String({ minLength: 1 }), { maxItems: 32 })),
    /** gRPC: whether the target (`baseUrl`, or the server's address) speaks TLS: grpcs:// (default: as the server was reached). */
    targetTls: T.Optional(T.Boolean()),
    /** .http: "Also import N environments found beside the file" (default true). */
    httpEnvironments: T.Optional(T.Boolean()),
  }),
]);
export type ImportOptions = Static<typeof ImportOptions>;

export const ImportJob = T.Object({
  source: ImportJobSource,
  /** 'auto' or an importer id such as 'openapi'. */
  format: T.String({ minLength: 1 }),
  options: ImportOptions,
  network: FetchNetwork,
  /** The importer's defaults when absent. */
  deadlines: T.Optional(ImportDeadlines),
});
export type ImportJob = Static<typeof ImportJob>;

export const ImportPhase = T.Union([
  T.Literal('read'),
  T.Literal('resolve'),
  T.Literal('convert'),
  T.Literal('done'),
]);
export type ImportPhase = Static<typeof ImportPhase>;

/** A progress event; `message` never holds a query key, password or token. */
export const ImportProgress = T.Object({
  phase: ImportPhase,
  message: T.String(),
  done: T.Optional(T.Integer({ minimum: 0 })),
  total: T.Optional(T.Integer({ minimum: 0 })),
  /** Bytes of the source read so far (and `total` the source's size when known). */
  bytes: T.Optional(T.Integer({ minimum: 0 })),
  /** Items found so far: requests, variables, entries, whatever the format counts. */
  items: T.Optional(T.Integer({ minimum: 0 })),
});
export type ImportProgress = Static<typeof ImportProgress>;

/** Where in the source something was found: document (cache-relative name), JSON Pointer, line. */
export const SourceLocation = T.Object({
  file: T.Optional(T.String()),
  path: T.Optional(T.String()),
  line: T.Optional(T.Integer({ minimum: 1 })),
});
export type SourceLocation = Static<typeof SourceLocation>;

export const ReportItem = T.Composite([T.Object({ message: T.String() }), SourceLocation]);
export type ReportItem = Static<typeof ReportItem>;

export const UnimportedItem = T.Composite([T.Object({ item: T.String(), reason: T.String() }), SourceLocation]);
export type UnimportedItem = Static<typeof UnimportedItem>;

/** A security scheme as the summary lists it; `use` is what its Use button sets as the API's auth. */
export const SecuritySchemeSummary = T.Object({
  name: T.String(),
  /** As the document types it: http, apiKey, oauth2, openIdConnect, mutualTLS, basic (2.0), ... */
  type: T.String(),
  details: T.String(),
  use: T.Optional(Auth),
  /** Why there is no Use action, when there is none. */
  unusable: T.Optional(T.String()),
});
export type SecuritySchemeSummary = Static<typeof SecuritySchemeSummary>;

export const ImportReport = T.Object({
  /** Importer id that ran, e.g. 'openapi'. */
  format: T.String(),
  /** Declared document version, e.g. openapi-3.1, swagger-2.0, swagger-1.2. */
  declaredVersion: T.String(),
  /** The API's own version (info.version), when stated. */
  apiVersion: T.Optional(T.String()),
  baseUrl: T.String(),
  requestCount: T.Integer({ minimum: 0 }),
  folderCount: T.Integer({ minimum: 0 }),
  webhookCount: T.Integer({ minimum: 0 }),
  securitySchemes: T.Array(SecuritySchemeSummary),
  unimported: T.Array(UnimportedItem),
  warnings: T.Array(ReportItem),
  errors: T.Array(ReportItem),
  /** Things worth knowing that need no action (the report's Notes): what was carried across how. */
  notes: T.Optional(T.Array(ReportItem)),
  /** Further counts the summary shows, in order (a SoapUI project's interfaces, operations, scripts...). */
  counts: T.Optional(T.Array(T.Object({ label: T.String(), count: T.Integer({ minimum: 0 }) }))),
  /** ISO time from the injected clock. */
  importedAt: T.String(),
});
export type ImportReport = Static<typeof ImportReport>;

/** One document read, to be written under the API's definition/ folder. */
export const CachedDocument = T.Object({
  /** Relative to the API's definition/ folder, '/'-separated. */
  path: T.String({ minLength: 1 }),
  bytes: T.Uint8Array(),
  /**
   * Where it was read from (file: or http(s): URL without any credential), so absolute
   * references resolve against the cache. Not part of the Api model yet: see docs/importers.md.
   */
  source: T.String(),
});
export type CachedDocument = Static<typeof CachedDocument>;

/** A request of any kind (protocol/kinds) and the folder it goes in ('' at the API's root, '/'-separated). */
export const PlacedRequest = T.Object({ folder: T.String(), request: AnyRequest });
export type PlacedRequest = Static<typeof PlacedRequest>;

/** The keychain entry the supervisor stores the fetch secret under, when one was used. */
export const SecretToStore = T.Object({
  /** Secret name, as used in `${secret:name}`. */
  name: T.String(),
  /** Which credential of the job it is: the password, token or key value that the job carried. */
  from: T.Union([T.Literal('password'), T.Literal('token'), T.Literal('apikey')]),
});
export type SecretToStore = Static<typeof SecretToStore>;

/**
 * A folder of an import: its path ('/'-separated), its place in its parent (`SourceOrder`,
 * protocol/project/order-keys.ts), and the settings the source gave it (a Postman folder's auth
 * and variables), which its requests inherit (docs/project-files.md "Folder settings").
 */
export const ImportedFolder = T.Object({
  path: T.String(),
  order: T.String(),
  auth: T.Optional(Auth),
  headers: T.Optional(T.Array(Row)),
  variables: T.Optional(T.Array(Row)),
});
export type ImportedFolder = Static<typeof ImportedFolder>;

export const ImportedApi = T.Object({
  api: Api,
  /** Every folder of the API, ancestors included, in the source's order (each request carries its `order` too). */
  folders: T.Array(ImportedFolder),
  requests: T.Array(PlacedRequest),
  /** Empty when the job asked not to cache the definition. */
  documents: T.Array(CachedDocument),
  secret: T.Optional(SecretToStore),
});
export type ImportedApi = Static<typeof ImportedApi>;

/** Webhooks and callbacks: a folder named after the API in the project's Webhooks collection. */
export const WebhooksOutput = T.Object({
  collection: T.Literal('Webhooks'),
  folder: T.String(),
  requests: T.Array(PlacedRequest),
});
export type WebhooksOutput = Static<typeof WebhooksOutput>;

/**
 * A variable of an imported environment or of the globals. A secret one carries its value only
 * to the supervisor, which stores it in the keychain and writes a `${secret:...}` reference.
 */
export const ImportedVariable = T.Object({
  name: T.String(),
  value: T.String(),
  enabled: T.Boolean(),
  secret: T.Boolean(),
});
export type ImportedVariable = Static<typeof ImportedVariable>;

/** An environment as the source named it; the supervisor suffixes a taken name ('Staging 2'). */
export const ImportedEnvironment = T.Object({ name: T.String({ minLength: 1 }), variables: T.Array(ImportedVariable) });
export type ImportedEnvironment = Static<typeof ImportedEnvironment>;

/**
 * A script kept as text under the project's imported-scripts/ folder, never run. `name` is a
 * file name the importer made portable (unique within the import); the supervisor numbers it
 * when the folder already holds one of that name.
 */
export const ImportedScript = T.Object({ name: T.String({ minLength: 1 }), text: T.String() });
export type ImportedScript = Static<typeof ImportedScript>;

/**
 * A secret the import found in the source (a .http file's URL password, a literal credential
 * header): the supervisor stores it under `name` before it writes the files that refer to it as
 * `${secret:name}`, and never overwrites one the store already holds.
 */
export const ImportedSecret = T.Object({ name: T.String({ minLength: 1, maxLength: 200 }), value: T.String() });
export type ImportedSecret = Static<typeof ImportedSecret>;

/** A recorded response to keep as an example of an imported request (by the request's id). */
export const ImportedExample = T.Object({ request: T.String(), example: Example });
export type ImportedExample = Static<typeof ImportedExample>;

/**
 * What an importer made. Project side: APIs with their folders and requests, Webhooks,
 * project properties (a name the project has keeps its value), examples and History entries
 * of the imported requests. Workspace side: environments and globals (an existing global keeps
 * its value). Every part but the report is optional; the supervisor writes what is there.
 */
export const ImportResult = T.Object({
  apis: T.Array(ImportedApi),
  webhooks: T.Optional(WebhooksOutput),
  properties: T.Optional(T.Array(Row)),
  examples: T.Optional(T.Array(ImportedExample)),
  /** Recorded exchanges, at their recorded times, already redacted as a live send's entry. */
  history: T.Optional(T.Array(HistoryEntry)),
  environments: T.Optional(T.Array(ImportedEnvironment)),
  globals: T.Optional(T.Array(ImportedVariable)),
  /** Scripts to keep as text under imported-scripts/ (never run). */
  scripts: T.Optional(T.Array(ImportedScript)),
  /** Secret values the project's new files refer to, for the secret store. */
  secrets: T.Optional(T.Array(ImportedSecret)),
  /** The source's own name for a new project (a SoapUI project's name), when the user gave none. */
  projectName: T.Optional(T.String()),
  report: ImportReport,
});
export type ImportResult = Static<typeof ImportResult>;

// ---- Definition update -------------------------------------------------------------------

/** An operation as the document writes it: method key and path. */
export const OperationKey = T.Object({ method: T.String(), path: T.String() });
export type OperationKey = Static<typeof OperationKey>;

export const ChangeReason = T.Union([
  T.Literal('parameters'),
  T.Literal('request-body'),
  T.Literal('responses'),
  T.Literal('security'),
  T.Literal('servers'),
  // A WSDL operation (docs/soap.md): its input or output message, or its SOAP action.
  T.Literal('input'),
  T.Literal('output'),
  T.Literal('action'),
]);
export type ChangeReason = Static<typeof ChangeReason>;

export const ChangedOperation = T.Composite([OperationKey, T.Object({ reasons: T.Array(ChangeReason) })]);
export type ChangedOperation = Static<typeof ChangedOperation>;

export const ApiWideChange = T.Object({
  servers: T.Boolean(),
  security: T.Boolean(),
  /** Set when info.version changed. */
  version: T.Optional(T.Object({ from: T.String(), to: T.String() })),
  /** A WSDL interface: its binding's endpoint address changed. */
  endpoint: T.Optional(T.Object({ from: T.String(), to: T.String() })),
});
export type ApiWideChange = Static<typeof ApiWideChange>;

export const DefinitionUpdatePreview = T.Object({
  added: T.Array(OperationKey),
  removed: T.Array(OperationKey),
  changed: T.Array(ChangedOperation),
  /** Absent when servers, security and version are all unchanged. */
  apiWide: T.Optional(ApiWideChange),
  declaredVersion: T.String(),
  /** Of every document read for this preview; Apply is refused when a fresh read differs. */
  fingerprint: T.String(),
  warnings: T.Array(ReportItem),
  /**
   * A WSDL interface: requests of changed operations whose envelope the user edited; Apply
   * keeps their envelope (and updates their action and headers).
   */
  keptEdits: T.Optional(T.Array(T.Composite([OperationKey, T.Object({ id: T.String(), name: T.String() })]))),
});
export type DefinitionUpdatePreview = Static<typeof DefinitionUpdatePreview>;

export const DefinitionUpdateCounts = T.Object({
  added: T.Integer({ minimum: 0 }),
  rewritten: T.Integer({ minimum: 0 }),
  orphaned: T.Integer({ minimum: 0 }),
  restored: T.Integer({ minimum: 0 }),
  /** A WSDL interface: requests of changed operations whose edited envelope was kept. */
  kept: T.Optional(T.Integer({ minimum: 0 })),
});
export type DefinitionUpdateCounts = Static<typeof DefinitionUpdateCounts>;

export const DefinitionUpdateResult = T.Object({
  api: Api,
  /** Every request of the API that was passed in, updated where the rules say so; none removed. */
  requests: T.Array(Request),
  added: T.Array(PlacedRequest),
  counts: DefinitionUpdateCounts,
  /** The new cached definition (replaces the old files). */
  documents: T.Array(CachedDocument),
});
export type DefinitionUpdateResult = Static<typeof DefinitionUpdateResult>;

/** A file of an API's cached definition as the project holds it (relative to definition/). */
export const CachedFile = T.Object({
  path: T.String({ minLength: 1 }),
  bytes: T.Uint8Array(),
  /** Its original address, when the project recorded it (see docs/importers.md). */
  source: T.Optional(T.String()),
});
export type CachedFile = Static<typeof CachedFile>;

/** Everything a definition update needs: the API as stored, its cache, and where to read now. */
export const DefinitionUpdateJob = T.Object({
  api: Api,
  /** Every request of the API. */
  requests: T.Array(Request),
  /** The cached definition, entry first; empty when the API kept none. */
  cached: T.Array(CachedFile),
  /** The recorded source (with the credentials from the keychain), or another one the user chose. */
  source: ImportSource,
  network: FetchNetwork,
  /** The importer's defaults when absent. */
  deadlines: T.Optional(ImportDeadlines),
});
export type DefinitionUpdateJob = Static<typeof DefinitionUpdateJob>;

export const DefinitionApplyJob = T.Composite([
  DefinitionUpdateJob,
  T.Object({
    /** The preview's fingerprint: Apply is refused (`definition-changed`) when a fresh read differs. */
    expectedFingerprint: T.String(),
    /** Record this source afterwards (rule 6); null clears it; absent keeps the recorded one. */
    recordSource: T.Optional(T.Union([DefinitionSource, T.Null()])),
  }),
]);
export type DefinitionApplyJob = Static<typeof DefinitionApplyJob>;
