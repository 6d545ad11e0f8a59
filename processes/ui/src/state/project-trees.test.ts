/** The page's trees follow `project.changed` deltas in sequence; a missed one, or a project opened again, brings the whole tree. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Peer } from '../../../../protocol/peer.js';
import type { ProjectTree, TreeDelta, TreeItem } from '../../../../protocol/model/project.js';
import { openingProjects, peer, projectByRoot, projects } from './app.js';
import { receiveProjectChange, resetTrees, takeTree } from './project-trees.js';

const api: TreeItem = { kind: 'api', id: 'a1', name: 'Shop', baseUrl: '', hasDefinition: false };
const request = (id: string, name: string): TreeItem => ({ kind: 'request', id, parent: 'a1', name, method: 'GET', orphaned: false });
const tree = (seq: number, items: TreeItem[], opened = 'o1'): ProjectTree => ({ root: '/p', name: 'P', items, properties: [], problems: [], opened, seq });
const delta = (seq: number, fields: Partial<TreeDelta> = {}, opened = 'o1'): TreeDelta => ({ root: '/p', opened, seq, items: [], removed: [], ...fields });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A supervisor that answers `project.tree` with `served`, counting the calls. */
function fakeSupervisor(served: () => ProjectTree) {
  const asked = { count: 0 };
  peer.value = {
    call: async (type: string) => {
      expect(type).toBe('project.tree');
      asked.count++;
      return served();
    },
  } as unknown as Peer;
  return asked;
}

afterEach(() => {
  projects.value = [];
  openingProjects.value = [];
  peer.value = null;
  resetTrees();
});

describe('project trees in the page', () => {
  it('applies deltas in sequence: a row added, renamed in its sorted place, removed', () => {
    const asked = fakeSupervisor(() => tree(0, []));
    takeTree(tree(0, [api, request('r1', 'Beta')]));
    receiveProjectChange({ delta: delta(1, { items: [request('r2', 'Alpha')] }), changed: ['r2'] });
    receiveProjectChange({ delta: delta(2, { items: [request('r1', 'Gamma')] }), changed: ['r1'] });
    expect(projectByRoot('/p')!.items.map((i) => i.name)).toEqual(['Shop', 'Alpha', 'Gamma']);
    receiveProjectChange({ delta: delta(3, { removed: [{ kind: 'request', id: 'r2' }], name: 'Renamed' }), changed: ['r2'] });
    expect(projectByRoot('/p')).toMatchObject({ name: 'Renamed', seq: 3, items: [api, request('r1', 'Gamma')] });
    // A delta the tree already has changes nothing.
    receiveProjectChange({ delta: delta(2, { items: [request('r1', 'Old')] }), changed: [] });
    expect(projectByRoot('/p')!.items.map((i) => i.name)).toEqual(['Shop', 'Gamma']);
    expect(asked.count).toBe(0);
  });

  it('asks for the whole tree after a missed delta, and applies what came meanwhile after it', async () => {
    let served = tree(5, [api, request('r1', 'From the tree')]);
    const asked = fakeSupervisor(() => served);
    takeTree(tree(1, [api]));
    receiveProjectChange({ delta: delta(3, { items: [request('r9', 'Lost')] }), changed: [] });
    receiveProjectChange({ delta: delta(6, { items: [request('r2', 'After')] }), changed: [] });
    await settle();
    expect(asked.count).toBe(1);
    expect(projectByRoot('/p')!.items.map((i) => i.name)).toEqual(['Shop', 'After', 'From the tree']);
    expect(projectByRoot('/p')!.seq).toBe(6);
    served = tree(0, [api], 'o2');
    // The project was closed and opened again by another window: its numbers start anew.
    receiveProjectChange({ delta: delta(1, { items: [request('r3', 'New opening')] }, 'o2'), changed: [] });
    await settle();
    expect(asked.count).toBe(2);
    expect(projectByRoot('/p')).toMatchObject({ opened: 'o2', seq: 1, items: [api, request('r3', 'New opening')] });
  });

  it('keeps the deltas of a project being opened until its tree arrives, and never takes an older tree over a newer one', () => {
    const asked = fakeSupervisor(() => tree(0, []));
    openingProjects.value = ['/p'];
    receiveProjectChange({ delta: delta(4, { items: [request('r2', 'Saved while opening')] }), changed: [] });
    expect(projectByRoot('/p')).toBeUndefined();
    takeTree(tree(3, [api]));
    expect(projectByRoot('/p')!.items.map((i) => i.name)).toEqual(['Shop', 'Saved while opening']);
    takeTree(tree(2, [api]));
    expect(projectByRoot('/p')!.seq).toBe(4);
    expect(asked.count).toBe(0);
  });
});
