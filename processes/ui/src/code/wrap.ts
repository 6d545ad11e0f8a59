/**
 * Soft wrap for every code editor, one switch for the whole app (a wrapped request body and an
 * unwrapped response would be a surprise). Kept in the workspace's preferences.
 */
import { computed, signal } from '@preact/signals';
import { workspace } from '../state/app.js';
import { attempt } from '../state/rpc.js';

/** The choice made here ahead of the saved one, so the toggle shows at once. */
const chosen = signal<boolean | null>(null);

export const wrapLines = computed(() => chosen.value ?? workspace.value?.preferences.wrapLines ?? false);

export function toggleWrapLines(): void {
  const next = !wrapLines.value;
  chosen.value = next;
  void attempt('workspace.setPreferences', { wrapLines: next }).then((prefs) => {
    if (prefs && chosen.value === next) chosen.value = null;
  });
}
