/**
 * Per-tab state of open request editors, kept outside the components so switching tabs keeps
 * the draft, the last response and the chosen sub-tabs.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { Request } from '../../../../protocol/model/request.js';
import type { Exchange } from '../../../../protocol/model/history.js';
import type { WireError } from '../../../../protocol/errors.js';
import { call } from './rpc.js';
import { onTabClosed, retitleTab, setDirty, type Tab } from './tabs.js';
import { toast } from './toasts.js';

export type Section = 'params' | 'body' | 'headers' | 'auth' | 'settings';
export type ResponseView = 'body' | 'preview' | 'headers' | 'cookies' | 'redirects' | 'timing' | 'raw' | 'history';

export interface RequestTabState {
  tab: Tab;
  draft: Signal<Request | null>;
  saved: Signal<Request | null>;
  dirty: ReadonlySignal<boolean>;
  loadError: Signal<string | null>;
  section: Signal<Section>;
  responseView: Signal<ResponseView>;
  sending: Signal<boolean>;
  exchange: Signal<Exchange | null>;
  error: Signal<WireError | null>;
  abort: AbortController | null;
}

const states = new Map<string, RequestTabState>();

export function requestTabState(tab: Tab): RequestTabState {
  let state = states.get(tab.id);
  if (state) return state;
  const draft = signal<Request | null>(null);
  const saved = signal<Request | null>(null);
  state = {
    tab,
    draft,
    saved,
    dirty: computed(() => draft.value !== null && saved.value !== null && JSON.stringify(draft.value) !== JSON.stringify(saved.value)),
    loadError: signal(null),
    section: signal<Section>('params'),
    responseView: signal<ResponseView>('body'),
    sending: signal(false),
    exchange: signal(null),
    error: signal(null),
    abort: null,
  };
  states.set(tab.id, state);
  void load(state);
  return state;
}

onTabClosed((tabId) => {
  states.get(tabId)?.abort?.abort();
  states.delete(tabId);
});

async function load(state: RequestTabState): Promise<void> {
  try {
    const request = await call('request.get', { project: state.tab.project, id: state.tab.itemId });
    state.saved.value = request;
    state.draft.value = structuredClone(request);
    if (request.body.kind !== 'none' && request.method !== 'GET') state.section.value = 'body';
  } catch (err) {
    state.loadError.value = (err as Error).message;
  }
}

/** Called when the file changed on disk: take the new version unless the user is mid-edit. */
export async function refreshIfClean(tabId: string): Promise<void> {
  const state = states.get(tabId);
  if (!state || state.dirty.value) return;
  await load(state);
}

export function edit(state: RequestTabState, change: (draft: Request) => Request): void {
  if (!state.draft.value) return;
  state.draft.value = change(state.draft.value);
  setDirty(state.tab.id, state.dirty.value);
}

export async function save(state: RequestTabState): Promise<boolean> {
  const draft = state.draft.value;
  if (!draft) return false;
  try {
    const saved = await call('request.save', { project: state.tab.project, request: draft });
    state.saved.value = saved;
    state.draft.value = structuredClone(saved);
    setDirty(state.tab.id, false);
    retitleTab(state.tab.id, saved.name, saved.method);
    return true;
  } catch (err) {
    toast('error', (err as Error).message);
    return false;
  }
}

export async function send(state: RequestTabState): Promise<void> {
  const draft = state.draft.value;
  if (!draft || state.sending.value) return;
  const controller = new AbortController();
  state.abort = controller;
  state.sending.value = true;
  state.error.value = null;
  try {
    const exchange = await call('request.send', { project: state.tab.project, request: draft }, { signal: controller.signal });
    state.exchange.value = exchange;
  } catch (err) {
    const e = err as WireError;
    state.error.value = { code: e.code, message: e.message };
  } finally {
    state.sending.value = false;
    state.abort = null;
  }
}

export function stop(state: RequestTabState): void {
  state.abort?.abort();
}
