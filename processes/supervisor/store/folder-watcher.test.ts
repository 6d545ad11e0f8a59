import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from './folder-watcher.js';
import { until } from '../../../test/support/until.js';

const watchers: FolderWatcher[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function watched(accept: (path: string) => boolean = (p) => p.endsWith('.yaml')) {
  const dir = await mkdtemp(join(tmpdir(), 'parley-watch-'));
  dirs.push(dir);
  const batches: string[][] = [];
  const logs: string[] = [];
  const watcher = new FolderWatcher(dir, { accept, onChange: (paths) => batches.push(paths), log: (line) => logs.push(line) });
  watchers.push(watcher);
  await watcher.ready();
  return { dir, batches, logs, watcher };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('FolderWatcher', () => {
  it('reports a burst of writes to the same file as one settled batch', async () => {
    const { dir, batches } = await watched();
    const file = join(dir, 'a.yaml');
    // Written back to back in one task: awaited writes on a loaded machine can be further apart than the settle window, which is then two bursts.
    for (let i = 0; i < 5; i++) writeFileSync(file, `n: ${i}\n`);
    await until(() => batches.length > 0);
    await settle();
    expect(batches).toEqual([[file]]);
  });

  it('reports created, changed, renamed and deleted files in folders made after it started, and only accepted ones', async () => {
    const { dir, batches } = await watched();
    await mkdir(join(dir, 'apis', 'new', 'deeper'), { recursive: true });
    const made = join(dir, 'apis', 'new', 'deeper', 'r.yaml');
    await writeFile(join(dir, 'apis', 'new', 'deeper', 'r.yaml.tmp'), 'x: 1\n');
    await rename(join(dir, 'apis', 'new', 'deeper', 'r.yaml.tmp'), made); // an editor's atomic save
    await writeFile(join(dir, 'apis', 'new', 'notes.txt'), 'not watched');
    await until(() => batches.flat().includes(made));
    await rm(made);
    await until(() => batches.length > 1);
    await settle();
    const reported = batches.flat();
    expect(new Set(reported)).toEqual(new Set([made]));
  });

  it('sees files made inside folders made at once with mkdir -p, and later edits there (20 times, it is a race)', async () => {
    for (let run = 0; run < 20; run++) {
      const { dir, batches } = await watched();
      const deeper = join(dir, 'apis', 'new', 'deeper');
      await mkdir(deeper, { recursive: true });
      await writeFile(join(deeper, 'first.yaml'), 'a: 1\n');
      await until(() => batches.flat().includes(join(deeper, 'first.yaml')));
      await writeFile(join(deeper, 'later.yaml'), 'a: 1\n');
      await until(() => batches.flat().includes(join(deeper, 'later.yaml')));
      await Promise.all(watchers.splice(0).map((w) => w.close()));
    }
  });

  it('reports every file of a folder moved out of the watched one, and forgets the folder', async () => {
    const { dir, batches } = await watched();
    const area = join(dir, 'apis', 'area');
    await mkdir(join(area, 'nested'), { recursive: true });
    await writeFile(join(area, 'a.yaml'), 'a: 1\n');
    await writeFile(join(area, 'nested', 'b.yaml'), 'b: 1\n');
    await until(() => batches.flat().length >= 2);
    await settle();
    batches.length = 0;
    const outside = await mkdtemp(join(tmpdir(), 'parley-watch-out-'));
    dirs.push(outside);
    await rename(area, join(outside, 'area'));
    await until(() => batches.flat().length >= 2);
    await settle();
    expect(new Set(batches.flat())).toEqual(new Set([join(area, 'a.yaml'), join(area, 'nested', 'b.yaml')]));
    batches.length = 0;
    await writeFile(join(outside, 'area', 'a.yaml'), 'moved: 1\n');
    await settle();
    expect(batches).toEqual([]);
  });

  it('ignores .git and node_modules', async () => {
    const { dir, batches } = await watched();
    await mkdir(join(dir, '.git'), { recursive: true });
    await mkdir(join(dir, 'node_modules', 'x'), { recursive: true });
    await writeFile(join(dir, '.git', 'config.yaml'), 'a: 1\n');
    await writeFile(join(dir, 'node_modules', 'x', 'p.yaml'), 'a: 1\n');
    await writeFile(join(dir, 'seen.yaml'), 'a: 1\n');
    await until(() => batches.length > 0);
    await settle();
    expect(batches.flat()).toEqual([join(dir, 'seen.yaml')]);
  });

  it('reports nothing once closed', async () => {
    const { dir, batches, watcher } = await watched();
    await writeFile(join(dir, 'pending.yaml'), 'a: 1\n');
    await watcher.close();
    await writeFile(join(dir, 'after.yaml'), 'a: 1\n');
    await settle();
    expect(batches).toEqual([]);
  });

  it('logs a folder it cannot watch instead of throwing', async () => {
    const logs: string[] = [];
    const watcher = new FolderWatcher(join(tmpdir(), 'parley-no-such-folder-x1'), { accept: () => true, onChange: () => {}, log: (line) => logs.push(line) });
    await watcher.ready();
    await watcher.close();
    expect(logs.join('\n')).toMatch(/cannot watch .*parley-no-such-folder-x1/);
  });
});
