/**
 * Wires the cookie jar into the shell: its tab kind, View: Show Cookies in the palette, and the
 * live `cookies.changed` event that keeps an open jar tab current.
 */
import { effect } from '@preact/signals';
import { registerEditor } from '../registry.js';
import { registerCommands } from '../../state/commands.js';
import { peer } from '../../state/app.js';
import { CookieJarEditor } from './CookieJarEditor.js';
import { jarTabOpen, loadJar, openCookieJar } from './jar-state.js';

export function registerCookieJar(): void {
  registerEditor('cookies', CookieJarEditor);
  registerCommands([{ id: 'cookies.show', title: 'View: Show Cookies', run: () => openCookieJar('') }]);
  effect(() => {
    const current = peer.value;
    if (!current) return;
    return current.on('cookies.changed', () => {
      if (jarTabOpen()) void loadJar();
    });
  });
}
