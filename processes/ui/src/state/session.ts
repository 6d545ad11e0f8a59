/**
 * The session (ARCHITECTURE.md "Session"): the tabs this page had, in order, the active one and
 * each unsaved draft, kept by the supervisor in the workspace's `session.json` and opened again
 * when a page loads (after a reload, or a restart of Parley, whose supervisor has reopened the
 * session's projects). A tab comes back once its project's tree is here, so a big project's tabs
 * never hold up the page; a draft comes back over its document's saved version, its secrets (left
 * out of the session) taken from that version where it holds them.
 */
import { effect } from '@preact/signals';
import { leaveOutSecrets, type KeptDraft } from '../../../../protocol/credentials/draft-secrets.js';
import type { ResOf } from '../../../../protocol/messages.js';
import { MAX_KEPT_DRAFT_CHARS, MAX_KEPT_DRAFTS_CHARS, type SessionDraft, type SessionTab, type SessionTabs } from '../../../../protocol/model/session.js';
import { draftOpeners, editors } from '../editors/registry.js';
import { projectByRoot } from './app.js';
import { draftOf, keptDraftOf, restoreOnLoad, type Draft } from './drafts.js';
import { call } from './rpc.js';
import { activeTabId, tabId, tabs, type Tab, type TabKind } from './tabs.js';
import { toast } from './toasts.js';

/** Tabs whose item is in a project's tree: one that is gone from it is not restored. */
const ITEM_KINDS = new Set<string>(['request', 'api', 'folder', 'mock']);

interface Restoring {
  /** Each restored tab's place in the session, by tab id: a tab restored later goes where it was. */
  order: Map<string, number>;
  waiting: { tab: Tab; draft?: SessionDraft }[];
  active: string | null;
}

let restoring: Restoring | null = null;

/** Takes the last session's tabs: those whose project is here come back now, the others with their project (`projectArrived`). */
export function beginRestore(session: ResOf<'session.get'>): void {
  const order = new Map<string, number>();
  const waiting: Restoring['waiting'] = [];
  session.tabs.forEach((saved, i) => {
    const tab = tabOf(saved);
    if (!tab || order.has(tab.id)) return;
    order.set(tab.id, i);
    waiting.push({ tab, ...(saved.draft ? { draft: saved.draft } : {}) });
  });
  const active = session.active === undefined ? undefined : session.tabs[session.active];
  restoring = { order, waiting, active: active ? tabId(active.kind as TabKind, active.project, active.itemId) : null };
  place();
}

/** A project of the session has its tree now: its tabs come back. */
export function projectArrived(): void {
  place();
}

/** Every project of the session has answered: tabs still waiting (their project did not open) are dropped, and the session is kept from now on. */
export function finishRestore(): void {
  place();
  restoring = null;
  keepSession();
}

function tabOf(saved: SessionTab): Tab | null {
  // The kinds this page has an editor for (a Map: a kind from the file is only a name).
  if (!editors.has(saved.kind as TabKind)) return null;
  const kind = saved.kind as TabKind;
  return {
    id: tabId(kind, saved.project, saved.itemId),
    kind,
    project: saved.project,
    itemId: saved.itemId,
    title: saved.title,
    ...(saved.method ? { method: saved.method } : {}),
    ...(saved.requestKind ? { requestKind: saved.requestKind } : {}),
    ...(saved.preview ? { preview: true } : {}),
  };
}

function place(): void {
  const state = restoring;
  if (!state) return;
  const ready = state.waiting.filter(({ tab }) => tab.project === '' || projectByRoot(tab.project));
  if (ready.length === 0) return;
  state.waiting = state.waiting.filter((w) => !ready.includes(w));
  let list = tabs.value;
  for (const { tab: kept, draft } of ready) {
    if (list.some((t) => t.id === kept.id)) continue;
    const item = ITEM_KINDS.has(kept.kind) ? projectByRoot(kept.project)!.items.find((i) => i.id === kept.itemId) : undefined;
    if (ITEM_KINDS.has(kept.kind) && !item) {
      if (draft) toast('warning', `Your unsaved edits to ${kept.title} could not be restored: it is no longer in its project.`, 15_000);
      continue;
    }
    // A request tab of a session kept before tabs carried their kind takes it from its row.
    const tab = item?.kind === 'request' && item.requestKind && !kept.requestKind ? { ...kept, requestKind: item.requestKind } : kept;
    const rank = state.order.get(tab.id)!;
    // Before the first tab that came later in the session; tabs opened since the page loaded stay last.
    const at = list.findIndex((t) => (state.order.get(t.id) ?? Infinity) > rank);
    list = at < 0 ? [...list, tab] : [...list.slice(0, at), tab, ...list.slice(at)];
    if (draft) reopenDraft(tab, draft);
  }
  tabs.value = list;
  // The session's active tab, unless the user has picked one meanwhile.
  if (state.active && list.some((t) => t.id === state.active) && (activeTabId.value === null || state.order.has(activeTabId.value))) activeTabId.value = state.active;
  else if (activeTabId.value === null && list.length > 0) activeTabId.value = list[0]!.id;
}

/** The draft is opened now, not when its tab is first shown: it is dirty (kept, asked about on close) from the start. */
function reopenDraft(tab: Tab, draft: SessionDraft): void {
  const open = draftOpeners.get(tab.kind);
  if (!open) return;
  restoreOnLoad(tab.id, draft);
  open(tab);
}

// --- keeping the session --------------------------------------------------------------------

/** Changes since the supervisor last acknowledged the session, and whether every edit fitted in it. */
let changes = 0;
let acknowledged = -1;
let allKept = false;
let timer: ReturnType<typeof setTimeout> | null = null;
let keeping = false;
/** False once the user quit with Don't save. */
let keepDrafts = true;

/**
 * Whether a reload or a closed page loses nothing: the supervisor holds the session as it is now,
 * with every unsaved edit in it and no typed secret left out of it.
 */
export function sessionHoldsEdits(): boolean {
  return keeping && timer === null && acknowledged === changes && allKept;
}

function keepSession(): void {
  if (keeping) return;
  keeping = true;
  // Any change to the tabs, the active one or a draft; sent together a moment later.
  effect(() => {
    for (const t of tabs.value) {
      const d = draftOf(t.id);
      if (d?.dirty.value) void d.draft.value;
      void d?.restored.value;
    }
    void activeTabId.value;
    changes++;
    schedule();
  });
  addEventListener('pagehide', () => sendNow());
}

/** After a reconnect: the supervisor hears the session again (a save may have been lost with the link). */
export function sessionReconnected(): void {
  if (!keeping) return;
  changes++;
  schedule();
}

function schedule(): void {
  if (timer !== null) return;
  timer = setTimeout(sendNow, 300);
}

function sendNow(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  const at = changes;
  const { session, complete } = currentSession();
  allKept = complete;
  call('session.save', session).then(
    () => void (acknowledged = Math.max(acknowledged, at)),
    () => {},
  );
}

/**
 * Quitting with Don't save (Electron's dialog): the session keeps the tabs but not their edits, so
 * the next start does not bring back what the user chose to drop. Waits at most `ms` for the answer.
 */
export async function keepSessionWithoutDrafts(ms = 2000): Promise<void> {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  // From now on: the page is going, and any later save (pagehide's) must not bring them back either.
  keepDrafts = false;
  await Promise.race([call('session.save', currentSession().session).catch(() => {}), new Promise((resolve) => setTimeout(resolve, ms))]);
}

/** What the page has open now, each dirty draft with its secrets left out; `complete` false when a draft did not fit. */
function currentSession(): { session: SessionTabs; complete: boolean } {
  let budget = MAX_KEPT_DRAFTS_CHARS;
  let complete = true;
  const list = tabs.value.map((t): SessionTab => {
    const saved: SessionTab = {
      kind: t.kind,
      project: t.project,
      itemId: t.itemId,
      title: t.title,
      ...(t.method ? { method: t.method } : {}),
      ...(t.requestKind ? { requestKind: t.requestKind } : {}),
      ...(t.preview ? { preview: true } : {}),
    };
    const d = draftOf(t.id);
    const draft = d?.dirty.value ? keptDraft(d) : keptDraftOf(t.id);
    if (!draft || !keepDrafts) return saved;
    const size = d?.dirty.value ? keptOf(d).size : JSON.stringify(draft.value).length;
    if (size > MAX_KEPT_DRAFT_CHARS || size > budget) {
      complete = false;
      return saved;
    }
    budget -= size;
    // A secret typed on this page would be lost (what the last session left out is lost already).
    if (d?.dirty.value && keptOf(d).kept.leftOut.length > 0) complete = false;
    return { ...saved, draft };
  });
  const active = list.findIndex((_, i) => tabs.value[i]!.id === activeTabId.value);
  return { session: { tabs: list, ...(active >= 0 ? { active } : {}) }, complete };
}

/** A dirty draft as the session keeps it, worked out once per edit (a draft value is never changed in place). */
const kept = new WeakMap<object, { saved: unknown; kept: KeptDraft<unknown>; size: number }>();

function keptOf(d: Draft<unknown>): { kept: KeptDraft<unknown>; size: number } {
  const value = d.draft.value as object;
  const known = kept.get(value);
  if (known && known.saved === d.saved.value) return known;
  const made = leaveOutSecrets(value, d.saved.value);
  const entry = { saved: d.saved.value, kept: made, size: JSON.stringify(made.value).length };
  kept.set(value, entry);
  return entry;
}

function keptDraft(d: Draft<unknown>): SessionDraft {
  const { kept: made } = keptOf(d);
  // A restored draft still lacks what the last session left out until it is typed again.
  const before = d.restored.value?.leftOut ?? [];
  return { value: made.value, leftOut: [...new Set([...before, ...made.leftOut])] };
}

