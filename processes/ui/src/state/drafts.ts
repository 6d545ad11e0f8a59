/**
 * One draft model for every editor (request, mock, API, environments, project): the saved
 * version and the user's draft of a document, as signals keyed by tab id, outside the
 * components, so switching tabs keeps an edit. Dirty is derived (draft differs from saved).
 * When the document changes elsewhere (a save of ours, a definition update, a file edited on
 * disk) a clean draft takes the new version; a dirty one keeps the edit and holds the new
 * version as `incoming` until the user picks Reload or Keep mine.
 */
import { computed, effect, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { refillSecrets } from '../../../../protocol/credentials/draft-secrets.js';
import type { ProjectTree } from '../../../../protocol/model/project.js';
import type { SessionDraft } from '../../../../protocol/model/session.js';
import type { Workspace } from '../../../../protocol/model/workspace.js';

export interface DraftSource<T> {
  /** Reads the saved version. */
  load(): Promise<T | null>;
  /** Saves `value`; resolves to what is now saved (the supervisor may normalise it). */
  save(value: T): Promise<T | null>;
  /** Whether a `project.changed` event concerns this document: it is then read again. */
  concerns?(project: string, changed: string[], tree: ProjectTree): boolean;
  /** The document as a `workspace.changed` event has it, for documents kept in the workspace. */
  fromWorkspace?(ws: Workspace): T;
  /** What the close and quit dialogs call the document. */
  label(): string;
}

export interface Draft<T> {
  key: string;
  source: DraftSource<T>;
  saved: Signal<T | null>;
  draft: Signal<T | null>;
  dirty: ReadonlySignal<boolean>;
  loadError: Signal<string | null>;
  /** A newer saved version that arrived while the draft had edits. */
  incoming: Signal<T | null>;
  saving: Signal<boolean>;
  /** The edit came back from the last session (state/session.ts); `leftOut`: the typed secrets it could not keep. */
  restored: Signal<{ leftOut: string[] } | null>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const drafts = signal<ReadonlyMap<string, Draft<unknown>>>(new Map());

/** Drafts whose document changed while a save of theirs was on its way: read again once it lands. */
const changedWhileSaving = new WeakSet<Draft<unknown>>();

/** Drafts the last session kept, by key, waiting for their document's first load. */
const keptDrafts = new Map<string, SessionDraft>();

/**
 * A draft the last session kept, to be taken over the saved version when its document first
 * loads: its secrets, left out of the session, come back from that version where it has them.
 */
export function restoreOnLoad(key: string, kept: SessionDraft): void {
  keptDrafts.set(key, kept);
}

/** A kept draft still waiting for its document (the session keeps it meanwhile). */
export function keptDraftOf(key: string): SessionDraft | undefined {
  return keptDrafts.get(key);
}

/** Keys (tab ids) of drafts with unsaved edits. */
export const dirtyKeys = computed(() => new Set([...drafts.value.values()].filter((d) => d.dirty.value).map((d) => d.key)));

/** The draft under `key`, made (and loaded) the first time. */
export function openDraft<T>(key: string, source: DraftSource<T>): Draft<T> {
  const existing = drafts.value.get(key);
  if (existing) return existing as Draft<T>;
  const saved = signal<T | null>(null);
  const draft = signal<T | null>(null);
  const d: Draft<T> = {
    key,
    source,
    saved,
    draft,
    dirty: computed(() => draft.value !== null && saved.value !== null && !same(draft.value, saved.value)),
    loadError: signal(null),
    incoming: signal(null),
    saving: signal(false),
    restored: signal(null),
  };
  drafts.value = new Map([...drafts.value, [key, d as Draft<unknown>]]);
  void reload(d);
  return d;
}

/**
 * The draft once its first load has answered (a key pressed right after a tab opened acts on the
 * request, not on nothing); null when the load failed (the editor says why).
 */
export function whenLoaded<T>(d: Draft<T>): Promise<T | null> {
  return new Promise((resolve) => {
    const stop = effect(() => {
      if (d.draft.value === null && d.loadError.value === null) return;
      resolve(d.draft.value);
      // The effect's first run is inside `effect()`, before `stop` exists: stop it a moment later.
      queueMicrotask(() => stop());
    });
  });
}

export function draftOf(key: string): Draft<unknown> | undefined {
  return drafts.value.get(key);
}

export function dropDraft(key: string): void {
  keptDrafts.delete(key);
  if (!drafts.value.has(key)) return;
  const next = new Map(drafts.value);
  next.delete(key);
  drafts.value = next;
}

export function editDraft<T>(d: Draft<T>, change: (value: T) => T): void {
  if (d.draft.value === null) return;
  d.draft.value = change(d.draft.value);
}

/** Reads the saved version again and takes it, dropping any edit. */
export async function reload<T>(d: Draft<T>): Promise<void> {
  try {
    const value = await d.source.load();
    d.loadError.value = null;
    take(d, value);
    const kept = keptDrafts.get(d.key);
    if (kept && value !== null) {
      keptDrafts.delete(d.key);
      d.draft.value = refillSecrets(kept.value as T, value);
      d.restored.value = { leftOut: kept.leftOut };
    }
  } catch (err) {
    d.loadError.value = (err as Error).message;
  }
}

/** Reads the saved version again and offers it (see `accept`). */
export async function refreshDraft<T>(d: Draft<T>): Promise<void> {
  if (d.saving.value) {
    // The save's answer may predate this change (a file edited on disk just after our write): look again once it lands.
    changedWhileSaving.add(d as Draft<unknown>);
    return;
  }
  try {
    accept(d, await d.source.load());
  } catch {
    // Gone or unreadable now: the tree shows that; the draft stays as the user left it.
  }
}

/** A saved version from elsewhere: a clean draft takes it, a dirty one holds it as `incoming`. */
export function accept<T>(d: Draft<T>, value: T | null): void {
  if (d.saving.value || same(value, d.saved.value)) return;
  if (!d.dirty.value || same(value, d.draft.value)) take(d, value);
  else d.incoming.value = value;
}

function take<T>(d: Draft<T>, value: T | null): void {
  d.saved.value = value;
  d.draft.value = value === null ? null : structuredClone(value);
  d.incoming.value = null;
  d.restored.value = null;
}

/** The banner's Reload: the version on disk replaces the edit. */
export function takeIncoming<T>(d: Draft<T>): void {
  if (d.incoming.value !== null) take(d, d.incoming.value);
}

/** The banner's Keep mine: the edit stays, to be saved over the version on disk. */
export function keepMine<T>(d: Draft<T>): void {
  if (d.incoming.value === null) return;
  d.saved.value = d.incoming.value;
  d.incoming.value = null;
}

/** Saves the draft; errors propagate to the caller (which shows them). */
export async function saveDraft<T>(d: Draft<T>): Promise<T | null> {
  const value = d.draft.value;
  if (value === null || d.saving.value) return null;
  d.saving.value = true;
  try {
    const saved = await d.source.save(value);
    if (d.draft.value === value) take(d, saved);
    else {
      // Typed while the save was on its way: the saved version moves on, the newer edit stays.
      d.saved.value = saved;
      d.incoming.value = null;
    }
    return saved;
  } finally {
    d.saving.value = false;
    if (changedWhileSaving.delete(d as Draft<unknown>)) void refreshDraft(d);
  }
}

/** `project.changed`: every draft the change concerns reads its document again. */
export function onProjectChanged(tree: ProjectTree, changed: string[]): void {
  for (const d of drafts.value.values()) if (d.source.concerns?.(tree.root, changed, tree)) void refreshDraft(d);
}

/** `workspace.changed`: drafts of workspace documents take (or are offered) the new version. */
export function onWorkspaceChanged(ws: Workspace): void {
  for (const d of drafts.value.values()) if (d.source.fromWorkspace) accept(d, d.source.fromWorkspace(ws));
}
