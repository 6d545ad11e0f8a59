/**
 * A WebSocket request's tab state (docs/websocket.md): what every request tab has (kind-tabs.ts:
 * the draft, the send, here the session from Connect to its close, its head and rows in a
 * LiveStream as an event stream's, then the finished session), and the composer, the chosen
 * sections and views.
 */
import { signal, type Signal } from '@preact/signals';
import type { WireError } from '../../../../../protocol/errors.js';
import type { SocketMessage, WebSocketRequest } from '../../../../../protocol/model/websocket.js';
import { editDraft, whenLoaded } from '../../state/drafts.js';
import { call } from '../../state/rpc.js';
import type { Tab } from '../../state/tabs.js';
import { kindTabState, runSend, stopSend, type KindTabState } from '../../state/kind-tabs.js';

export type SocketSection = 'messages' | 'headers' | 'auth' | 'assertions' | 'settings';
export type SocketView = 'events' | 'headers' | 'timing' | 'raw' | 'query';

/** `sending` (kind-tabs.ts) is the session: connecting or connected, until it closes. */
export interface SocketTabState extends KindTabState<WebSocketRequest> {
  section: Signal<SocketSection>;
  view: Signal<SocketView>;
  /** The Events view shows pings and pongs too. */
  showPings: Signal<boolean>;
  /** The message being written, and why the last one was not sent. */
  composer: { message: Signal<SocketMessage>; problem: Signal<string | null>; sending: Signal<boolean> };
}

export function socketTabState(tab: Tab): SocketTabState {
  return kindTabState<WebSocketRequest, SocketTabState>(tab, () => ({
    kind: 'websocket',
    extend: (common) => ({
      ...common,
      section: signal<SocketSection>('messages'),
      view: signal<SocketView>('events'),
      showPings: signal(false),
      composer: { message: signal<SocketMessage>({ format: 'text', text: '', file: '' }), problem: signal(null), sending: signal(false) },
    }),
  }));
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
  if (!draft || state.sending.value) return;
  // A new session: the last one's answer and the composer's complaint go.
  state.exchange.value = null;
  state.composer.problem.value = null;
  try {
    await runSend(
      state,
      (options) => call('request.send', { project: state.tab.project, request: draft }, options).then((exchange) => ({ exchange })),
      () => (state.view.value = 'events'),
    );
  } catch (err) {
    const e = err as WireError;
    state.error.value = { code: e.code, message: e.message };
  }
}

/** Disconnect: the sender closes the socket with 1000 and the send answers with the session; a handshake under way is cancelled. */
export const disconnect: (state: SocketTabState) => void = stopSend;

/** Ping: a ping frame over the open session; its row and the pong's show, pings and pongs shown from now on. */
export async function ping(state: SocketTabState): Promise<void> {
  const live = state.live.value;
  if (!live || live.state.value !== 'open') return;
  state.showPings.value = true;
  state.composer.problem.value = null;
  try {
    await call('request.socketPing', { stream: live.id });
  } catch (err) {
    state.composer.problem.value = (err as Error).message;
  }
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
