/**
 * A send from start to finish, in the supervisor: expand and resolve the request, hand it to
 * the sender process, check the response against the contract, record it in History.
 * Secrets are fetched from the secret store (keychain or vault) only here, and masked in everything recorded.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ParleyError } from '../../../protocol/errors.js';
import type { Exchange } from '../../../protocol/model/history.js';
import type { Api } from '../../../protocol/model/api.js';
import type { Auth } from '../../../protocol/model/auth.js';
import type { Row } from '../../../protocol/model/common.js';
import type { Request } from '../../../protocol/model/request.js';
import type { HopTiming, ResponseHead, SendChunk, SendProgress, SendResult, SendSpec, Timing } from '../../../protocol/model/exchange.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { Supervisor } from '../supervisor.js';
import type { ProjectStore } from '../store/project-store.js';
import type { LogHandle } from '../http-log/http-log.js';
import { capturersOf } from './capturers.js';
import { Expander, redactSecrets, secretNamesIn } from './expand.js';
import { carriedValues } from '../../../protocol/credentials/index.js';
import { resolveRequest, type ResolveContext } from './resolve.js';
import { isHttp, type AnyRequest } from '../../../protocol/kinds/index.js';
import type { OutgoingSocketMessage, SocketMessage } from '../../../protocol/model/websocket.js';
import type { InheritedSettings } from '../../../protocol/model/project.js';
import { literalSecrets } from '../../../protocol/credentials/auth-secrets.js';
import { NO_STORAGE_CODES } from '../../../protocol/model/workspace.js';
import { VAULT_PASSPHRASE_ENV } from '../store/vault-secrets.js';
import { effectiveAuth, inheritedSettings } from '../../../protocol/inheritance.js';
import { historyEntry, recordHops, recordResponse, recordSent, recordStream } from './record.js';
import type { StreamSession } from './stream-session.js';
import { checkAssertions, prepareAssertions, type PreparedAssertions } from './assertions.js';
import { prepareCaptures, runCaptures, type CaptureRun, type CaptureSink, type PreparedCaptures } from './captures.js';
import type { CaptureResult } from '../../../protocol/model/capture.js';

const INLINE_LIMIT = 10 * 1024 * 1024;
/** How long Stop waits for the sender's answer (its kept rows) before the rows that arrived stand. */
export const STOP_ANSWER_MS = 2_000;

export interface SendDeps {
  /** OAuth 2 tokens, cached per request or API. */
  oauthToken: (auth: Parameters<Parameters<typeof resolveRequest>[2]['oauthToken']>[0], cacheKey: string) => Promise<string>;
  /** The contract verdict of a response, or undefined when no chip applies. */
  verdict: (projectRoot: string, request: Request, result: SendResult, signal?: AbortSignal) => Promise<Verdict | undefined>;
}

/** A request resolved for the wire, with the secret values it used (to mask them in what is recorded). */
export interface PreparedSend {
  store: ProjectStore;
  api: Api;
  request: Request;
  /** The auth the request sent: its own, or what it inherits from a folder or the API. */
  auth: Auth;
  spec: SendSpec;
  /** Secret values by name (names in the store, and `unsaved-<field>` for secrets typed into a draft). */
  secrets: Map<string, string>;
  /** The request's enabled assertions, expanded; none: undefined. */
  assertions?: PreparedAssertions;
  /** The request's enabled captures, expanded, and where their values go; none: undefined. */
  captures?: PreparedCaptures;
  /** Values captured as credentials that this send may carry: masked by value in all it records. */
  capturedCredentials?: string[];
  /** False: the send is not written to History. */
  history?: boolean;
  /** False: the send is not kept in the HTTP Log either (`parley run`: no one reads it there). */
  log?: boolean;
  /** A WebSocket session's: a message as the sender puts it on the socket (expanded with this send's scope). */
  socketMessage?: (message: SocketMessage) => Promise<OutgoingSocketMessage>;
  /** A gRPC client or bidirectional stream's: it can be half-closed while it runs. */
  halfClosable?: boolean;
}

/** What putting a send on the wire needs of its preparation (any kind's). */
export type WireSend = Pick<PreparedSend, 'store' | 'secrets' | 'assertions' | 'captures' | 'capturedCredentials' | 'history' | 'log' | 'socketMessage' | 'halfClosable'> & { request: AnyRequest };

/** Where `${name}` resolves for a send, and what `parley run` lays over it. */
export interface ScopeOverrides {
  /** The environment to use instead of the workspace's active one (`parley run --env`); null: none. */
  environment?: Row[] | null;
  /** Properties that win over the project's (a data row's columns). */
  properties?: Row[];
  /** Secret values known before the secret store is asked (`PARLEY_SECRET_<NAME>`): a missing one is then named by its variable. */
  secret?: (name: string) => string | undefined;
  /** Skip TLS certificate checks (`parley run --insecure`). */
  insecure?: boolean;
  /** Timeout until the headers, instead of the request's own (`parley run --timeout`). */
  timeoutMs?: number;
  /** Keep the send out of History (`parley run`: a CI run is not the user's own sending). */
  noHistory?: boolean;
  /** Keep the send out of the HTTP Log (`parley run`: a headless supervisor's log is never read). */
  noLog?: boolean;
  /** Where captured values are read and set (a run's own); default: the app's session values of the project. */
  captures?: CaptureSink;
}

export async function sendRequest(
  sup: Supervisor,
  deps: SendDeps,
  projectRoot: string,
  request: Request,
  signal?: AbortSignal,
  onProgress?: (progress: SendProgress) => void,
  backlog?: () => number,
): Promise<Exchange> {
  const prepared = await prepareSend(sup, deps, projectRoot, request);
  return dispatchSend(sup, deps, prepared, prepared.spec, signal, onProgress, backlog);
}

/** Where a send's `${...}` resolve, with the secrets it names fetched: every kind's send starts here. */
export interface SendScope {
  store: ProjectStore;
  api: Api;
  /** What the request's folders and API hand down (protocol/inheritance.ts). */
  inherited: InheritedSettings;
  /** The auth the send uses: its own, or the one it inherits. */
  auth: Auth;
  scopeRows: { captured: Row[]; environment: Row[]; project: Row[]; globals: Row[] };
  /** Where captured values are read and set (docs/captures.md). */
  sink: CaptureSink;
  /** Secret values by name, as fetched (the expander's `secretValues` also holds those typed into a draft). */
  secrets: Map<string, string>;
  expander: Expander;
  /** Resolution settings: the preferences' proxy and extra CAs, the inline limit, the OAuth 2 tokens. */
  resolve: ResolveContext;
}

/** The scope of a send of `request` (any kind), its secrets fetched from the overrides or the keychain. */
export async function sendScope(sup: Supervisor, deps: SendDeps, projectRoot: string, request: AnyRequest, overrides: ScopeOverrides = {}): Promise<SendScope> {
  const store = sup.project(projectRoot);
  // What the request's folders and API hand down: one rule for every send (protocol/inheritance.ts).
  const { api, folders } = store.scopeOf(request.id);
  const inherited = inheritedSettings(api, folders);
  const ws = sup.workspace.get();
  const environment = overrides.environment !== undefined ? (overrides.environment ?? []) : (ws.environments.find((e) => e.id === ws.activeEnvironment)?.variables ?? []);
  // Lowest first: the project's properties, its folders' variables (the nearest last), a data row's columns; the environment over all.
  const folderRows = inherited.variables.map(({ name, value }) => ({ name, value, enabled: true }));
  const project = folderRows.length > 0 || overrides.properties ? [...store.properties, ...folderRows, ...(overrides.properties ?? [])] : store.properties;
  // Values captured from responses over everything (docs/captures.md).
  const sink = overrides.captures ?? sup.captureSink(store.root);
  const scopeRows = { captured: sink.values.rows(), environment, project, globals: ws.globals };

  const texts = [JSON.stringify(request), JSON.stringify(inherited.auth.auth), JSON.stringify(inherited.headers), api.baseUrl];
  const secrets = new Map<string, string>();
  /** Why the store could not be asked, when `parley run` goes on to name the variables instead. */
  let storeProblem: string | undefined;
  for (const name of secretNamesIn(texts, scopeRows)) {
    const given = overrides.secret?.(name);
    if (given !== undefined) {
      secrets.set(name, given);
      continue;
    }
    if (storeProblem !== undefined) continue;
    const value = await sup.secrets.get(name).catch((err: ParleyError) => {
      // A run without a keychain or an unlocked vault can still take each secret from the environment: say which variable.
      if (overrides.secret && NO_STORAGE_CODES.has(err.code)) {
        storeProblem = err.code === 'vault-locked' ? `the vault is locked: set ${VAULT_PASSPHRASE_ENV} to unlock it` : 'there is no system keychain or vault here';
        return null;
      }
      throw new ParleyError(err.code, `Not sent: ${err.message}`, err.data);
    });
    if (value !== null) secrets.set(name, value);
  }
  const expander = new Expander({ ...scopeRows, secrets });
  // A secret typed into an unsaved draft is masked like a stored one in everything recorded.
  const { auth } = effectiveAuth(request.auth, inherited.auth);
  for (const [field, value] of literalSecrets(auth)) expander.secretValues.set(`unsaved-${field}`, value);
  const caPem = ws.preferences.caBundle ? await readCaBundle(ws.preferences.caBundle) : '';
  const resolve: ResolveContext = {
    expander,
    projectRoot: store.root,
    proxy: ws.preferences.proxy,
    caPem,
    inlineLimit: INLINE_LIMIT,
    secretNames: ws.secrets,
    capturedBy: (name) => capturersOf(store, name),
    secretSource: {
      store: await sup.secrets.backend(),
      ...(overrides.secret ? { fromEnvironment: true } : {}),
      ...(storeProblem !== undefined ? { problem: storeProblem } : {}),
    },
    oauthToken: deps.oauthToken,
  };
  return { store, api, inherited, auth, scopeRows, sink, secrets, expander, resolve };
}

/** Expands and resolves a request as it would be sent now (refused here when something does not resolve). */
export async function prepareSend(sup: Supervisor, deps: SendDeps, projectRoot: string, request: Request, overrides: ScopeOverrides = {}): Promise<PreparedSend> {
  const { store, api, inherited, auth, scopeRows, sink, secrets, expander, resolve } = await sendScope(sup, deps, projectRoot, request, overrides);
  const resolved = await resolveRequest(request, api, resolve, inherited);
  // Every response's cookies go into the workspace's jar; its cookies go out only with Send cookies on.
  const spec = withOverrides(resolved, request.settings.sendCookies, overrides);
  const assertions = prepareAssertions(request.assertions, { ...scopeRows, secrets });
  const captures = prepareCaptures(request.captures, { ...scopeRows, secrets }, sink, request.name);
  // Secrets an assertion or a capture names are masked in its results like those the request used.
  if (assertions || captures) for (const [name, value] of secrets) if (!expander.secretValues.has(name)) expander.secretValues.set(name, value);
  const capturedCredentials = sink.values.credentialValues();
  return {
    store,
    api,
    request,
    auth,
    spec,
    secrets: expander.secretValues,
    ...(assertions ? { assertions } : {}),
    ...(captures ? { captures } : {}),
    ...(capturedCredentials.length > 0 ? { capturedCredentials } : {}),
    ...(overrides.noHistory ? { history: false } : {}),
    ...(overrides.noLog ? { log: false } : {}),
  };
}

/** Every response's cookies go into the workspace's jar; its cookies go out only with Send cookies on. `parley run` may replace the timeout and the TLS check. */
export function withOverrides(resolved: SendSpec, sendCookies: boolean, overrides: ScopeOverrides): SendSpec {
  return {
    ...resolved,
    cookies: { send: sendCookies },
    ...(overrides.timeoutMs !== undefined ? { timeoutMs: overrides.timeoutMs } : {}),
    ...(overrides.insecure ? { insecure: true } : {}),
  };
}

/** What the HTTP Log keeps of a send to put it on the wire again (never sent to the UI). */
export interface LoggedSend {
  request: Request;
  spec: SendSpec;
  secrets: Map<string, string>;
  /** Captured credentials it carried: masked again when it is sent again. */
  capturedCredentials?: string[];
}

/**
 * Puts `spec` on the wire for `prepared.request`, checks the response and records the send in
 * History and the HTTP Log. An event stream streams its head and rows to `onProgress` while it
 * runs and answers when it ends, is stopped (`request.stopStream`, or the caller's cancel) or
 * drops; each of these is a response, never a failure (SPEC "States": ended, or ended as stopped).
 */
export async function dispatchSend(
  sup: Supervisor,
  deps: SendDeps,
  prepared: WireSend,
  spec: SendSpec,
  signal?: AbortSignal,
  onProgress?: (progress: SendProgress) => void,
  /** Bytes of progress still on their way to the caller: rows are held (the newest kept) while it is high. */
  backlog?: () => number,
): Promise<Exchange> {
  return (await putOnWire(sup, deps, prepared, spec, signal, onProgress, backlog)).complete();
}

/** A send whose response is in; `complete()` checks it and records it (the Exchange). */
export interface Answered {
  /**
   * Runs the request's captures (once; `complete()` does too): a run calls it first, so the next
   * request can be resolved with the captured values while this one's checks run.
   */
  captured(): Promise<CaptureResult[] | undefined>;
  complete(): Promise<Exchange>;
}

/**
 * `dispatchSend` in two steps: answers once the sender has the response (or throws its failure),
 * leaving the contract check, the assertions and the records to `complete()`, so that a run can
 * put its next request on the wire meanwhile. Call `complete()` once, soon.
 */
export async function putOnWire(
  sup: Supervisor,
  deps: SendDeps,
  prepared: WireSend,
  spec: SendSpec,
  signal?: AbortSignal,
  onProgress?: (progress: SendProgress) => void,
  backlog?: () => number,
): Promise<Answered> {
  const { store, request, secrets } = prepared;
  const record = prepared.history !== false;
  const logged = record || prepared.log !== false;
  spec = withDefaultAccept(spec);
  const sent = recordSent(spec, secrets, prepared.capturedCredentials);
  const at = new Date().toISOString();
  const log = logged
    ? sup.httpLog.begin({
        at,
        project: store.root,
        requestId: request.id,
        requestName: request.name,
        request: sent.request,
        redacted: sent.masked || secrets.size > 0,
        // The HTTP Log re-sends an HTTP exchange; a WebSocket session is opened again from its request.
        ...(isHttp(request) ? { resend: { project: store.root, send: { request, spec, secrets, ...(prepared.capturedCredentials ? { capturedCredentials: prepared.capturedCredentials } : {}) } } } : {}),
      })
    : UNLOGGED;
  let stream: StreamSession | undefined;
  /** The sender's id for its read of the stream (`sender.stopStream`). */
  let read = '';
  /** The stream's head as the sender sent it (with the jar's cookie values, to mask them). */
  let streamHead: ResponseHead | undefined;
  /** Its phases to the headers, for HAR export of a stream the sender could not finish. */
  let streamHopTiming: HopTiming | undefined;
  // Cancels the sender's call: before a stream's head, or when Stop's answer does not come.
  const cancel = new AbortController();
  let stopping: NodeJS.Timeout | undefined;
  // Stop, or the caller going away while a stream runs: the sender ends its read and answers
  // with the rows it kept; if that answer does not come in time, the call is dropped and the
  // rows that arrived here stand.
  const stopRead = () => {
    if (stopping) return;
    stopping = setTimeout(() => cancel.abort(), STOP_ANSWER_MS);
    sup.sender.call('sender.stopStream', { stream: read }).then(
      ({ stopped }) => void (stopped || cancel.abort()),
      () => cancel.abort(),
    );
  };
  const onCallerGone = () => (stream ? stopRead() : cancel.abort());
  if (signal?.aborted) cancel.abort();
  else signal?.addEventListener('abort', onCallerGone, { once: true });
  const onChunk = (chunk: SendChunk) => {
    if (chunk.kind === 'head') {
      if (stream) return;
      read = chunk.stream;
      streamHead = chunk.head;
      streamHopTiming = chunk.hopTiming;
      stream = sup.streams.open({
        head: withoutJarCookies(chunk.head),
        timing: chunk.timing,
        ...(onProgress ? { forward: onProgress } : {}),
        ...(backlog ? { backlog } : {}),
        onCounts: (total, events) => log.streamCounts(total, events),
        onTaken: () => void sup.sender.call('sender.streamTaken', { stream: read }).catch(() => undefined),
      });
      stream.stopSignal.addEventListener('abort', stopRead, { once: true });
      const made = prepared.socketMessage;
      if (made) {
        stream.sendMessage = async (message) => {
          await sup.sender.call('sender.socketSend', { stream: read, message: await made(message) });
        };
      }
      if (prepared.halfClosable) {
        stream.halfClose = async () => {
          await sup.sender.call('sender.halfClose', { stream: read });
        };
      }
      log.streamOpened(chunk.head.status, chunk.head.statusText);
    } else stream?.add(chunk.batch);
  };
  let response: SendResult;
  try {
    response = await sup.sender.call('sender.send', spec, { signal: cancel.signal, onChunk });
  } catch (err) {
    const e = err as ParleyError;
    const message = redactSecrets(e.message, secrets, prepared.capturedCredentials);
    if (stream) {
      // Once its headers are in, a stream that is stopped or cut off is a response all the same:
      // with the rows that arrived, when the sender could not answer (it died, or Stop went unanswered).
      response = stoppedStream(stream, streamHead ?? stream.head, streamHopTiming, e.code === 'cancelled' ? undefined : { code: e.code, message });
    } else {
      log.failed({ code: e.code, message });
      if (e.code !== 'cancelled' && record) {
        await sup.history.add(store.root, { id: randomUUID(), at, requestId: request.id, request: sent.request, error: { code: e.code, message }, redacted: sent.masked || secrets.size > 0 });
      }
      throw new ParleyError(e.code, message, e.data);
    }
  } finally {
    clearTimeout(stopping);
    signal?.removeEventListener('abort', onCallerGone);
    if (stream) sup.streams.close(stream);
  }
  const carried = [...carriedOf(spec, response), ...(prepared.capturedCredentials ?? [])];
  response = withoutJarCookies(response);
  const result = response;
  let capturing: Promise<CaptureRun | undefined> | undefined;
  const capture = () =>
    (capturing ??= prepared.captures
      ? runCaptures({ checker: sup.checker, jarCookieHeader: (url) => sup.cookies.cookieHeader(url) }, prepared.captures, result, secrets, carried, signal)
      : Promise.resolve(undefined));
  const captured = async () => (await capture())?.results;
  /** This send's own records lose the credentials its captures read, as later sends' do. */
  const capturedCarried = (run: CaptureRun | undefined) => (run && run.credentials.length > 0 ? [...carried, ...run.credentials] : carried);
  if (stream) {
    const read = stream;
    return {
      captured,
      complete: async () => {
        const run = await capture();
        const exchange = await recordStreamSend(sup, { store, request, secrets, carried: capturedCarried(run), sent, at, log, stream: read, response: result, record });
        return run ? { ...exchange, captures: run.results } : exchange;
      },
    };
  }
  return {
    captured,
    complete: async () => {
      const run = await capture();
      const captures = run?.results;
      const masked = capturedCarried(run);
      const verdict = await (isHttp(request) ? deps.verdict(store.root, request, response, signal) : Promise.resolve(undefined)).catch((err: Error) => {
        sup.log(`contract check failed: ${err.message}`);
        return undefined;
      });
      const assertions = prepared.assertions ? await checkAssertions(sup.checker, prepared.assertions, response, secrets, masked, signal) : undefined;
      const checked = { ...(verdict ? { verdict } : {}), ...(assertions ? { assertions } : {}), ...(captures ? { captures } : {}) };
      // Unrecorded and unlogged: the response is not redacted for a record no one keeps.
      if (!logged) return { id: randomUUID(), at, request: sent.request, response, redacted: sent.masked || secrets.size > 0, ...checked };
      const entry = historyEntry({ id: randomUUID(), at, requestId: request.id, sent, response, verdict, secrets, carried: masked });
      sup.redactions.keep(entry.id, { secrets, carried: masked });
      if (record) await sup.history.add(store.root, entry);
      const wire = recordHops(response, secrets, carried);
      log.finished(entry.response!, { httpVersion: response.httpVersion, timing: response.timing, ...(wire ? { hops: wire.hops } : {}), ...(verdict ? { verdict } : {}), redacted: entry.redacted || wire?.masked === true });
      return { id: entry.id, at, request: sent.request, response, redacted: entry.redacted, ...checked };
    },
  };
}

/**
 * The credential values the exchange carried in its headers (protocol/credentials/carried.ts):
 * the request's as resolved, its URL's user and password, the jar's cookies the sender added on
 * any hop, and every hop's Set-Cookie and credential headers.
 */
function carriedOf(spec: SendSpec, response: ResponseHead): string[] {
  return carriedValues({ url: spec.url, request: spec.headers, responses: [...response.hops.map((h) => h.headers), response.headers], ...(response.jarCookies ? { jarCookies: response.jarCookies } : {}) });
}

/** The head or result as it leaves the supervisor: the jar's cookie values were for masking only. */
function withoutJarCookies<T extends ResponseHead>(response: T): T {
  if (response.jarCookies === undefined) return response;
  const { jarCookies: _values, ...rest } = response;
  return rest as T;
}

/** The HTTP Log's handle for a send it does not keep. */
const UNLOGGED: LogHandle = { id: '', streamOpened: () => {}, streamCounts: () => {}, finished: () => {}, failed: () => {} };

/** A stream whose sender call ended without its result: the rows that arrived up to Stop or the sender's end. */
function stoppedStream(stream: StreamSession, head: ResponseHead, hopTiming: HopTiming | undefined, error: { code: string; message: string } | undefined): SendResult {
  const timing: Timing = stream.timingNow();
  const kept = stream.keptSoFar('stopped', error);
  // The phases to the headers, then reading the stream up to now.
  const phases = hopTiming ? { hopTiming: { ...hopTiming, receive: Math.round(timing.download * 1000) / 1000 } } : {};
  return { ...head, body: { bytes: new Uint8Array(0), size: 0, wireSize: 0 }, timing, ...phases, stream: kept.finished, streamHistory: kept.history };
}

/**
 * The end of a streamed send: the response carries the finished stream's rows (the first 400 and
 * last 4,600 within 32 MB) and its true counts; History keeps its first 400 and last 100 within
 * 1 MB, the HTTP Log the finished rows, both masked. No contract chip: SPEC Contract rule 6.
 */
async function recordStreamSend(
  sup: Supervisor,
  s: { store: ProjectStore; request: AnyRequest; secrets: Map<string, string>; carried: string[]; sent: ReturnType<typeof recordSent>; at: string; log: LogHandle; stream: StreamSession; response: SendResult; record: boolean },
): Promise<Exchange> {
  const { secrets, carried } = s;
  // The sender kept both (History's travels beside the response and goes no further).
  const { streamHistory, ...response } = s.response;
  const finished = response.stream ?? s.stream.keptSoFar('stopped').finished;
  const recorded = recordResponse({ ...response, stream: finished }, secrets, carried);
  const history = streamHistory ?? s.stream.keptSoFar(finished.state, finished.error).history;
  const [forHistory, forLog] = [await recordStream(history, secrets, carried), await recordStream(finished, secrets, carried)];
  const wire = recordHops(response, secrets, carried);
  const redacted = s.sent.masked || recorded.masked || forHistory.masked || forLog.masked || wire?.masked === true || secrets.size > 0;
  const id = randomUUID();
  sup.redactions.keep(id, { secrets, carried });
  // `parley run` keeps no History, of a stream either.
  if (s.record) await sup.history.add(s.store.root, { id, at: s.at, requestId: s.request.id, request: s.sent.request, response: { ...recorded.response, stream: forHistory.stream }, redacted });
  s.log.finished({ ...recorded.response, stream: forLog.stream }, { httpVersion: response.httpVersion, timing: response.timing, ...(wire ? { hops: wire.hops } : {}), redacted });
  return { id, at: s.at, request: s.sent.request, response: { ...response, stream: finished }, redacted };
}

/** Like curl and other HTTP clients, a request that names no Accept asks for anything. */
function withDefaultAccept(spec: SendSpec): SendSpec {
  // A gRPC call's headers are its metadata: nothing is added to them.
  if (spec.grpc !== undefined) return spec;
  if (spec.headers.some(([n]) => n.toLowerCase() === 'accept')) return spec;
  return { ...spec, headers: [...spec.headers, ['Accept', '*/*']] };
}

async function readCaBundle(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ParleyError('bad-input', `Not sent: the CA bundle ${path} in Preferences could not be read (${(err as NodeJS.ErrnoException).code}).`);
  }
}
