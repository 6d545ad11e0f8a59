/** Wires the HTTP Log into the shell: its tab, View: HTTP Log in the palette (Ctrl+Shift+L) and the title bar's button. */
import { registerEditor } from '../editors/registry.js';
import { mod, registerCommands } from '../state/commands.js';
import { openTab } from '../state/tabs.js';
import { HttpLogView } from './HttpLogView.js';

export const HTTP_LOG_KEYS = `${mod}+Shift+L`;

export function openHttpLog(): void {
  openTab({ kind: 'http-log', project: '', itemId: '@http-log', title: 'HTTP Log' });
}

export function registerHttpLog(): void {
  registerEditor('http-log', HttpLogView);
  registerCommands([{ id: 'httpLog.open', title: 'View: HTTP Log', keys: HTTP_LOG_KEYS, run: openHttpLog }]);
}
