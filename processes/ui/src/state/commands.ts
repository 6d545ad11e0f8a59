/**
 * The command palette's registry: every action a user can reach by name, with its key. A
 * command's `keys` is both what the palette shows and the binding: one window listener
 * (`installKeyBindings`) runs the command whose keys a key press matches, so every key shown
 * works and no editor keeps a private copy of a shortcut.
 */
import { signal } from '@preact/signals';

export interface Command {
  id: string;
  title: string;
  /** Shown beside the title and bound, e.g. "Ctrl+Enter", "Ctrl+Alt+W" ("Cmd" on a Mac). */
  keys?: string;
  /** Hidden from the palette, and its key does nothing, when this says no. */
  when?: () => boolean;
  run: () => void | Promise<void>;
}

export const commands = signal<Command[]>([]);
export const paletteOpen = signal(false);

export function registerCommands(list: Command[]): void {
  const ids = new Set(list.map((c) => c.id));
  commands.value = [...commands.value.filter((c) => !ids.has(c.id)), ...list];
}

export function runCommand(id: string): void {
  const command = commands.value.find((c) => c.id === id);
  if (command && (!command.when || command.when())) void command.run();
}

export const PALETTE_COMMAND = 'palette.toggle';

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const mod = isMac ? 'Cmd' : 'Ctrl';

interface Chord {
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  shift: boolean;
  key: string;
}

/** "Ctrl+Alt+W" as a chord; null for what is not one. */
export function parseKeys(keys: string): Chord | null {
  const parts = keys.split('+');
  const key = parts.pop();
  if (!key) return null;
  const chord: Chord = { ctrl: false, meta: false, alt: false, shift: false, key: key.toLowerCase() };
  for (const part of parts) {
    if (part === 'Ctrl') chord.ctrl = true;
    else if (part === 'Cmd') chord.meta = true;
    else if (part === 'Alt' || part === 'Option') chord.alt = true;
    else if (part === 'Shift') chord.shift = true;
    else return null;
  }
  return chord;
}

/**
 * Whether a key press is the chord. Letters and digits are compared by physical key, because
 * Alt and Shift change `key` (Alt+W types "∑" on a Mac, Shift+1 "!").
 */
export function matchesChord(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'key' | 'code'>, chord: Chord): boolean {
  if (e.ctrlKey !== chord.ctrl || e.metaKey !== chord.meta || e.altKey !== chord.alt || e.shiftKey !== chord.shift) return false;
  if (/^[a-z]$/.test(chord.key)) return e.code === `Key${chord.key.toUpperCase()}`;
  if (/^[0-9]$/.test(chord.key)) return e.code === `Digit${chord.key}`;
  return e.key.toLowerCase() === chord.key;
}

/**
 * Runs the command a key press names, wherever focus is: the listener is on the window in the
 * capture phase, before any element's own handler (the tree's Enter, an editor's Mod-Enter), and a
 * command that runs stops the key there, so its keys always act on the active tab. A Ctrl or Cmd
 * chord's default (the browser's Save page for Ctrl+S, say) is prevented whenever the keys are a
 * command's, even when the command does not apply now. An Alt chord whose command does not apply
 * goes on untouched to the focused element: Alt+Down is the tree's Move down only in the tree, and
 * a select's or the code editor's own key everywhere else. While a dialog is open only keys marked
 * `inDialogs` act, so Ctrl+Enter never sends behind it.
 */
export function installKeyBindings(dialogOpen: () => boolean, inDialogs: ReadonlySet<string> = new Set()): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.repeat || !(e.ctrlKey || e.metaKey || e.altKey)) return;
    const matching = commands.value.filter((c) => {
      const chord = c.keys ? parseKeys(c.keys) : null;
      return chord !== null && matchesChord(e, chord);
    });
    if (matching.length === 0) return;
    if (e.ctrlKey || e.metaKey) e.preventDefault();
    if (dialogOpen() && !matching.some((c) => inDialogs.has(c.id))) return;
    const command = matching.find((c) => !c.when || c.when());
    if (!command) return;
    e.preventDefault();
    e.stopPropagation();
    if (command.id !== PALETTE_COMMAND) paletteOpen.value = false;
    // Which command the last key ran, for anyone checking the bindings (the palette test does).
    document.body.dataset.lastCommand = command.id;
    void command.run();
  };
  window.addEventListener('keydown', onKey, { capture: true });
  return () => window.removeEventListener('keydown', onKey, { capture: true });
}
