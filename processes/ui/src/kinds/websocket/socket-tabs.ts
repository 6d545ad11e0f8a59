/**
 * A WebSocket request's tab state (docs/websocket.md), kept outside the components as an HTTP
 * tab's is: the draft, the session while it is connected (its head and rows in a LiveStream, as
 * an event stream's), the finished session, the composer, and the chosen sections.
 */
import { signal, type Signal } from '@preact/signals';
import type { Api } from '../../../../../protocol/model/api.js';
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { WireError } from '../../../../../protocol/errors.js';
import { lastRowNumber } from '../../../../../protocol/model/stream.js';
import type { QueryLanguage, QueryResult } from '../../../../../protocol/model/query.js';
import type { SocketMessage, WebSocketRequest } from '../../../../../protocol/model/websocket.js';
import { literalSecrets } from '../../../../../protocol/credentials/auth-secrets.js';
import { projectByRoot } from '../../state/app.js';
import { editDraft, openDraft, whenLoaded, type Draft } from '../../state/drafts.js';
import { call } from '../../state/rpc.js';
import { onTabClosed, retitleTab, type Tab } from '../../state/tabs.js';
import { onStreamProgress, type LiveStream } from '../../state/live-stream.js';
import { noteLeftOut } from '../../state/secret-storage.js';
import { withSecretStore } from '../../components/SecretStoreDialog.js';
import type { QueryState } from '../../state/request-tabs.js';

export type SocketSection = 'messages' | 'headers' | 'auth' | 'assertions' | 'settings';
export type SocketView = 'events' | 'headers' | 'timing' | 'raw' | 'query';

export interface SocketTabState {
  tab: Tab;
  doc: Draft<WebSocketRequest>;
  draft: Signal<WebSocketRequest | null>;
  loadError: Signal<string | null>;
  api: Signal<Api | null>;
  section: Signal<SocketSection>;
  view: Signal<SocketView>;
  /** Connecting or connected: the request's send runs until the session closes. */
  connected: Signal<boolean>;
  /** The session, from its head on. */
  live: Signal<LiveStream | null>;
  /** The Events view shows pings and pongs too. */
  showPings: Signal<boolean>;
  /** The message being written, and why the last one was not sent. */
  composer: { message: Signal<SocketMessage>; problem: Signal<string | null>; sending: Signal<boolean> };
  query: QueryState;
  exchange: Signal<Exchange | null>;
  error: Signal<WireError | null>;
  abort: AbortController | null;
}

const states = new Map<string, SocketTabState>();

export function socketTabState(tab: Tab): SocketTabState {
  let state = states.get(tab.id);
  if (state) return state;
  const api = signal<Api | null>(null);
  const doc = openDraft<WebSocketRequest>(tab.id, {
    load: async () => {
      const [request] = await Promise.all([call('request.get', { project: tab.project, id: tab.itemId }).then(asWebSocket), loadApi()]);
      if (request.name !== tab.title) retitleTab(tab.id, request.name, 'WS');
      return request;
    },
    save: async (request) => {
      const typed = [...literalSecrets(request.auth).keys()];
      const { value: stored, leftOut } = await withSecretStore(
        (leaveOutSecrets) => call('request.save', { project: tab.project, request, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Save without the secret', what: 'the secret typed into the Auth tab' },
      );
      noteLeftOut(tab.id, leftOut ? typed : []);
      const saved = asWebSocket(stored);
      retitleTab(tab.id, saved.name, 'WS');
      return saved;
    },
    concerns: (project, changed) => project === tab.project && changed.includes(tab.itemId),
    label: (): string => doc.draft.value?.name ?? tab.title,
  });
  async function loadApi(): Promise<void> {
    const id = apiIdOf(tab);
    if (id) api.value = await call('api.get', { project: tab.project, id }).catch(() => api.value);
  }
  state = {
    tab,
    doc,
    draft: doc.draft,
    loadError: doc.loadError,
    api,
    section: signal<SocketSection>('messages'),
    view: signal<SocketView>('events'),
    connected: signal(false),
    live: signal<LiveStream | null>(null),
    showPings: signal(false),
    composer: { message: signal<SocketMessage>({ format: 'text', text: '', file: '' }), problem: signal(null), sending: signal(false) },
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
  // Closing the tab ends its session: the send's caller goes away and the supervisor disconnects.
  states.get(tabId)?.abort?.abort();
  states.delete(tabId);
});

function asWebSocket(request: { kind?: string }): WebSocketRequest {
  if (request.kind !== 'websocket') throw new Error('This tab shows a WebSocket request, and the request is no longer one.');
  return request as WebSocketRequest;
}

function apiIdOf(tab: Tab): string | undefined {
  const tree = projectByRoot(tab.project);
  if (!tree) return undefined;
  const byId = new Map(tree.items.map((i) => [i.id, i]));
  let item = byId.get(tab.itemId);
  while (item && item.kind !== 'api') item = 'parent' in item ? byId.get(item.parent) : undefined;
  return item?.id;
}

export function editSocket(state: SocketTabState, change: (draft: WebSocketRequest) => WebSocketRequest): void {
  editDraft(state.doc, change);
}

/**
 * Connect: the request's send runs while the session is open; its head and rows fill `live` as
 * they come (the page says which rows it drew, as for an event stream), and its answer, when the
 * session closes, is the finished session.
 */
export async function connect(state: SocketTabState): Promise<void> {
  const draft = state.draft.value ?? (await whenLoaded(state.doc));
  if (!draft || state.connected.value) return;
  const controller = new AbortController();
  state.abort = controller;
  state.connected.value = true;
  state.error.value = null;
  state.live.value = null;
  state.exchange.value = null;
  state.query.result.value = null;
  state.query.error.value = null;
  state.composer.problem.value = null;
  try {
    const exchange = await call('request.send', { project: state.tab.project, request: draft }, {
      signal: controller.signal,
      onChunk: (progress) => {
        onStreamProgress(state.live.value, progress, (stream) => {
          state.live.value = stream;
          state.view.value = 'events';
        });
        const live = state.live.peek();
        if (progress.kind === 'batch' && live) setTimeout(() => void call('request.streamRead', { stream: live.id, n: lastRowNumber(progress.batch) }).catch(() => {}), 0);
      },
    });
    const live = state.live.peek();
    if (exchange.response.stream) live?.finish(exchange.response.stream);
    state.exchange.value = exchange;
  } catch (err) {
    const e = err as WireError;
    state.error.value = { code: e.code, message: e.message };
  } finally {
    state.connected.value = false;
    state.abort = null;
  }
}

/** Disconnect: the sender closes the socket with 1000 and the send answers with the session. */
export function disconnect(state: SocketTabState): void {
  const live = state.live.value;
  if (!state.connected.value) return;
  if (live?.state.value === 'open') {
    if (live.stopping.value) return;
    live.stopping.value = true;
    call('request.stopStream', { stream: live.id }).then(
      ({ stopped }) => void (stopped || state.abort?.abort()),
      () => state.abort?.abort(),
    );
    return;
  }
  // Still connecting: the handshake is cancelled.
  state.abort?.abort();
}

/** Sends `message` over the open session (expanded by the supervisor with the connect's scope); a refusal is shown by the composer. */
export async function sendMessage(state: SocketTabState, message: SocketMessage): Promise<boolean> {
  const live = state.live.value;
  if (!live || live.state.value !== 'open') {
    state.composer.problem.value = 'Connect first: a message goes over an open connection.';
    return false;
  }
  state.composer.sending.value = true;
  state.composer.problem.value = null;
  try {
    await call('request.socketSend', { stream: live.id, message });
    return true;
  } catch (err) {
    state.composer.problem.value = (err as Error).message;
    return false;
  } finally {
    state.composer.sending.value = false;
  }
}
