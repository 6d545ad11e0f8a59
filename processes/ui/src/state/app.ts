/** The UI's state as signals: what is connected, open, selected and shown. */
import { computed, signal } from '@preact/signals';
import type { Peer } from '../../../../protocol/peer.js';
import type { ProjectTree } from '../../../../protocol/model/project.js';
import type { Workspace } from '../../../../protocol/model/workspace.js';
import type { ResOf } from '../../../../protocol/messages.js';

/**
 * `disconnected`: the link dropped, reconnecting; `restarted`: Parley runs again at this address
 * with a new token, so this page can never reconnect; `stopped`: nothing answers at this address.
 */
export type Connection = 'connecting' | 'connected' | 'disconnected' | 'restarted' | 'stopped';

export const peer = signal<Peer | null>(null);
export const connection = signal<Connection>('connecting');
export const appInfo = signal<ResOf<'app.info'> | null>(null);
export const workspace = signal<Workspace | null>(null);
export const projects = signal<ProjectTree[]>([]);
/** Folders whose `project.open` is under way (a big project takes a second), shown in the status bar. */
export const openingProjects = signal<string[]>([]);
export const childStatus = signal<Record<string, { state: string; message?: string }>>({});

export type ThemeName = 'light' | 'dark';
const systemDark = signal(typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches);
if (typeof matchMedia === 'function') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (e) => (systemDark.value = e.matches));
}
export const theme = computed<ThemeName>(() => {
  const chosen = workspace.value?.preferences.theme ?? 'system';
  if (chosen === 'system') return systemDark.value ? 'dark' : 'light';
  return chosen;
});

export function projectByRoot(root: string): ProjectTree | undefined {
  return projects.value.find((p) => p.root === root);
}
