/**
 * Wires the cookie jar into the shell: its tab kind, View: Show Cookies in the palette, and the
 * live `cookies.changed` event that keeps an open jar tab current.
 */
import { effect } from '@preact/signals';
import { registerEditor } from '../registry.js';
import { registerCommands } from '../../state/commands.js';
import { peer } from '../../state/app.js';
import { toast } from '../../state/toasts.js';
import { CookieJarEditor, confirmClearAll } from './CookieJarEditor.js';
import { openCookieDialog } from './CookieDialog.js';
import { jar, jarTabOpen, loadJar, openCookieJar } from './jar-state.js';

export function registerCookieJar(): void {
  registerEditor('cookies', CookieJarEditor);
  registerCommands([
    { id: 'cookies.show', title: 'View: Show Cookies', run: () => openCookieJar('') },
    {
      id: 'cookies.add',
      title: 'Cookies: Add a cookie…',
      run: () => {
        openCookieJar('');
        openCookieDialog();
      },
    },
    {
      id: 'cookies.clear',
      title: 'Cookies: Clear all…',
      run: async () => {
        openCookieJar('');
        await loadJar();
        const count = jar.value?.cookies.length ?? 0;
        if (count === 0) toast('info', 'The cookie jar is already empty.');
        else confirmClearAll(count);
      },
    },
  ]);
  effect(() => {
    const current = peer.value;
    if (!current) return;
    return current.on('cookies.changed', () => {
      if (jarTabOpen()) void loadJar();
    });
  });
}
