/**
 * The shell's layout: whether the sidebar shows, and the sizes of the resizable panes (the
 * sidebar, the request / response split, the mock log). Sizes are kept in the workspace's
 * preferences, so each workspace remembers its own; a drag shows at once and is saved when it ends.
 */
import { computed, signal } from '@preact/signals';
import type { PaneSizes } from '../../../../protocol/model/workspace.js';
import { workspace } from './app.js';
import { attempt } from './rpc.js';

export type Pane = keyof PaneSizes;

export const sidebarHidden = signal(false);

/** Sizes being dragged, ahead of the saved ones. */
const live = signal<PaneSizes>({});
const saved = computed<PaneSizes>(() => workspace.value?.preferences.panes ?? {});

export function paneSize(pane: Pane, fallback: number): number {
  return live.value[pane] ?? saved.value[pane] ?? fallback;
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** Sets a pane's size now; `persist` saves it to the workspace (debounced, for key repeats). */
export function setPaneSize(pane: Pane, size: number, persist: boolean): void {
  live.value = { ...live.value, [pane]: Math.round(size) };
  if (!persist) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    const sent = { ...live.value };
    void attempt('workspace.setPreferences', { panes: { ...saved.value, ...sent } }).then((prefs) => {
      if (!prefs) return;
      // The saved sizes take over, except one changed again while this save was on its way.
      const next: PaneSizes = { ...live.value };
      for (const pane of Object.keys(sent) as Pane[]) if (next[pane] === sent[pane]) delete next[pane];
      live.value = next;
    });
  }, 250);
}

/** Back to the default sizes, in this workspace. */
export function resetPaneSizes(): void {
  clearTimeout(saveTimer);
  live.value = {};
  void attempt('workspace.setPreferences', { panes: {} });
}

/** The response beside the request (wide windows) rather than below it; a workspace preference. */
const besideChosen = signal<boolean | null>(null);
export const responseBeside = computed(() => besideChosen.value ?? workspace.value?.preferences.responseBeside ?? false);

export function toggleResponseBeside(): void {
  const next = !responseBeside.value;
  besideChosen.value = next;
  void attempt('workspace.setPreferences', { responseBeside: next }).then((prefs) => {
    if (prefs && besideChosen.value === next) besideChosen.value = null;
  });
}

export function focusSidebarFilter(): void {
  sidebarHidden.value = false;
  // After the sidebar has rendered again.
  requestAnimationFrame(() => document.querySelector<HTMLInputElement>('.sidebar-search input')?.focus());
}
