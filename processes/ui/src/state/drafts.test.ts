/** The draft store's rules: what a clean draft and a dirty one do when their document changes elsewhere. */
import { describe, expect, it } from 'vitest';
import type { ProjectTree } from '../../../../protocol/model/project.js';
import { until } from '../../../../test/support/until.js';
import { dirtyKeys, dropDraft, editDraft, keepMine, onProjectChanged, openDraft, saveDraft, takeIncoming, whenLoaded, type Draft } from './drafts.js';

interface Doc {
  url: string;
}

/** A document "on disk" that a test can change, as a definition update's Apply or an editor would. */
function fakeDocument(key: string, url: string) {
  const disk = { value: { url } as Doc, reads: 0 };
  const draft = openDraft<Doc>(key, {
    load: async () => {
      disk.reads++;
      return structuredClone(disk.value);
    },
    save: async (value) => (disk.value = structuredClone(value)),
    concerns: (project, changed) => project === '/p' && changed.includes(key),
    label: () => key,
  });
  return { disk, draft };
}

const tree = { root: '/p' } as ProjectTree;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function loaded(d: Draft<Doc>) {
  for (let i = 0; i < 10 && d.saved.value === null; i++) await settle();
  return d;
}

describe('draft store', () => {
  it('a clean draft takes the new version when a project.changed (an Apply, a file edited on disk) names it', async () => {
    const { disk, draft } = fakeDocument('r1', '/old');
    await loaded(draft);
    disk.value = { url: '/applied' };
    onProjectChanged(tree, ['a_api', 'r1']);
    await settle();
    expect(draft.draft.value).toEqual({ url: '/applied' });
    expect(draft.dirty.value).toBe(false);
    onProjectChanged(tree, ['r_other']);
    await settle();
    expect(disk.reads).toBe(2);
    dropDraft('r1');
  });

  it('a dirty draft keeps the edit and holds the new version for Reload or Keep mine', async () => {
    const { disk, draft } = fakeDocument('r2', '/old');
    await loaded(draft);
    editDraft(draft, () => ({ url: '/mine' }));
    expect(dirtyKeys.value.has('r2')).toBe(true);
    disk.value = { url: '/theirs' };
    onProjectChanged(tree, ['r2']);
    await settle();
    expect(draft.draft.value).toEqual({ url: '/mine' });
    expect(draft.incoming.value).toEqual({ url: '/theirs' });

    keepMine(draft);
    expect(draft.incoming.value).toBeNull();
    expect(draft.dirty.value).toBe(true);
    expect(draft.saved.value).toEqual({ url: '/theirs' });

    disk.value = { url: '/theirs-2' };
    onProjectChanged(tree, ['r2']);
    await settle();
    takeIncoming(draft);
    expect(draft.draft.value).toEqual({ url: '/theirs-2' });
    expect(dirtyKeys.value.has('r2')).toBe(false);
    dropDraft('r2');
    expect(dirtyKeys.value.has('r2')).toBe(false);
  });

  it('the echo of its own save changes nothing, even while more is typed', async () => {
    const { draft } = fakeDocument('r3', '/old');
    await loaded(draft);
    editDraft(draft, () => ({ url: '/saved' }));
    await saveDraft(draft);
    editDraft(draft, () => ({ url: '/typing' }));
    onProjectChanged(tree, ['r3']);
    await settle();
    expect(draft.incoming.value).toBeNull();
    expect(draft.draft.value).toEqual({ url: '/typing' });
    dropDraft('r3');
  });

  it('an edit typed while a save is on its way stays, and a change on disk meanwhile is offered once the save lands', async () => {
    const disk = { value: { url: '/old' } as Doc };
    let landSave: () => void = () => {};
    const draft = openDraft<Doc>('r4', {
      load: async () => structuredClone(disk.value),
      // Written at once; its answer reaches the page when the test says.
      save: (value) => {
        const written = (disk.value = structuredClone(value));
        return new Promise((resolve) => (landSave = () => resolve(written)));
      },
      concerns: (project, changed) => project === '/p' && changed.includes('r4'),
      label: () => 'r4',
    });
    await loaded(draft);
    editDraft(draft, () => ({ url: '/mine' }));
    const saving = saveDraft(draft);
    editDraft(draft, () => ({ url: '/mine-again' }));
    // Edited on disk after our write reached it, but before the save's answer reached the page.
    disk.value = { url: '/disk' };
    onProjectChanged(tree, ['r4']);
    await settle();
    landSave();
    await saving;
    expect(draft.draft.value).toEqual({ url: '/mine-again' });
    for (let i = 0; i < 10 && draft.incoming.value === null; i++) await settle();
    expect(draft.incoming.value).toEqual({ url: '/disk' });
    expect(draft.dirty.value).toBe(true);
    dropDraft('r4');
  });

  it('whenLoaded waits for a load still on its way (a key pressed right after a tab opened), and gives null for one that failed', async () => {
    let answer!: (doc: Doc) => void;
    const slow = openDraft<Doc>('slow', { load: () => new Promise<Doc>((resolve) => (answer = resolve)), save: async (v) => v, label: () => 'slow' });
    let got: Doc | null | undefined;
    void whenLoaded(slow).then((doc) => (got = doc));
    await settle();
    expect(got).toBeUndefined();
    answer({ url: '/late' });
    await until(() => got !== undefined);
    expect(got).toEqual({ url: '/late' });
    await expect(whenLoaded(slow)).resolves.toEqual({ url: '/late' });

    const broken = openDraft<Doc>('broken', { load: () => Promise.reject(new Error('gone')), save: async (v) => v, label: () => 'broken' });
    await expect(whenLoaded(broken)).resolves.toBeNull();
    dropDraft('slow');
    dropDraft('broken');
  });
});
