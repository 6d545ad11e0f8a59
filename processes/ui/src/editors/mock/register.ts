/**
 * Wires the mock editor into the shell: the tab kind, New Mock… on REST API rows and on the API
 * tab, and the live `mock.state` / `mock.logged` events.
 */
import { effect } from '@preact/signals';
import { h } from 'preact';
import { registerEditor } from '../registry.js';
import { apiSections } from '../ApiEditor.js';
import { menuContributions } from '../../state/actions.js';
import { peer } from '../../state/app.js';
import { MockEditor } from './MockEditor.js';
import { MockSection, newMockDialog } from './NewMock.js';
import { mockTabState, onMockLogged, onMockState } from './mock-tabs.js';
import type { Draft } from '../../state/drafts.js';

export function registerMockEditor(): void {
  registerEditor('mock', MockEditor, (tab) => mockTabState(tab).doc as Draft<unknown>);
  menuContributions.push((project, item) => (item.kind === 'api' ? [{ label: 'New Mock…', run: () => newMockDialog(project, item.id, item.name) }] : []));
  apiSections.push((project, api) => h(MockSection, { project, api }));
  effect(() => {
    const current = peer.value;
    if (!current) return;
    const off = [
      current.on('mock.state', ({ project, mock, view }) => onMockState(project, mock, view)),
      current.on('mock.logged', ({ project, mock, entries }) => onMockLogged(project, mock, entries)),
    ];
    return () => off.forEach((unsubscribe) => unsubscribe());
  });
}
