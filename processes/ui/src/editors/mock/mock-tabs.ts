/**
 * Per-tab state of open mock editors, kept outside the components so switching tabs keeps the
 * draft, the selection and the log. Live updates (`mock.state`, `mock.logged`) land here.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { ResOf } from '../../../../../protocol/messages.js';
import type { Mock, MockLogEntry, MockOperation, MockResponse } from '../../../../../protocol/model/mock.js';
import { attempt, call } from '../../state/rpc.js';
import { onTabClosed, setDirty, type Tab } from '../../state/tabs.js';
import { toast } from '../../state/toasts.js';

export type MockView = ResOf<'mocks.get'>;
export type BottomView = 'log' | 'findings';

/** The UI shows the newest entries, like the supervisor keeps them. */
const LOG_SHOWN = 500;

export interface MockTabState {
  tab: Tab;
  view: Signal<MockView | null>;
  saved: Signal<Mock | null>;
  draft: Signal<Mock | null>;
  dirty: ReadonlySignal<boolean>;
  loadError: Signal<string>;
  /** The files changed on disk while this tab had unsaved edits. */
  changedOnDisk: Signal<boolean>;
  opId: Signal<string | null>;
  responseId: Signal<string | null>;
  bottom: Signal<BottomView>;
  log: Signal<MockLogEntry[]>;
  logSelected: Signal<string | null>;
  busy: Signal<'' | 'start' | 'stop' | 'save' | 'reset'>;
}

const states = new Map<string, MockTabState>();

export function mockTabState(tab: Tab): MockTabState {
  let state = states.get(tab.id);
  if (state) return state;
  const saved = signal<Mock | null>(null);
  const draft = signal<Mock | null>(null);
  state = {
    tab,
    view: signal(null),
    saved,
    draft,
    dirty: computed(() => draft.value !== null && saved.value !== null && JSON.stringify(draft.value) !== JSON.stringify(saved.value)),
    loadError: signal(''),
    changedOnDisk: signal(false),
    opId: signal(null),
    responseId: signal(null),
    bottom: signal<BottomView>('log'),
    log: signal([]),
    logSelected: signal(null),
    busy: signal(''),
  };
  states.set(tab.id, state);
  void load(state);
  return state;
}

onTabClosed((tabId) => states.delete(tabId));

/** The open tabs of one mock (a mock is open at most once, but be general). */
function statesOf(project: string, mock: string): MockTabState[] {
  return [...states.values()].filter((s) => s.tab.project === project && s.tab.itemId === mock);
}

export async function load(state: MockTabState): Promise<void> {
  try {
    const [view, log] = await Promise.all([
      call('mocks.get', { project: state.tab.project, id: state.tab.itemId }),
      call('mocks.log', { project: state.tab.project, id: state.tab.itemId }),
    ]);
    state.loadError.value = '';
    state.log.value = log.slice(-LOG_SHOWN);
    applyView(state, view, true);
  } catch (err) {
    state.loadError.value = (err as Error).message;
  }
}

/** A new view from the supervisor: the draft follows it unless it holds unsaved edits. */
export function applyView(state: MockTabState, view: MockView, force = false): void {
  state.view.value = view;
  const mock = view.mock ?? null;
  const same = JSON.stringify(mock) === JSON.stringify(state.saved.value);
  if (force || !state.dirty.value) {
    state.saved.value = mock;
    state.draft.value = mock ? structuredClone(mock) : null;
    state.changedOnDisk.value = false;
    setDirty(state.tab.id, false);
  } else if (!same) state.changedOnDisk.value = true;
  keepSelection(state);
}

/** Keeps the selected operation and response pointing at something that exists. */
function keepSelection(state: MockTabState): void {
  const mock = state.draft.value;
  if (!mock) return;
  const op = mock.operations.find((o) => o.id === state.opId.value) ?? [...mock.operations].sort(byPath)[0];
  state.opId.value = op?.id ?? null;
  if (!op) return;
  if (!op.responses.some((r) => r.id === state.responseId.value)) state.responseId.value = op.responses[0]?.id ?? null;
}

export function onMockState(project: string, mock: string, view: MockView): void {
  for (const state of statesOf(project, mock)) applyView(state, view);
}

export function onMockLogged(project: string, mock: string, entries: MockLogEntry[]): void {
  for (const state of statesOf(project, mock)) {
    const next = [...state.log.value, ...entries];
    state.log.value = next.length > LOG_SHOWN ? next.slice(-LOG_SHOWN) : next;
  }
}

export function edit(state: MockTabState, change: (mock: Mock) => Mock): void {
  const current = state.draft.value;
  if (!current) return;
  state.draft.value = change(current);
  setDirty(state.tab.id, JSON.stringify(state.draft.value) !== JSON.stringify(state.saved.value));
  keepSelection(state);
}

export function editOperation(state: MockTabState, opId: string, change: (op: MockOperation) => MockOperation): void {
  edit(state, (m) => ({ ...m, operations: m.operations.map((op) => (op.id === opId ? change(op) : op)) }));
}

export function editResponse(state: MockTabState, opId: string, responseId: string, change: (r: MockResponse) => MockResponse): void {
  editOperation(state, opId, (op) => ({ ...op, responses: op.responses.map((r) => (r.id === responseId ? change(r) : r)) }));
}

export async function save(state: MockTabState): Promise<boolean> {
  const mock = state.draft.value;
  if (!mock || state.busy.value) return false;
  state.busy.value = 'save';
  try {
    const view = await call('mocks.save', { project: state.tab.project, mock });
    applyView(state, view, true);
    toast('success', view.running ? `${mock.name} saved and applied on port ${view.running.port}.` : `${mock.name} saved.`);
    return true;
  } catch (err) {
    toast('error', (err as Error).message);
    return false;
  } finally {
    state.busy.value = '';
  }
}

/** Start serves what is saved: unsaved edits are saved first. */
export async function startOrStop(state: MockTabState): Promise<void> {
  if (state.busy.value) return;
  const running = !!state.view.value?.running;
  if (!running && state.dirty.value && !(await save(state))) return;
  state.busy.value = running ? 'stop' : 'start';
  try {
    const view = await attempt(running ? 'mocks.stop' : 'mocks.start', { project: state.tab.project, id: state.tab.itemId });
    if (view) applyView(state, view);
  } finally {
    state.busy.value = '';
  }
}

export async function resetState(state: MockTabState): Promise<void> {
  state.busy.value = 'reset';
  try {
    const done = await attempt('mocks.reset', { project: state.tab.project, id: state.tab.itemId });
    if (done) toast('info', 'Every scenario is back at Started, every In order turn at the first response.');
  } finally {
    state.busy.value = '';
  }
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY'];

/** By path, then in the usual method order, so an API's operations read as its paths do. */
export function byPath(a: MockOperation, b: MockOperation): number {
  const rank = (m: string) => METHOD_ORDER.indexOf(m) + 1 || METHOD_ORDER.length + 1;
  return a.path.localeCompare(b.path) || rank(a.method) - rank(b.method) || a.name.localeCompare(b.name);
}

/** A random id in the project's id alphabet, for responses made in the editor. */
export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return `${prefix}_${[...bytes].map((b) => alphabet[b & 63]).join('')}`;
}
