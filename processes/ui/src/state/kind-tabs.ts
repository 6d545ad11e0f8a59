/**
 * What a request tab of every kind has (ARCHITECTURE.md "Request kinds"), kept outside the
 * components so switching tabs keeps it: the request's draft (read and saved through the
 * supervisor, its typed secrets through the secret store), the API it belongs to, and its send,
 * from Send or Connect to the answer, its event stream or session rows arriving live on the way.
 * Each kind's tab state adds its own sections and views to this (request-tabs.ts for HTTP,
 * kinds/websocket/socket-tabs.ts).
 */
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { Api } from '../../../../protocol/model/api.js';
import type { Exchange } from '../../../../protocol/model/history.js';
import type { SendProgress } from '../../../../protocol/model/exchange.js';
import type { QueryLanguage, QueryResult } from '../../../../protocol/model/query.js';
import { lastRowNumber } from '../../../../protocol/model/stream.js';
import { kindById, kindOf, type AnyRequest, type RequestKindId } from '../../../../protocol/kinds/index.js';
import { literalSecrets } from '../../../../protocol/credentials/auth-secrets.js';
import { quote, type WireError } from '../../../../protocol/errors.js';
import { withSecretStore } from '../components/SecretStoreDialog.js';
import { projectByRoot } from './app.js';
import { openDraft, type Draft } from './drafts.js';
import { onStreamProgress, type LiveStream } from './live-stream.js';
import { call } from './rpc.js';
import { noteLeftOut } from './secret-storage.js';
import { onTabClosed, retitleTab, type Tab } from './tabs.js';

/** The Query tab's state: kept per request tab, so switching tabs keeps the expression and its result. */
export interface QueryState {
  language: Signal<QueryLanguage>;
  expression: Signal<string>;
  running: Signal<boolean>;
  result: Signal<QueryResult | null>;
  error: Signal<{ code: string; message: string } | null>;
}

export interface KindTabState<T extends AnyRequest> {
  tab: Tab;
  /** The request's draft in the shared draft store (drafts.ts). */
  doc: Draft<T>;
  draft: Signal<T | null>;
  saved: Signal<T | null>;
  dirty: ReadonlySignal<boolean>;
  loadError: Signal<string | null>;
  /** The API the request belongs to: an inherited auth, its base URL. */
  api: Signal<Api | null>;
  /** A send runs, until its answer: for a session (WebSocket), from Connect until it closes. */
  sending: Signal<boolean>;
  /** The event stream or session of the send, from its head on (open while `sending`). */
  live: Signal<LiveStream | null>;
  query: QueryState;
  exchange: Signal<Exchange | null>;
  error: Signal<WireError | null>;
  abort: AbortController | null;
}

export interface KindTabOptions<T extends AnyRequest> {
  /** The kind of request the tab edits: another kind read from its file is refused by name. */
  kind: RequestKindId;
  /** Read beside the request, and again when its API or one of its folders changes (HTTP: what it inherits). */
  alsoLoad?(): Promise<void>;
  /** Each load of the request, before the draft takes it. */
  onLoad?(request: T): void;
}

/** A kind's part of its tabs' state: how the common part loads, and what the kind adds to it. */
export interface KindTabSetup<T extends AnyRequest, S extends KindTabState<T>> extends KindTabOptions<T> {
  extend(common: KindTabState<T>): S;
}

const states = new Map<string, KindTabState<AnyRequest>>();

onTabClosed((tabId) => {
  // Closing the tab ends its send (a session disconnects: its caller goes away).
  states.get(tabId)?.abort?.abort();
  states.delete(tabId);
});

/** The tab's state, made the first time (by `setup`): the common part, then the kind's own added to it. */
export function kindTabState<T extends AnyRequest, S extends KindTabState<T>>(tab: Tab, setup: () => KindTabSetup<T, S>): S {
  const held = states.get(tab.id);
  if (held) return held as unknown as S;
  const options = setup();
  const kind = kindById(options.kind);
  const editor = `The ${kind.label} request editor`;
  const asKind = (request: AnyRequest): T => {
    if (kindOf(request) === kind) return request as T;
    throw new Error(`${editor} works on ${kind.label} requests; ${quote(request.name)} is a ${kindOf(request).label} request.`);
  };
  const api = signal<Api | null>(null);
  const apiId = () => apiIdOf(tab);
  const loadApi = async (): Promise<void> => {
    const id = apiId();
    if (id) api.value = await call('api.get', { project: tab.project, id }).catch(() => api.value);
  };
  const alsoLoad = () => options.alsoLoad?.() ?? Promise.resolve();
  const doc = openDraft<T>(tab.id, {
    load: async () => {
      const [request] = await Promise.all([call('request.get', { project: tab.project, id: tab.itemId }).then(asKind), loadApi(), alsoLoad()]);
      options.onLoad?.(request);
      // Renamed on disk (or by an update): the tab says so.
      if (request.name !== tab.title) retitleTab(tab.id, request.name, kind.badge(request));
      return request;
    },
    save: async (request) => {
      const typed = [...literalSecrets(request.auth).keys()];
      const { value: stored, leftOut } = await withSecretStore(
        (leaveOutSecrets) => call('request.save', { project: tab.project, request, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Save without the secret', what: 'the secret typed into the Auth tab' },
      );
      const saved = asKind(stored);
      noteLeftOut(tab.id, leftOut ? typed : []);
      retitleTab(tab.id, saved.name, kind.badge(saved));
      return saved;
    },
    concerns: (project, changed) => {
      if (project !== tab.project) return false;
      const id = apiId();
      if (id && changed.includes(id)) void loadApi();
      // The API, or a folder's settings (a folder's id starts with its API's): what the request takes from them may have changed.
      if (id && changed.some((c) => c === id || c.startsWith(`${id}/`))) void alsoLoad();
      return changed.includes(tab.itemId);
    },
    label: (): string => doc.draft.value?.name ?? tab.title,
  });
  const state = options.extend({
    tab,
    doc,
    draft: doc.draft,
    saved: doc.saved,
    dirty: doc.dirty,
    loadError: doc.loadError,
    api,
    sending: signal(false),
    live: signal<LiveStream | null>(null),
    query: {
      language: signal<QueryLanguage>('jsonpath'),
      expression: signal(''),
      running: signal(false),
      result: signal<QueryResult | null>(null),
      error: signal<{ code: string; message: string } | null>(null),
    },
    exchange: signal(null),
    error: signal(null),
    abort: null,
  });
  states.set(tab.id, state as unknown as KindTabState<AnyRequest>);
  return state;
}

/** The API a request tab's item belongs to, up through its folders in the tree. */
function apiIdOf(tab: Tab): string | undefined {
  const tree = projectByRoot(tab.project);
  if (!tree) return undefined;
  const byId = new Map(tree.items.map((i) => [i.id, i]));
  let item = byId.get(tab.itemId);
  while (item && item.kind !== 'api') item = 'parent' in item ? byId.get(item.parent) : undefined;
  return item?.id;
}

/**
 * Tells the supervisor the rows up to `n` are drawn, after this batch's render (a task later), so
 * it sends the next batch only then: a page behind its stream gets the newest rows, and its other
 * replies (and its pings) do not queue behind rows it has not read.
 */
function readThrough(stream: string, n: number): void {
  setTimeout(() => void call('request.streamRead', { stream, n }).catch(() => {}), 0);
}

/**
 * One send in the tab, whoever started it (Send, Connect, History's re-send): `sending` while it
 * runs; an event stream's or a session's head and rows go into `live` as they arrive (before the
 * answer, which comes when the stream ends; `onStream` when the head is here); the answer's
 * exchange becomes the tab's response. A failure is thrown to the caller.
 */
export async function runSend<T extends AnyRequest, R extends { exchange: Exchange }>(
  state: KindTabState<T>,
  start: (options: { signal: AbortSignal; onChunk: (progress: SendProgress) => void }) => Promise<R>,
  onStream: () => void,
): Promise<R> {
  const controller = new AbortController();
  state.abort = controller;
  state.sending.value = true;
  state.error.value = null;
  state.live.value = null;
  state.query.result.value = null;
  state.query.error.value = null;
  try {
    const result = await start({
      signal: controller.signal,
      onChunk: (progress) => {
        onStreamProgress(state.live.value, progress, (stream) => {
          state.live.value = stream;
          onStream();
        });
        const live = state.live.peek();
        if (progress.kind === 'batch' && live) readThrough(live.id, lastRowNumber(progress.batch));
      },
    });
    const live: LiveStream | null = state.live.peek();
    if (result.exchange.response.stream) live?.finish(result.exchange.response.stream);
    state.exchange.value = result.exchange;
    return result;
  } finally {
    state.sending.value = false;
    state.abort = null;
  }
}

/**
 * Stop (or Disconnect): an open event stream or session is stopped by the supervisor, and the
 * send answers with it ended as stopped (never an error); any other send (a handshake under way)
 * is cancelled.
 */
export function stopSend<T extends AnyRequest>(state: KindTabState<T>): void {
  const live = state.live.value;
  if (!state.sending.value) return;
  if (live?.state.value === 'open') {
    if (live.stopping.value) return;
    live.stopping.value = true;
    call('request.stopStream', { stream: live.id }).then(
      ({ stopped }) => void (stopped || state.abort?.abort()),
      () => state.abort?.abort(),
    );
    return;
  }
  state.abort?.abort();
}
