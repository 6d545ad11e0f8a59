import { mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addBodyFile } from './body-files.js';
import { ProjectStore } from './project-store.js';

const open: ProjectStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function setup() {
  const base = await mkdtemp(join(tmpdir(), 'parley-body-files-'));
  const store = await ProjectStore.open(join(base, 'project'), { create: true, name: 'P' });
  open.push(store);
  await mkdir(join(base, 'picked'));
  return { base, store, picked: join(base, 'picked') };
}

describe('addBodyFile', () => {
  it('copies a picked file into files/ and gives its path in the project; the same file again gives the same copy', async () => {
    const { store, picked } = await setup();
    await writeFile(join(picked, 'photo.png'), 'png bytes');
    expect(await addBodyFile(store, join(picked, 'photo.png'))).toEqual({ path: 'files/photo.png', copied: true, size: 9 });
    expect(await readFile(join(store.root, 'files', 'photo.png'), 'utf8')).toBe('png bytes');
    expect(await addBodyFile(store, join(picked, 'photo.png'))).toEqual({ path: 'files/photo.png', copied: false, size: 9 });
    // Another file of the same name (or of the same name but for case) gets a number before its extension.
    await mkdir(join(picked, 'other'));
    await writeFile(join(picked, 'other', 'Photo.PNG'), 'other bytes');
    expect(await addBodyFile(store, join(picked, 'other', 'Photo.PNG'))).toMatchObject({ path: 'files/Photo 2.PNG', copied: true });
    await writeFile(join(picked, 'CON.txt'), 'device');
    expect(await addBodyFile(store, join(picked, 'CON.txt'))).toMatchObject({ path: 'files/CON_.txt', copied: true });
    expect((await readdir(join(store.root, 'files'))).sort()).toEqual(['CON_.txt', 'Photo 2.PNG', 'photo.png']);
  });

  it('names a file inside the project where it is, without copying it', async () => {
    const { store } = await setup();
    await mkdir(join(store.root, 'fixtures'));
    await writeFile(join(store.root, 'fixtures', 'body.json'), '{}');
    expect(await addBodyFile(store, join(store.root, 'fixtures', 'body.json'))).toEqual({ path: 'fixtures/body.json', copied: false, size: 2 });
    expect(await readdir(store.root)).not.toContain('files');
  });

  it('refuses what is not a file given by its full path', async () => {
    const { store, picked } = await setup();
    await expect(addBodyFile(store, picked)).rejects.toMatchObject({ code: 'bad-input', message: expect.stringContaining('is not a file') });
    await expect(addBodyFile(store, 'relative.png')).rejects.toMatchObject({ code: 'bad-input' });
    await expect(addBodyFile(store, join(picked, 'missing.png'))).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('a save through a link out of the project', () => {
  it('is refused, and nothing is written outside', async () => {
    const { base, store, picked } = await setup();
    await mkdir(join(base, 'config'));
    await symlink(join(base, 'config'), join(store.root, 'files'));
    await writeFile(join(picked, 'photo.png'), 'png bytes');
    await expect(addBodyFile(store, join(picked, 'photo.png'))).rejects.toMatchObject({ code: 'path-escape', message: expect.stringContaining('through a symbolic link') });
    expect(await readdir(join(base, 'config'))).toEqual([]);
  });
});
