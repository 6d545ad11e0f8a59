/**
 * The message catalog: every call and event between Parley's processes, in one place.
 * Each entry's schemas are the runtime check of what arrives and the source of its type.
 *
 * Naming: `<service>.<method>`. The service prefix says who answers:
 *   sys.*       any process (heartbeat, shutdown)
 *   sender.*    the sender child          checker.*  the checker child
 *   importer.*  an importer child         mockHost.* a mock-host child (one per running mock)
 *   app.*, workspace.*, session.*, project.*, request.*, api.*, import.*, mocks.*, cookies.*, history.*, curl.*,
 *   examples.*, query.*, httpLog.*, tree.*, run.*, captures.*  the supervisor, called by the UI or CLI
 *   jar.*, grpc.descriptor  the supervisor, called by the sender (a send's hops ask the workspace's cookie jar; a gRPC call its definition)
 * An event's prefix says who sends it: `mockHost.logged` comes from a mock-host child; `mock.logged`
 * and `mock.state` go from the supervisor to every UI about one of its mocks (the UI's `mocks.*` API).
 */
import { ExportDone, ExportFormatField, ExportTarget } from './export/scope.js';
import { Type as T, type Static, type TSchema } from '@sinclair/typebox';
import { Problem, Row } from './model/common.js';
import { OperationLink, Request } from './model/request.js';
import { AnyRequest } from './kinds/index.js';
import { OutgoingSocketMessage, SocketMessage } from './model/websocket.js';
import { GraphqlSchemaAnswer, GraphqlSchemaSource } from './model/graphql.js';
import { Api } from './model/api.js';
import { FolderSettings, InheritedSettings, ProjectTree, TreeDelta, TreePage, TreeRef } from './model/project.js';
import { Preferences, SecretStorage, Workspace } from './model/workspace.js';
import { SessionTabs } from './model/session.js';
import { SendChunk, SendProgress, SendResult, SendSpec } from './model/exchange.js';
import { QueryJob, QueryResult } from './model/query.js';
import { AssertJob, AssertionResult } from './model/assertion.js';
import { CaptureJob, CapturedValue, ProjectCaptures } from './model/capture.js';
import { HttpLogEntry, HttpLogRow } from './model/http-log.js';
import { Exchange, HistoryEntry, HistoryQuery, HistorySummary, ResendResult } from './model/history.js';
import { CurlImportReport } from './model/curl.js';
import { Example, ExampleSource } from './model/example.js';
import { Environment } from './model/workspace.js';
import { CheckJob, DefinitionRef, MockDocuments, Verdict } from './model/verdict.js';
import { Mock, MockFinding, MockLogEntry } from './model/mock.js';
import { ImportResultPart } from './model/import-parts.js';
import { DataPreview, RunFinishedEvent, RunProgressEvent, RunReportFormat, RunStartInput, RunState } from './model/run.js';
import { CookieInput, CookieKey, CookieOutcome, JarCookie, JarStatus } from './model/cookies.js';
import { Problem as LoadProblem } from './model/common.js';
import {
  DefinitionApplyJob,
  DefinitionUpdateCounts,
  DefinitionUpdateJob,
  DefinitionUpdatePreview,
  DefinitionUpdateResult,
  ImportJob,
  ImportJobSource,
  ImportProgress,
  ImportReport,
  ImportResult,
  ImportOptions,
  ImportSource,
} from './model/import.js';

/** A method of a gRPC API as the request editor's picker lists it (protocol/grpc/definition.ts). */
const GrpcMethodDescription = T.Object({
  service: T.String(),
  method: T.String(),
  requestType: T.String(),
  responseType: T.String(),
  requestStream: T.Boolean(),
  responseStream: T.Boolean(),
  kind: T.Union([T.Literal('unary'), T.Literal('server-stream'), T.Literal('client-stream'), T.Literal('bidi')]),
});

/** The Form view's schema for a request body, or why there is none. */
const BodySchemaAnswer = T.Object({
  available: T.Boolean(),
  /** Why there is no form: no linked operation, no JSON request body, no definition. */
  reason: T.Optional(T.String()),
  mediaType: T.Optional(T.String()),
  schema: T.Optional(T.Unknown()),
});

/** What auto-detect recognised: the importer id and the badge text. */
function Detection() {
  return T.Object({
    format: T.String(),
    label: T.String(),
    version: T.Optional(T.String()),
    settledBy: T.Union([T.Literal('file-name'), T.Literal('content')]),
  });
}

/** Where an import lands: an open project, or a new project folder. */
function ImportTarget() {
  return T.Union([
    T.Object({ kind: T.Literal('project'), project: T.String() }),
    T.Object({ kind: T.Literal('new'), path: T.String({ minLength: 1 }), name: T.Optional(T.String()) }),
  ]);
}

/** A definition update's source: the recorded one (absent), or another file or URL. */
function UpdateSource() {
  return T.Object({
    project: T.String(),
    api: T.String(),
    source: T.Optional(ImportSource),
    /** With a URL on the recorded source's origin: fetch with the stored credentials (rule 6). */
    useStoredCredentials: T.Optional(T.Boolean()),
  });
}

function MockHostConfig() {
  return T.Object({
    mock: Mock,
    documents: MockDocuments,
    /**
     * Names `documents` exactly (the API's id and definition fingerprint; a document's sha256 for
     * `parley mock serve <document>`): the host reads its contract again only when this changes,
     * never stringifying a definition of tens of MB to find out.
     */
    definitionKey: T.String({ maxLength: 1024 }),
    listenAllInterfaces: T.Boolean(),
    /** The port the mock had before its process restarted, kept when the mock's own port is 0. */
    keepPort: T.Optional(T.Integer()),
  });
}

function MockAddress() {
  return T.Object({ port: T.Integer(), url: T.String(), warnings: T.Array(T.String()) });
}

/** What the mock tab shows: the mock as saved, its load problems, findings and running state. */
function MockView() {
  return T.Object({
    id: T.String(),
    mock: T.Optional(Mock),
    problems: T.Array(LoadProblem),
    findings: T.Array(MockFinding),
    warnings: T.Array(T.String()),
    running: T.Optional(T.Object({ port: T.Integer(), url: T.String() })),
    /** Why the mock cannot start (no cached definition), when it cannot. */
    blocked: T.Optional(T.String()),
  });
}

export interface MethodSpec {
  req: TSchema;
  res: TSchema;
  /** Present when the reply is streamed: chunks of this shape, then the final `res`. */
  chunk?: TSchema;
}

const Empty = T.Object({});
const ProjectRef = T.Object({ project: T.String() });

export const methods = {
  'sys.ping': { req: T.Object({ t: T.Number() }), res: T.Object({ t: T.Number(), pid: T.Integer() }) },
  'sys.shutdown': { req: Empty, res: Empty },

  /**
   * An event stream's head, then batches of its rows, come as chunks; the answer carries the rows
   * kept (the finished stream's and History's). Cancelling the call drops the read and its answer:
   * Stop is `sender.stopStream`.
   */
  'sender.send': { req: SendSpec, res: SendResult, chunk: SendChunk },
  /**
   * Stop of an event stream the sender reads (its id came with the head): the read ends and its
   * `sender.send` answers with the stream ended as stopped and the rows it kept. False: no such read.
   */
  'sender.stopStream': { req: T.Object({ stream: T.String() }), res: T.Object({ stopped: T.Boolean() }) },
  /**
   * The supervisor has passed on the last batch of a stream the sender reads: the next may go
   * (batches wait for this, or 1 s, so rows the page is too slow to take never cross). False: no such read.
   */
  'sender.streamTaken': { req: T.Object({ stream: T.String() }), res: T.Object({ open: T.Boolean() }) },
  /** A message over an open WebSocket session (its id came with the head); its row comes with the session's batches once sent. */
  'sender.socketSend': { req: T.Object({ stream: T.String(), message: OutgoingSocketMessage }), res: T.Object({ sent: T.Boolean() }) },
  /** A ping frame over an open WebSocket session; its row, and the server's pong's, come with the session's batches. */
  'sender.socketPing': { req: T.Object({ stream: T.String() }), res: T.Object({ sent: T.Boolean() }) },
  /** Half-closes an open gRPC client or bidirectional stream (its id came with the head): no more messages go on it. */
  'sender.halfClose': { req: T.Object({ stream: T.String() }), res: T.Object({ halfClosed: T.Boolean() }) },
  /** A gRPC definition's descriptor text by its SHA-256 (the sender asks once per definition it has not parsed; docs/grpc.md). */
  'grpc.descriptor': { req: T.Object({ hash: T.String({ maxLength: 64 }) }), res: T.Object({ text: T.String() }) },
  /** The jar's Cookie header for one hop's URL ('' when no cookie matches); asked before each hop when Send cookies is on. */
  'jar.cookieHeader': { req: T.Object({ url: T.String() }), res: T.Object({ header: T.String() }) },
  /** One hop's Set-Cookie headers go into the jar as its headers arrive; one outcome per header, in order. */
  'jar.received': {
    req: T.Object({ url: T.String(), setCookies: T.Array(T.String(), { maxItems: 1000 }) }),
    res: T.Object({ outcomes: T.Array(CookieOutcome) }),
  },
  'checker.check': { req: CheckJob, res: Verdict },
  /** A Query tab query on the checker's query thread, on its budget. */
  'checker.query': { req: QueryJob, res: QueryResult },
  /**
   * The body schema of an operation, `$ref`s inlined (up to 20,000 nodes): worked out here, off
   * the supervisor's loop. `definition` may carry only its fingerprint; `no-definition` asks for
   * the documents.
   */
  'checker.bodySchema': { req: T.Object({ definition: DefinitionRef, operation: OperationLink }), res: BodySchemaAnswer },
  /** A request's assertions against its response, on the query thread and its budget (JSONPath, patterns). */
  'checker.assert': { req: AssertJob, res: T.Object({ results: T.Array(AssertionResult) }) },
  /** A GraphQL schema built from an introspection answer or an SDL file, as SDL, on a thread of its own and its budget (docs/graphql.md). */
  'checker.graphqlSchema': { req: GraphqlSchemaSource, res: T.Object({ sdl: T.String(), types: T.Integer({ minimum: 0 }) }) },
  /** A request's body captures (JSONPath, XPath) against its response, on the query thread and its budget: one value or error each. */
  'checker.capture': { req: CaptureJob, res: T.Object({ values: T.Array(CapturedValue) }) },

  /** One import job in a fresh importer child; progress streams as chunks; cancel kills the child. */
  /** Progress, and the result's long lists in parts ahead of the answer (protocol/model/import-parts.ts). */
  'importer.run': { req: ImportJob, res: T.Object({ detection: T.Union([Detection(), T.Null()]), result: ImportResult }), chunk: T.Union([ImportProgress, ImportResultPart]) },
  'importer.preview': { req: DefinitionUpdateJob, res: DefinitionUpdatePreview, chunk: ImportProgress },
  'importer.apply': { req: DefinitionApplyJob, res: DefinitionUpdateResult, chunk: ImportProgress },
  /** Reads a curl command as a request (with this id and name) and the report of what was kept. */
  'importer.readCurl': { req: T.Object({ command: T.String(), id: T.String(), name: T.Optional(T.String()) }), res: T.Object({ request: Request, report: CurlImportReport }) },

  /**
   * New Mock (SPEC: each operation's Default response) in a fresh importer child, on its job
   * thread: the sampling and the files it makes, so a huge definition holds neither the
   * supervisor's loop nor the child's heartbeat; the supervisor only commits `files` (paths
   * relative to mocks/<name>/). `soapBinding`: the WSDL binding a SOAP interface is.
   */
  'importer.newMock': {
    req: T.Object({ documents: MockDocuments, name: T.String(), api: T.String(), soapBinding: T.Optional(T.String()) }),
    res: T.Object({ files: T.Array(T.Object({ path: T.String(), content: T.Union([T.String(), T.Uint8Array()]) })) }),
  },

  /** Starts serving `mock` (the mock-host child) from its API's cached definition: `documents` (a REST mock's OpenAPI definition, a SOAP mock's WSDL texts). */
  'mockHost.start': { req: MockHostConfig(), res: MockAddress() },
  /** Applies an edit at once, on the same port. */
  'mockHost.reconfigure': { req: MockHostConfig(), res: MockAddress() },
  /** Every scenario back to Started, every In order turn back to the first response. */
  'mockHost.reset': { req: Empty, res: Empty },
  /** Stubs against the contract (SPEC Mock HTTP surface rule 9), computed by the checker child. */
  'checker.mockFindings': {
    /** `definitionKey`: as in `mockHost.start`, what the checker's contract cache is keyed on. */
    req: T.Object({ mock: Mock, documents: MockDocuments, definitionKey: T.String({ maxLength: 1024 }) }),
    res: T.Object({ findings: T.Array(MockFinding), warnings: T.Array(T.String()) }),
  },

  'app.info': {
    req: Empty,
    res: T.Object({
      version: T.String(),
      workspaceDir: T.String(),
      projects: T.Array(T.String()),
      /** Folders whose project is still loading (opened from the command line): `project.open` joins that load. */
      opening: T.Array(T.String()),
      electron: T.Boolean(),
    }),
  },
  'app.ping': { req: T.Object({ t: T.Number() }), res: T.Object({ t: T.Number() }) },

  'workspace.get': { req: Empty, res: Workspace },
  'workspace.setPreferences': { req: T.Partial(Preferences), res: Preferences },

  /**
   * The tabs of the last session, for a page that just loaded, and what went wrong reopening it
   * (a project folder that is gone), each said once. The session's projects are already open or
   * opening (`app.info`).
   */
  'session.get': { req: Empty, res: T.Composite([SessionTabs, T.Object({ projects: T.Array(T.String()), notices: T.Array(T.String()) })]) },
  /** The page's tabs and their drafts, kept for the next start or load (secrets left out again here). */
  'session.save': { req: SessionTabs, res: Empty },

  /**
   * A big project's tree comes in pages: chunks of items, then the reply with the rest of them
   * (`withPages` puts it together), so neither side holds its event loop long over one message.
   */
  'project.open': { req: T.Object({ path: T.String() }), res: ProjectTree, chunk: TreePage },
  'project.close': { req: ProjectRef, res: Empty },
  'project.tree': { req: ProjectRef, res: ProjectTree },
  'project.setProperties': { req: T.Object({ project: T.String(), properties: T.Array(Row) }), res: ProjectTree },
  /** Makes a file the user picked a body file of the project: copied into files/ unless it is inside already (docs/project-files.md). */
  'project.addFile': {
    req: T.Object({ project: T.String(), path: T.String() }),
    res: T.Object({ path: T.String(), copied: T.Boolean(), size: T.Integer({ minimum: 0 }) }),
  },
  /** The size of a file a request names, by its path in the project (refused outside it, `not-found` when it is not there). */
  'project.fileSize': { req: T.Object({ project: T.String(), file: T.String() }), res: T.Object({ size: T.Integer({ minimum: 0 }) }) },

  /** Forgets a project in this workspace: closed, and out of the recent projects (its folder is left as it is). */
  'workspace.forgetProject': { req: ProjectRef, res: Workspace },

  /**
   * Tree management (docs/project-files.md "Tree edits"), each one commit of the project. `parent`
   * is an API or folder id (`@project` for APIs); `before` the sibling the items go before, null:
   * at the end. A folder's id is its path, so a rename or move answers each item's new id.
   */
  'tree.newFolder': { req: T.Object({ project: T.String(), parent: T.String(), name: T.String({ maxLength: 255 }) }), res: T.Object({ id: T.String() }) },
  'tree.rename': {
    req: T.Object({ project: T.String(), item: T.Union([TreeRef, T.Object({ kind: T.Literal('project'), id: T.String() })]), name: T.String({ maxLength: 255 }) }),
    res: T.Object({ id: T.String() }),
  },
  /** Deletes the items (a folder or API with all it holds, a request with its examples); `undo` (for 30 s) puts every file back. */
  'tree.delete': {
    req: T.Object({ project: T.String(), items: T.Array(TreeRef, { minItems: 1, maxItems: 10_000 }) }),
    res: T.Object({ undo: T.Union([T.String(), T.Null()]), files: T.Integer({ minimum: 0 }), undoMs: T.Integer({ minimum: 0 }) }),
  },
  'tree.undoDelete': { req: T.Object({ project: T.String(), undo: T.String() }), res: Empty },
  'tree.duplicate': { req: T.Object({ project: T.String(), item: TreeRef }), res: T.Object({ id: T.String() }) },
  'tree.move': {
    req: T.Object({ project: T.String(), items: T.Array(TreeRef, { minItems: 1, maxItems: 10_000 }), parent: T.String(), before: T.Union([T.String(), T.Null()]) }),
    res: T.Object({ moved: T.Array(T.Object({ from: T.String(), to: T.String() })) }),
  },

  /**
   * A folder's settings (docs/project-files.md "Folder settings"): auth, headers and variables
   * that the requests in it inherit. Save moves a typed secret of its auth to the keychain, as
   * `api.save` does, and writes folder.yaml.
   */
  'folder.get': { req: T.Object({ project: T.String(), id: T.String() }), res: T.Object({ id: T.String(), name: T.String(), settings: FolderSettings }) },
  'folder.save': {
    /** `leaveOutSecrets`: with no secret store, save the auth's typed secrets as empty fields instead of refusing (as `request.save`). */
    req: T.Object({ project: T.String(), id: T.String(), settings: FolderSettings, leaveOutSecrets: T.Optional(T.Boolean()) }),
    res: T.Object({ id: T.String(), name: T.String(), settings: FolderSettings }),
  },
  /** What a request or a folder takes from the folders above it and its API, each value with where it is set. */
  'tree.inherited': {
    req: T.Object({ project: T.String(), item: T.Object({ kind: T.Union([T.Literal('request'), T.Literal('folder')]), id: T.String({ minLength: 1 }) }) }),
    res: InheritedSettings,
  },

  'api.get': { req: T.Object({ project: T.String(), id: T.String() }), res: Api },
  'api.create': { req: T.Object({ project: T.String(), name: T.String(), baseUrl: T.String() }), res: Api },
  /** `leaveOutSecrets`: when no secret can be stored (no keychain, no vault or it is locked), a typed secret is saved empty instead of refusing the save. */
  'api.save': { req: T.Object({ project: T.String(), api: Api, leaveOutSecrets: T.Optional(T.Boolean()) }), res: Api },

  /** A request of any kind (protocol/kinds/). */
  'request.get': { req: T.Object({ project: T.String(), id: T.String() }), res: AnyRequest },
  /** A new HTTP request (the sidebar's New request). */
  'request.create': {
    req: T.Object({
      project: T.String(),
      parent: T.String(),
      name: T.String(),
      method: T.String(),
      url: T.String(),
    }),
    res: Request,
  },
  /** A new request of a kind (protocol/kinds/), blank but for its name and URL. */
  'request.createOfKind': {
    req: T.Object({ project: T.String(), parent: T.String(), kind: T.String(), name: T.String(), url: T.String() }),
    res: AnyRequest,
  },
  /** `leaveOutSecrets` as for `api.save`. */
  'request.save': { req: T.Object({ project: T.String(), request: AnyRequest, leaveOutSecrets: T.Optional(T.Boolean()) }), res: AnyRequest },
  'request.delete': { req: T.Object({ project: T.String(), id: T.String() }), res: Empty },
  /**
   * Sends the request as edited (saved or not); cancelling the call stops the send. An event
   * stream streams its head and rows before the answer, which comes when it ends or is stopped.
   */
  'request.send': { req: T.Object({ project: T.String(), request: AnyRequest }), res: Exchange, chunk: SendProgress },
  /**
   * A message over an open WebSocket session (its id came with its head), expanded with the scope
   * of its connect; its row comes with the session's rows once sent (docs/websocket.md).
   */
  'request.socketSend': { req: T.Object({ stream: T.String(), message: SocketMessage }), res: T.Object({ sent: T.Boolean() }) },
  /** Ping: a ping frame over an open WebSocket session; the pong shows as a row, as a server's pings do. */
  'request.socketPing': { req: T.Object({ stream: T.String() }), res: T.Object({ sent: T.Boolean() }) },
  /** Half-closes an open gRPC client or bidirectional stream (its id came with its head): the server then knows no more messages come (docs/grpc.md). */
  'request.halfClose': { req: T.Object({ stream: T.String() }), res: T.Object({ halfClosed: T.Boolean() }) },
  /** Stop of an open event stream (its id came with its head): it ends as stopped and its send answers. */
  'request.stopStream': { req: T.Object({ stream: T.String() }), res: T.Object({ stopped: T.Boolean() }) },
  /**
   * The page has drawn an open stream's rows up to `n`: once a page says so, each batch waits for
   * it to read the one before (a page behind gets the newest rows, not a queue). `open` false: it ended.
   */
  'request.streamRead': { req: T.Object({ stream: T.String(), n: T.Integer({ minimum: 0 }) }), res: T.Object({ open: T.Boolean() }) },
  /**
   * A gRPC API's methods with their call kinds and its target; with a method, its input type as a
   * JSON Schema (protocol/grpc/message-check.ts) and an example message (docs/grpc.md).
   */
  'grpc.describe': {
    req: T.Object({ project: T.String(), api: T.String(), service: T.Optional(T.String()), method: T.Optional(T.String()) }),
    res: T.Object({
      methods: T.Array(GrpcMethodDescription),
      target: T.String(),
      input: T.Optional(T.Object({ schema: T.Unknown(), example: T.String() })),
    }),
  },
  /**
   * A GraphQL request's schema as SDL: its `.graphql` file when it names one; else the workspace's
   * cached introspection (`source: none` when there is none), or with `refresh` a new introspection
   * through the request (its URL, headers, auth), cached (docs/graphql.md).
   */
  'graphql.schema': { req: T.Object({ project: T.String(), request: Request, refresh: T.Boolean() }), res: GraphqlSchemaAnswer },
  /** XPath 3.1 or JSONPath over a JSON body or a stream's kept events, run by the checker on a budget. */
  'query.run': { req: QueryJob, res: QueryResult },

  /** The HTTP Log: every exchange of this session, newest first. */
  'httpLog.list': { req: Empty, res: T.Object({ rows: T.Array(HttpLogRow), dropped: T.Integer({ minimum: 0 }) }) },
  'httpLog.get': { req: T.Object({ id: T.String() }), res: HttpLogEntry },
  /** The chosen rows as a HAR 1.2 document, in chunks of text (a stream's rows can make it long). */
  'httpLog.har': { req: T.Object({ ids: T.Array(T.String(), { minItems: 1, maxItems: 10_000 }) }), res: T.Object({ entries: T.Integer() }), chunk: T.Object({ text: T.String() }) },
  /** Sends a logged exchange again as it went out; a streamed row is refused (`stream-resend-refused`). */
  'httpLog.resend': { req: T.Object({ id: T.String() }), res: Exchange },
  /** A logged exchange as a curl command (masks kept; `-N` for a stream). */
  'httpLog.curl': { req: T.Object({ id: T.String() }), res: T.Object({ command: T.String() }) },
  'httpLog.clear': { req: Empty, res: Empty },

  /** The request (as edited) as the curl command that sends it now; secrets masked unless `showSecrets`. */
  'request.curl': { req: T.Object({ project: T.String(), request: Request, showSecrets: T.Boolean() }), res: T.Object({ command: T.String() }) },
  /**
   * Exports an API or a folder as a file other tools read (docs/export.md): `path` absolute or
   * relative to the home folder; an existing file is never replaced.
   */
  'project.export': { req: T.Object({ project: T.String(), target: ExportTarget, format: ExportFormatField, path: T.String({ minLength: 1 }) }), res: ExportDone },
  /** A request's recorded examples (at most 5, one per status), with any example file that could not be read. */
  'examples.list': { req: T.Object({ project: T.String(), requestId: T.String() }), res: T.Object({ examples: T.Array(Example), problems: T.Array(T.String()) }) },
  /**
   * Keeps a response as an example: redacted as History recorded `exchange` (the Exchange's id: its
   * secret and carried credential values, then credentials by name), body cut at 256 KB; the same
   * status replaces, a sixth is refused (`examples-full`); an exchange no longer known, `not-found`.
   */
  'examples.save': {
    req: T.Object({ project: T.String(), requestId: T.String(), exchange: T.String(), response: ExampleSource }),
    res: T.Object({ example: Example, replaced: T.Boolean(), examples: T.Array(Example) }),
  },
  'examples.delete': { req: T.Object({ project: T.String(), requestId: T.String(), status: T.Integer() }), res: T.Object({ examples: T.Array(Example) }) },
  /**
   * The Import cURL dialog's live preview of a pasted command: nothing is written. Given the
   * project, the report lists the files outside it that the command sends (`localFiles`).
   */
  'curl.preview': { req: T.Object({ command: T.String(), project: T.Optional(T.String()) }), res: CurlImportReport },
  /**
   * Imports a curl command as a new request under `parent` (an API or folder id of the tree). Files
   * outside the project that it sends are copied in only when listed in `copyLocalFiles` (their
   * real paths, as the preview gave them); the others are left out of the request, and the report says so.
   */
  'curl.import': {
    req: T.Object({
      project: T.String(),
      parent: T.String(),
      command: T.String(),
      name: T.Optional(T.String()),
      copyLocalFiles: T.Optional(T.Array(T.String())),
      /** Without a secret store, import with the password or token left out (the report says so) instead of refusing. */
      leaveOutSecrets: T.Optional(T.Boolean()),
    }),
    res: T.Object({ request: Request, report: CurlImportReport }),
  },

  /** The JSON schema of the request body its linked operation declares, `$ref`s resolved, for the Form view. */
  'request.bodySchema': { req: T.Object({ project: T.String(), request: Request }), res: BodySchemaAnswer },

  /** Auto-detect for the dialog's badge, on a file or pasted text (a URL is recognised when read). */
  'import.detect': {
    req: T.Object({ source: ImportSource }),
    res: T.Object({
      detection: T.Union([Detection(), T.Null()]),
      /** A picked .http file: how many environments the HTTP client environment files beside it hold (the dialog's "Also import N environments"). */
      environmentsBeside: T.Optional(T.Integer({ minimum: 0 })),
    }),
  },
  /** Runs an import in an importer child and writes what it made, atomically; cancel stops it. */
  'import.run': {
    /** `into` is needed only when the source brings something for a project (not for environments and globals). */
    req: T.Object({
      source: ImportJobSource,
      format: T.String({ minLength: 1 }),
      options: ImportOptions,
      into: T.Optional(ImportTarget()),
      /** Without a secret store, import with secret values left out (the report says so) instead of refusing. */
      leaveOutSecrets: T.Optional(T.Boolean()),
    }),
    res: T.Object({
      /** The project written to; absent when the import brought only workspace things. */
      project: T.Optional(T.String()),
      detection: T.Union([Detection(), T.Null()]),
      apis: T.Array(T.Object({ id: T.String(), name: T.String(), baseUrl: T.String(), requests: T.Integer(), folders: T.Integer() })),
      /** The project's Webhooks collection (an API), when webhooks or callbacks were imported. */
      webhooks: T.Optional(T.Object({ api: T.String(), folder: T.String(), requests: T.Integer() })),
      /** Project properties added (names the project had keep their values and are not counted). */
      properties: T.Optional(T.Integer({ minimum: 0 })),
      /** What landed in the workspace: environments (with the name each got) and globals. */
      workspace: T.Optional(
        T.Object({
          environments: T.Array(T.Object({ id: T.String(), name: T.String(), variables: T.Integer({ minimum: 0 }), secrets: T.Integer({ minimum: 0 }) })),
          globals: T.Optional(T.Object({ added: T.Integer({ minimum: 0 }), kept: T.Integer({ minimum: 0 }), secrets: T.Integer({ minimum: 0 }) })),
        }),
      ),
      report: ImportReport,
    }),
    chunk: ImportProgress,
  },
  /** Reads the definition again and says what would change; nothing is written. */
  'api.definitionPreview': {
    req: UpdateSource(),
    res: T.Object({ preview: DefinitionUpdatePreview, source: T.String() }),
    chunk: ImportProgress,
  },
  /** Applies an update if every document still reads as in the preview (`definition-changed` otherwise). */
  'api.definitionApply': {
    req: T.Composite([UpdateSource(), T.Object({ fingerprint: T.String() })]),
    res: T.Object({ counts: DefinitionUpdateCounts }),
    chunk: ImportProgress,
  },

  'mocks.create': { req: T.Object({ project: T.String(), api: T.String(), name: T.String() }), res: MockView() },
  'mocks.get': { req: T.Object({ project: T.String(), id: T.String() }), res: MockView() },
  'mocks.save': { req: T.Object({ project: T.String(), mock: Mock }), res: MockView() },
  'mocks.start': { req: T.Object({ project: T.String(), id: T.String() }), res: MockView() },
  'mocks.stop': { req: T.Object({ project: T.String(), id: T.String() }), res: MockView() },
  'mocks.reset': { req: T.Object({ project: T.String(), id: T.String() }), res: Empty },
  /**
   * A page of a mock's log (protocol/mock-log-bounds.ts): the newest entries older than the entry
   * `before` names (the newest of all without it), oldest first, within LOG_PAGE_ENTRIES and
   * LOG_PAGE_BYTES; `more` when older entries are kept. No answer grows with the log.
   */
  'mocks.log': {
    req: T.Object({ project: T.String(), id: T.String(), before: T.Optional(T.String()) }),
    res: T.Object({ entries: T.Array(MockLogEntry), more: T.Boolean() }),
  },
  /** Type-checks a dispatch script against the operation's response names. */
  'mocks.diagnose': {
    req: T.Object({ source: T.String(), responseNames: T.Array(T.String()) }),
    res: T.Array(
      T.Object({
        line: T.Integer(),
        column: T.Integer(),
        endLine: T.Integer(),
        endColumn: T.Integer(),
        message: T.String(),
        code: T.Integer(),
        severity: T.Union([T.Literal('error'), T.Literal('warning')]),
      }),
    ),
  },

  /** The project's History (or one request's), newest first, searched by URL, method, status and chip. */
  'history.list': { req: T.Composite([T.Object({ project: T.String() }), HistoryQuery]), res: T.Array(HistorySummary) },
  'history.get': { req: T.Object({ project: T.String(), id: T.String() }), res: HistoryEntry },
  /** Re-sends an entry through its request (the open draft when given) with its current auth and settings; an event stream streams as `request.send` does. */
  'history.resend': { req: T.Object({ project: T.String(), id: T.String(), request: T.Optional(Request) }), res: ResendResult, chunk: SendProgress },
  /** A History entry as a curl command: masks kept; with show-secrets, `${secret:...}` references filled from the keychain. */
  'history.curl': { req: T.Object({ project: T.String(), id: T.String(), showSecrets: T.Boolean() }), res: T.Object({ command: T.String() }) },
  /** Forgets the project's History, or one request's. */
  'history.clear': { req: T.Object({ project: T.String(), requestId: T.Optional(T.String()) }), res: Empty },

  'environments.save': {
    req: T.Object({ environments: T.Array(Environment), globals: T.Array(Row), activeEnvironment: T.Optional(T.String()) }),
    res: Workspace,
  },
  'environments.setActive': { req: T.Object({ id: T.Optional(T.String()) }), res: Workspace },

  /** Stores a secret in the workspace's secret store (keychain or vault); files then refer to it as `${secret:name}`. */
  'secret.set': { req: T.Object({ name: T.String(), value: T.String() }), res: T.Object({ ref: T.String() }) },
  'secret.delete': { req: T.Object({ name: T.String() }), res: Empty },
  /** Where secrets go, and the names this workspace stored. */
  /** Each open project's variables captured this session (docs/captures.md): names and shown values, credentials masked. */
  'captures.list': { req: Empty, res: T.Object({ projects: T.Array(ProjectCaptures) }) },
  /** Forgets a project's captured values: the ones `names`, or all of them (the page's Session values, Clear / Clear all). */
  'captures.clear': { req: T.Object({ project: T.String(), names: T.Optional(T.Array(T.String({ maxLength: 1000 }), { maxItems: 10_000 })) }), res: Empty },
  'secret.status': { req: Empty, res: T.Composite([SecretStorage, T.Object({ names: T.Array(T.String()) })]) },
  /** Which of `names` the store holds (`unknown` while the vault is locked), for the badges of `${secret:...}` references. */
  'secret.has': {
    req: T.Object({ names: T.Array(T.String({ maxLength: 200 }), { maxItems: 200 }) }),
    res: T.Object({ found: T.Array(T.String()), missing: T.Array(T.String()), unknown: T.Array(T.String()) }),
  },
  /** Makes the workspace's vault (no keychain here): a file in the data folder sealed under a key from the passphrase, unlocked at once. */
  'secret.createVault': { req: T.Object({ passphrase: T.String({ maxLength: 1024 }) }), res: SecretStorage },
  /** Unlocks the vault for this session; a wrong passphrase is `vault-passphrase` and changes nothing. */
  'secret.unlock': { req: T.Object({ passphrase: T.String({ maxLength: 1024 }) }), res: SecretStorage },
  /** Forgets the vault's key until it is unlocked again. */
  'secret.lock': { req: Empty, res: SecretStorage },

  /** The workspace's cookie jar; values only with `values: true` (Show values, Edit). */
  'cookies.list': {
    req: T.Object({ values: T.Optional(T.Boolean()) }),
    res: T.Object({ cookies: T.Array(JarCookie), status: JarStatus }),
  },
  /** Adds a cookie, or replaces `previous` with it (an edit); the caps may drop others. */
  'cookies.save': { req: T.Object({ cookie: CookieInput, previous: T.Optional(CookieKey) }), res: T.Object({ cookie: JarCookie, evicted: T.Array(CookieKey) }) },
  'cookies.delete': { req: CookieKey, res: T.Object({ deleted: T.Boolean() }) },
  'cookies.deleteDomain': { req: T.Object({ domain: T.String() }), res: T.Object({ deleted: T.Integer() }) },
  'cookies.clear': { req: Empty, res: T.Object({ deleted: T.Integer() }) },

  /**
   * The runner (docs/run.md "The runner in the app"): starts a run of the chosen requests on
   * `parley run`'s engine and answers at once; its rows come as `run.progress` events and its end
   * as `run.finished`. Refused while four runs are going (`run-busy`, RUNNING_RUNS in run-service.ts).
   */
  'run.start': { req: RunStartInput, res: RunState },
  /** Stops a run: the request on the wire is cut short and not counted; `stopped` false when it had ended. */
  'run.stop': { req: T.Object({ run: T.String() }), res: T.Object({ stopped: T.Boolean() }) },
  /** The newest run of a runner (its project and scope), running or ended, while the supervisor keeps it. */
  'run.latest': { req: T.Object({ project: T.String(), scope: T.String() }), res: T.Object({ state: T.Union([RunState, T.Null()]) }) },
  /**
   * Writes an ended run's JSON or JUnit report, as `parley run --reporter` writes it, to `path`
   * (absolute, or relative to the home folder); an existing file is refused (`file-exists`).
   */
  'run.export': { req: T.Object({ run: T.String(), format: RunReportFormat, path: T.String({ minLength: 1 }) }), res: T.Object({ path: T.String(), bytes: T.Integer({ minimum: 0 }) }) },
  /** The first rows of a CSV or JSON data file, read as a run would read them. */
  'run.dataPreview': { req: T.Object({ path: T.String({ minLength: 1 }) }), res: DataPreview },

  /** Lists a local folder for the file chooser (the UI itself never touches files). */
  'fs.list': {
    req: T.Object({ path: T.Optional(T.String()) }),
    res: T.Object({
      path: T.String(),
      parent: T.Optional(T.String()),
      entries: T.Array(T.Object({ name: T.String(), dir: T.Boolean(), size: T.Integer() })),
    }),
  },
} satisfies Record<string, MethodSpec>;

export const events = {
  /**
   * A project changed on disk or through a save: what changed in its tree (a numbered delta, not
   * the whole tree, which was 260 KB a save for 5,000 requests), and the ids whose files changed.
   */
  'project.changed': T.Object({ delta: TreeDelta, changed: T.Array(T.String()) }),
  /** A child process changed state (started, restarting, stopped), for the status bar. */
  'child.status': T.Object({
    name: T.String(),
    state: T.Union([T.Literal('running'), T.Literal('restarting'), T.Literal('stopped')]),
    pid: T.Optional(T.Integer()),
    message: T.Optional(T.String()),
  }),
  /** Something the user should see as a toast. */
  notice: T.Object({
    level: T.Union([T.Literal('info'), T.Literal('warning'), T.Literal('error')]),
    message: T.String(),
  }),
  'workspace.changed': Workspace,
  /** A project's captured variables changed (a send's or a run's captures set them): at most every 100 ms a project. */
  'captures.changed': ProjectCaptures,
  /** The vault was created, unlocked or locked: where secrets go now. */
  'secret.storage': SecretStorage,
  /** The supervisor opened (or could not open) a page in the user's browser, e.g. an OAuth sign-in. */
  'browser.open': T.Object({ url: T.String(), reason: T.String(), opened: T.Boolean() }),
  /** A mock-host child's log entries, batched (child -> supervisor); `project` is empty, the child serves one mock. */
  'mockHost.logged': T.Object({ project: T.String(), mock: T.String(), entries: T.Array(MockLogEntry) }),
  /** A mock's newest log entries, per project and mock (supervisor -> UI). */
  'mock.logged': T.Object({ project: T.String(), mock: T.String(), entries: T.Array(MockLogEntry) }),
  /** A mock started, stopped (also when its process died) or changed address (supervisor -> UI). */
  'mock.state': T.Object({ project: T.String(), mock: T.String(), view: MockView() }),
  'load.problems': T.Object({ project: T.String(), problems: T.Array(Problem) }),
  /** The cookie jar changed (a response's cookies, an edit): the jar tab reads it again. */
  'cookies.changed': T.Object({ count: T.Integer() }),
  /** A row of the HTTP Log appeared or changed (a stream's head, its end); `cleared` after Clear. */
  'httpLog.changed': T.Object({ row: T.Optional(HttpLogRow), cleared: T.Optional(T.Boolean()) }),
  /** A run's newest rows and totals (supervisor -> UI). */
  'run.progress': RunProgressEvent,
  /** A run ended (its last rows went in a `run.progress` before): its summary, and what failed. */
  'run.finished': RunFinishedEvent,
} satisfies Record<string, TSchema>;

/**
 * Every schema a peer checks on receipt of a reply, stream item or event, by a stable name
 * (`<method>/res`, `<method>/chunk`, `event <name>`): what ahead-of-time checks are keyed by.
 */
export function receivedSchemas(): [string, TSchema][] {
  const out: [string, TSchema][] = [];
  for (const [name, spec] of Object.entries(methods) as [string, MethodSpec][]) {
    out.push([`${name}/res`, spec.res]);
    if (spec.chunk) out.push([`${name}/chunk`, spec.chunk]);
  }
  for (const [name, schema] of Object.entries(events) as [string, TSchema][]) out.push([`event ${name}`, schema]);
  return out;
}

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type EventName = keyof typeof events;

export type ReqOf<M extends MethodName> = Static<Methods[M]['req']>;
export type ResOf<M extends MethodName> = Static<Methods[M]['res']>;
export type ChunkOf<M extends MethodName> = Methods[M] extends { chunk: infer C extends TSchema } ? Static<C> : never;
export type EventOf<E extends EventName> = Static<(typeof events)[E]>;

/** Method names served by a service prefix, e.g. ServiceMethods<'sender'> = 'sender.send'. */
export type ServiceMethods<S extends string> = Extract<MethodName, `${S}.${string}`>;

/** The calls as a discriminated union on `type`, for code that switches over them. */
export type Call = { [M in MethodName]: { type: M; payload: ReqOf<M> } }[MethodName];
export type Event = { [E in EventName]: { type: E; payload: EventOf<E> } }[EventName];
