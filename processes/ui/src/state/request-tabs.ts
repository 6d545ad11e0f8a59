/**
 * An HTTP request tab's state (kind-tabs.ts has what every kind's tab has): the request's
 * sections, what it inherits, the response pane's chosen view, Send and Stop.
 */
import type { BodyMode } from '../editors/response/BodyView.js';
import { signal, type Signal } from '@preact/signals';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import type { Request } from '../../../../protocol/model/request.js';
import type { Exchange, ResendResult } from '../../../../protocol/model/history.js';
import type { WireError } from '../../../../protocol/errors.js';
import { editDraft, whenLoaded } from './drafts.js';
import { saveTab } from './draft-actions.js';
import { call } from './rpc.js';
import { askSecretStore } from '../components/SecretStoreDialog.js';
import type { Tab } from './tabs.js';
import { kindTabState, runSend, stopSend, type KindTabState } from './kind-tabs.js';

export type Section = 'params' | 'body' | 'headers' | 'auth' | 'assertions' | 'captures' | 'settings';
export type ResponseView = 'body' | 'events' | 'assertions' | 'captures' | 'headers' | 'cookies' | 'redirects' | 'timing' | 'raw' | 'query' | 'history';

export type { QueryState } from './kind-tabs.js';

export interface RequestTabState extends KindTabState<Request> {
  /** What the request takes from its folders and API (auth, headers, variables), each with where it is set. */
  inherited: Signal<InheritedSettings | null>;
  section: Signal<Section>;
  responseView: Signal<ResponseView>;
  /** An HTML body shown as its source (pretty) or as the inert preview. */
  bodyMode: Signal<BodyMode>;
  /** The Events tab shows comment lines and `retry:` fields too. */
  showStreamOthers: Signal<boolean>;
}

export function requestTabState(tab: Tab): RequestTabState {
  return kindTabState<Request, RequestTabState>(tab, () => {
    const inherited = signal<InheritedSettings | null>(null);
    const section = signal<Section>('params');
    let opened = false;
    return {
      kind: 'http',
      alsoLoad: async () => {
        inherited.value = await call('tree.inherited', { project: tab.project, item: { kind: 'request', id: tab.itemId } }).catch(() => inherited.value);
      },
      onLoad: (request) => {
        // A request with a body opens on its Body section.
        if (!opened && request.body.kind !== 'none' && request.method !== 'GET') section.value = 'body';
        opened = true;
      },
      extend: (common) => ({
        ...common,
        inherited,
        section,
        responseView: signal<ResponseView>('body'),
        bodyMode: signal<BodyMode>('pretty'),
        showStreamOthers: signal(true),
      }),
    };
  });
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
    await runInTab(state, (options) => call('request.send', { project: state.tab.project, request: draft }, options).then((exchange) => ({ exchange })));
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
  const result = await runInTab(state, (options) =>
    call('history.resend', { project: state.tab.project, id: entryId, ...(request ? { request } : {}) }, options),
  );
  if (!result.exchange.response.stream) state.responseView.value = 'body';
  return result;
}

/** A send in the tab: an event stream shows on the Events tab as its head arrives. */
function runInTab<R extends { exchange: Exchange }>(state: RequestTabState, start: Parameters<typeof runSend<Request, R>>[1]): Promise<R> {
  return runSend(state, start, () => (state.responseView.value = 'events'));
}

/**
 * Stop: an open event stream is stopped by the supervisor, and the send answers with the stream
 * ended as stopped (never an error); any other send is cancelled.
 */
export const stop: (state: RequestTabState) => void = stopSend;
