/** The session's restore in the page: a request tab comes back knowing its kind, so it opens its kind's editor and draft. */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectTree, TreeItem } from '../../../../protocol/model/project.js';
import type { SessionTab } from '../../../../protocol/model/session.js';
import { draftOpeners, editors } from '../editors/registry.js';
import { projects } from './app.js';
import { keptDraftOf } from './drafts.js';
import { beginRestore, projectArrived } from './session.js';
import { tabs, type Tab } from './tabs.js';

const api: TreeItem = { kind: 'api', id: 'a1', name: 'Live', baseUrl: '', hasDefinition: false };
const socket = (id: string, name: string): TreeItem => ({ kind: 'request', id, parent: 'a1', name, method: 'WS', orphaned: false, requestKind: 'websocket' });
const http = (id: string, name: string): TreeItem => ({ kind: 'request', id, parent: 'a1', name, method: 'GET', orphaned: false });
const tree = (root: string, items: TreeItem[]): ProjectTree => ({ root, name: root, items, properties: [], problems: [], opened: 'o1', seq: 0 });
const saved = (project: string, itemId: string, title: string, more: Partial<SessionTab> = {}): SessionTab => ({ kind: 'request', project, itemId, title, ...more });

/** The request editor's draft opener as kinds/index.tsx registers it: which tab, with which kind, it was asked for. */
function recordDraftOpens(): Tab[] {
  const opened: Tab[] = [];
  editors.set('request', () => null);
  draftOpeners.set('request', (tab) => {
    opened.push(tab);
    return {} as never;
  });
  return opened;
}

afterEach(() => {
  tabs.value = [];
  projects.value = [];
  editors.delete('request');
  draftOpeners.delete('request');
});

describe('session restore', () => {
  it('brings a WebSocket tab back as a WebSocket tab, its draft opened as one, before and after its project arrives', () => {
    const opened = recordDraftOpens();
    projects.value = [tree('/p', [api, socket('r1', 'Echo'), http('r2', 'List')])];
    const draft = { value: { kind: 'websocket', name: 'Echo' }, leftOut: [] };
    beginRestore({
      tabs: [
        saved('/p', 'r1', 'Echo', { method: 'WS', requestKind: 'websocket', draft }),
        saved('/p', 'r2', 'List', { method: 'GET' }),
        // A project still opening: its tab waits for its tree.
        saved('/q', 'r3', 'Feed', { method: 'WS', requestKind: 'websocket', draft }),
      ],
      active: 0,
      projects: ['/p', '/q'],
      notices: [],
    });
    expect(tabs.value.map((t) => [t.title, t.requestKind])).toEqual([
      ['Echo', 'websocket'],
      ['List', undefined],
    ]);
    expect(opened.map((t) => [t.title, t.requestKind])).toEqual([['Echo', 'websocket']]);
    expect(keptDraftOf('request:/p:r1')).toEqual(draft);

    projects.value = [...projects.value, tree('/q', [api, socket('r3', 'Feed')])];
    projectArrived();
    expect(tabs.value.map((t) => [t.title, t.requestKind])).toEqual([
      ['Echo', 'websocket'],
      ['List', undefined],
      ['Feed', 'websocket'],
    ]);
    expect(opened.map((t) => [t.title, t.requestKind])).toEqual([
      ['Echo', 'websocket'],
      ['Feed', 'websocket'],
    ]);
  });

  it('gives a request tab of a session kept before tabs named their kind the kind of its tree row', () => {
    const opened = recordDraftOpens();
    projects.value = [tree('/p', [api, socket('r1', 'Echo')])];
    beginRestore({ tabs: [saved('/p', 'r1', 'Echo', { method: 'WS', draft: { value: { kind: 'websocket' }, leftOut: [] } })], projects: ['/p'], notices: [] });
    expect(tabs.value.map((t) => t.requestKind)).toEqual(['websocket']);
    expect(opened.map((t) => t.requestKind)).toEqual(['websocket']);
  });
});
