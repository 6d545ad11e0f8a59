/**
 * Per-tab state of open request editors, kept outside the components so switching tabs keeps
 * the draft, the last response and the chosen sub-tabs.
 */
import type { BodyMode } from '../editors/response/BodyView.js';
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { Api } from '../../../../protocol/model/api.js';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import type { Request } from '../../../../protocol/model/request.js';
import { asHttp } from '../../../../protocol/kinds/index.js';
import type { Exchange, ResendResult } from '../../../../protocol/model/history.js';
import type { SendProgress } from '../../../../protocol/model/exchange.js';
import type { WireError } from '../../../../protocol/errors.js';
import { projectByRoot } from './app.js';
import { editDraft, openDraft, whenLoaded, type Draft } from './drafts.js';
import { saveTab } from './draft-actions.js';
import { call } from './rpc.js';
import { noteLeftOut } from './secret-storage.js';
import { askSecretStore, withSecretStore } from '../components/SecretStoreDialog.js';
import { literalSecrets } from '../../../../protocol/credentials/auth-secrets.js';
import { onTabClosed, retitleTab, type Tab } from './tabs.js';
import { onStreamProgress, type LiveStream } from './live-stream.js';
import { lastRowNumber } from '../../../../protocol/model/stream.js';
import type { QueryLanguage, QueryResult } from '../../../../protocol/model/query.js';

export type Section = 'params' | 'body' | 'headers' | 'auth' | 'assertions' | 'captures' | 'settings';
export type ResponseView = 'body' | 'events' | 'assertions' | 'captures' | 'headers' | 'cookies' | 'redirects' | 'timing' | 'raw' | 'query' | 'history';

/** The Query tab's state: kept per request tab, so switching tabs keeps the expression and its result. */
export interface QueryState {
  language: Signal<QueryLanguage>;
  expression: Signal<string>;
  running: Signal<boolean>;
  result: Signal<QueryResult | null>;
  error: Signal<{ code: string; message: string } | null>;
}

export interface RequestTabState {
  tab: Tab;
  /** The request's draft in the shared draft store (drafts.ts). */
  doc: Draft<Request>;
  draft: Signal<Request | null>;
  saved: Signal<Request | null>;
  dirty: ReadonlySignal<boolean>;
  loadError: Signal<string | null>;
  /** The API the request belongs to, for an inherited auth and its base URL. */
  api: Signal<Api | null>;
  /** What the request takes from its folders and API (auth, headers, variables), each with where it is set. */
  inherited: Signal<InheritedSettings | null>;
  section: Signal<Section>;
  responseView: Signal<ResponseView>;
  /** An HTML body shown as its source (pretty) or as the inert preview. */
  bodyMode: Signal<BodyMode>;
  sending: Signal<boolean>;
  /** The event stream of the last send, from its head on (open while `sending`). */
  live: Signal<LiveStream | null>;
  /** The Events tab shows comment lines and `retry:` fields too. */
  showStreamOthers: Signal<boolean>;
  query: QueryState;
  exchange: Signal<Exchange | null>;
  error: Signal<WireError | null>;
  abort: AbortController | null;
}

const states = new Map<string, RequestTabState>();

export function requestTabState(tab: Tab): RequestTabState {
  let state = states.get(tab.id);
  if (state) return state;
  const api = signal<Api | null>(null);
  const inherited = signal<InheritedSettings | null>(null);
  const section = signal<Section>('params');
  const apiId = () => apiIdOf(tab);
  let opened = false;
  const doc = openDraft<Request>(tab.id, {
    load: async () => {
      const [request] = await Promise.all([call('request.get', { project: tab.project, id: tab.itemId }).then((r) => asHttp(r, 'The HTTP request editor')), loadApi(), loadInherited()]);
      // A request with a body opens on its Body section.
      if (!opened && request.body.kind !== 'none' && request.method !== 'GET') section.value = 'body';
      opened = true;
      // Renamed on disk (or by an update): the tab says so.
      if (request.name !== tab.title) retitleTab(tab.id, request.name, request.method);
      return request;
    },
    save: async (request) => {
      const typed = [...literalSecrets(request.auth).keys()];
      const { value: stored, leftOut } = await withSecretStore(
        (leaveOutSecrets) => call('request.save', { project: tab.project, request, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Save without the secret', what: 'the secret typed into the Auth tab' },
      );
      const saved = asHttp(stored, 'The HTTP request editor');
      noteLeftOut(tab.id, leftOut ? typed : []);
      retitleTab(tab.id, saved.name, saved.method);
      return saved;
    },
    concerns: (project, changed) => {
      if (project !== tab.project) return false;
      const id = apiId();
      if (id && changed.includes(id)) void loadApi();
      // The API's auth, or a folder's settings (a folder's id starts with its API's): what it inherits may have changed.
      if (id && changed.some((c) => c === id || c.startsWith(`${id}/`))) void loadInherited();
      return changed.includes(tab.itemId);
    },
    label: (): string => doc.draft.value?.name ?? tab.title,
  });
  async function loadApi(): Promise<void> {
    const id = apiId();
    if (id) api.value = await call('api.get', { project: tab.project, id }).catch(() => api.value);
  }
  async function loadInherited(): Promise<void> {
    inherited.value = await call('tree.inherited', { project: tab.project, item: { kind: 'request', id: tab.itemId } }).catch(() => inherited.value);
  }
  state = {
    tab,
    doc,
    draft: doc.draft,
    saved: doc.saved,
    dirty: doc.dirty,
    loadError: doc.loadError,
    api,
    inherited,
    section,
    responseView: signal<ResponseView>('body'),
    bodyMode: signal<BodyMode>('pretty'),
    sending: signal(false),
    live: signal<LiveStream | null>(null),
    showStreamOthers: signal(true),
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
  };
  states.set(tab.id, state);
  return state;
}

onTabClosed((tabId) => {
  states.get(tabId)?.abort?.abort();
  states.delete(tabId);
});

/** The API a request tab's item belongs to, up through its folders in the tree. */
function apiIdOf(tab: Tab): string | undefined {
  const tree = projectByRoot(tab.project);
  if (!tree) return undefined;
  const byId = new Map(tree.items.map((i) => [i.id, i]));
  let item = byId.get(tab.itemId);
  while (item && item.kind !== 'api') item = 'parent' in item ? byId.get(item.parent) : undefined;
  return item?.id;
}

export function edit(state: RequestTabState, change: (draft: Request) => Request): void {
  editDraft(state.doc, change);
}

export function save(state: RequestTabState): Promise<boolean> {
  return saveTab(state.tab.id);
}

export async function send(state: RequestTabState, unlocked = false): Promise<void> {
  // Right after a click in the sidebar the request may still be on its way.
  const draft = state.draft.value ?? (await whenLoaded(state.doc));
  if (!draft || state.sending.value) return;
  try {
    await runSend(state, (options) => call('request.send', { project: state.tab.project, request: draft }, options).then((exchange) => ({ exchange })));
  } catch (err) {
    const e = err as WireError;
    state.error.value = { code: e.code, message: e.message };
    // The request uses a secret from the locked vault: its passphrase, then the send goes again.
    if (e.code === 'vault-locked' && !unlocked && (await askSecretStore({ what: 'the secrets this request uses' })) === 'ready') await send(state, true);
  }
}

/**
 * Re-send of a History entry through this tab's request (its draft when loaded): it runs as Send
 * does, so an event stream fills the Events tab as it arrives and Stop stops it. A failure to
 * re-send (the request is gone, a refusal) is thrown to the caller, which says so where it was asked.
 */
export async function resendInTab(state: RequestTabState, entryId: string): Promise<ResendResult> {
  if (state.sending.value) throw new Error('This request is sending now: stop it, then re-send.');
  const request = state.draft.value;
  const result = await runSend(state, (options) =>
    call('history.resend', { project: state.tab.project, id: entryId, ...(request ? { request } : {}) }, options),
  );
  if (!result.exchange.response.stream) state.responseView.value = 'body';
  return result;
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
 * One send in the tab, whoever started it: `sending` while it runs; an event stream's head and
 * rows go into `live` as they arrive (before the answer, which comes when the stream ends); the
 * answer's exchange becomes the tab's response.
 */
async function runSend<R extends { exchange: Exchange }>(
  state: RequestTabState,
  start: (options: { signal: AbortSignal; onChunk: (progress: SendProgress) => void }) => Promise<R>,
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
          state.responseView.value = 'events';
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
 * Stop: an open event stream is stopped by the supervisor, and the send answers with the stream
 * ended as stopped (never an error); any other send is cancelled.
 */
export function stop(state: RequestTabState): void {
  const live = state.live.value;
  if (state.sending.value && live?.state.value === 'open') {
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
