/** The command palette's registry: every action a user can reach by name. */
import { signal } from '@preact/signals';

export interface Command {
  id: string;
  title: string;
  /** Shown beside the title, e.g. "Ctrl+Enter". */
  keys?: string;
  /** Hidden from the palette when this says no. */
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

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const mod = isMac ? 'Cmd' : 'Ctrl';
