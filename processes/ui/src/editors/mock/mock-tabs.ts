/**
 * Per-tab state of open mock editors, kept outside the components so switching tabs keeps the
 * draft, the selection and the log. Live updates (`mock.state`, `mock.logged`) land here.
 */
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { ResOf } from '../../../../../protocol/messages.js';
import type { Mock, MockLogEntry, MockOperation, MockResponse } from '../../../../../protocol/model/mock.js';
import { attempt, call } from '../../state/rpc.js';
import { onTabClosed, type Tab } from '../../state/tabs.js';
import { accept, editDraft, openDraft, reload, type Draft } from '../../state/drafts.js';
import { saveTab } from '../../state/draft-actions.js';
import { toast } from '../../state/toasts.js';
import { LOG_BYTES_KEPT, LOG_ENTRIES_KEPT, logEntryBytes, newestWithin } from '../../../../../protocol/mock-log-bounds.js';

export type MockView = ResOf<'mocks.get'>;
export type BottomView = 'log' | 'findings';

/** Each entry's size, worked out once: a tab holds what the supervisor keeps, in entries and bytes. */
const entrySizes = new WeakMap<MockLogEntry, number>();
function sizeOf(entry: MockLogEntry): number {
  let size = entrySizes.get(entry);
  if (size === undefined) entrySizes.set(entry, (size = logEntryBytes(entry)));
  return size;
}

/** The newest of `entries` within the bounds of a mock's log (protocol/mock-log-bounds.ts). */
function keptOf(entries: MockLogEntry[]): MockLogEntry[] {
  return newestWithin(entries, sizeOf, LOG_ENTRIES_KEPT, LOG_BYTES_KEPT);
}

export interface MockTabState {
  tab: Tab;
  view: Signal<MockView | null>;
  /** The mock's draft in the shared draft store (drafts.ts). */
  doc: Draft<Mock>;
  saved: Signal<Mock | null>;
  draft: Signal<Mock | null>;
  dirty: ReadonlySignal<boolean>;
  loadError: Signal<string | null>;
  opId: Signal<string | null>;
  responseId: Signal<string | null>;
  bottom: Signal<BottomView>;
  /** The entries shown, oldest first: the newest page, then older pages as the user asks. */
  log: Signal<MockLogEntry[]>;
  /** The supervisor keeps entries older than the oldest shown. */
  logMore: Signal<boolean>;
  logLoading: Signal<boolean>;
  logSelected: Signal<string | null>;
  busy: Signal<'' | 'start' | 'stop' | 'save' | 'reset'>;
}

const states = new Map<string, MockTabState>();

export function mockTabState(tab: Tab): MockTabState {
  let state = states.get(tab.id);
  if (state) return state;
  const view = signal<MockView | null>(null);
  const log = signal<MockLogEntry[]>([]);
  const logMore = signal(false);
  // Live changes come as `mock.state` events (onMockState), not as `project.changed`.
  const doc = openDraft<Mock>(tab.id, {
    load: async () => {
      const [next, page] = await Promise.all([call('mocks.get', { project: tab.project, id: tab.itemId }), call('mocks.log', { project: tab.project, id: tab.itemId })]);
      log.value = page.entries;
      logMore.value = page.more;
      view.value = next;
      return next.mock ?? null;
    },
    save: async (mock) => {
      const next = await call('mocks.save', { project: tab.project, mock });
      view.value = next;
      toast('success', next.running ? `${mock.name} saved and applied on port ${next.running.port}.` : `${mock.name} saved.`);
      return next.mock ?? null;
    },
    label: (): string => doc.draft.value?.name ?? tab.title,
  });
  state = {
    tab,
    view,
    doc,
    saved: doc.saved,
    draft: doc.draft,
    dirty: doc.dirty,
    loadError: doc.loadError,
    opId: signal(null),
    responseId: signal(null),
    bottom: signal<BottomView>('log'),
    log,
    logMore,
    logLoading: signal(false),
    logSelected: signal(null),
    busy: signal(''),
  };
  states.set(tab.id, state);
  const s = state;
  // The selection follows the draft wherever it comes from (load, save, reload, an edit).
  doc.draft.subscribe(() => keepSelection(s));
  return state;
}

onTabClosed((tabId) => states.delete(tabId));

/** The open tabs of one mock (a mock is open at most once, but be general). */
function statesOf(project: string, mock: string): MockTabState[] {
  return [...states.values()].filter((s) => s.tab.project === project && s.tab.itemId === mock);
}

/** Reads the mock again, dropping unsaved edits. */
export function load(state: MockTabState): Promise<void> {
  return reload(state.doc);
}

/** A new view from the supervisor: the draft follows it unless it holds unsaved edits. */
export function applyView(state: MockTabState, view: MockView): void {
  state.view.value = view;
  accept(state.doc, view.mock ?? null);
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
  for (const state of statesOf(project, mock)) state.log.value = keptOf([...state.log.value, ...entries]);
}

/** The page of entries before the oldest shown, added under them. */
export async function loadOlderLog(state: MockTabState): Promise<void> {
  const oldest = state.log.value[0];
  if (!oldest || state.logLoading.value) return;
  state.logLoading.value = true;
  try {
    const page = await attempt('mocks.log', { project: state.tab.project, id: state.tab.itemId, before: oldest.id });
    if (!page) return;
    const merged = [...page.entries, ...state.log.value];
    const kept = keptOf(merged);
    state.log.value = kept;
    // A tab holds as much as a mock's log keeps: past that, older pages would only push out newer entries.
    state.logMore.value = page.more && kept.length === merged.length;
  } finally {
    state.logLoading.value = false;
  }
}

export function edit(state: MockTabState, change: (mock: Mock) => Mock): void {
  editDraft(state.doc, change);
}

export function editOperation(state: MockTabState, opId: string, change: (op: MockOperation) => MockOperation): void {
  edit(state, (m) => ({ ...m, operations: m.operations.map((op) => (op.id === opId ? change(op) : op)) }));
}

export function editResponse(state: MockTabState, opId: string, responseId: string, change: (r: MockResponse) => MockResponse): void {
  editOperation(state, opId, (op) => ({ ...op, responses: op.responses.map((r) => (r.id === responseId ? change(r) : r)) }));
}

export async function save(state: MockTabState): Promise<boolean> {
  if (state.busy.value) return false;
  state.busy.value = 'save';
  try {
    return await saveTab(state.tab.id);
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
