import { mkdtemp, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, nodeFs, type FsOps } from './atomic.js';

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = join(entry.parentPath, entry.name);
      out[full.slice(dir.length)] = await readFile(full, 'utf8');
    } else out[join(entry.parentPath, entry.name).slice(dir.length) + '/'] = '<dir>';
  }
  return out;
}

/** Fails the nth call of one operation, to cut a save at every possible point. */
function failing(op: keyof FsOps, nth: number): FsOps {
  let calls = 0;
  return new Proxy(nodeFs, {
    get(target, key: keyof FsOps) {
      const real = target[key] as (...args: unknown[]) => Promise<unknown>;
      if (key !== op) return real;
      return async (...args: unknown[]) => {
        if (++calls === nth) throw Object.assign(new Error('injected'), { code: 'EIO' });
        return real(...args);
      };
    },
  });
}

describe('commitFiles', () => {
  it('writes, replaces and deletes several files together', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, 'a.yaml'), 'old a');
    await writeFile(join(dir, 'gone.yaml'), 'bye');
    await commitFiles([
      { path: join(dir, 'a.yaml'), content: 'new a' },
      { path: join(dir, 'sub', 'b.yaml'), content: 'new b' },
      { path: join(dir, 'gone.yaml'), content: null },
    ]);
    expect(await snapshot(dir)).toEqual({ '/a.yaml': 'new a', '/sub/': '<dir>', '/sub/b.yaml': 'new b' });
  });

  const cuts: [keyof FsOps, number][] = [
    ['writeSynced', 1],
    ['writeSynced', 2],
    ['writeSynced', 3],
    ['rename', 1],
    ['rename', 2],
    ['rename', 3],
    ['rename', 4],
    ['rename', 5],
    ['mkdir', 2],
  ];
  it.each(cuts)('a failure at %s call %i leaves every file byte-for-byte as it was', async (op, nth) => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, 'a.yaml'), 'old a\n# comment');
    await mkdir(join(dir, 'keep'));
    await writeFile(join(dir, 'keep', 'b.yaml'), 'old b');
    await writeFile(join(dir, 'c.yaml'), 'old c');
    const before = await snapshot(dir);
    await expect(
      commitFiles(
        [
          { path: join(dir, 'a.yaml'), content: 'new a' },
          { path: join(dir, 'keep', 'b.yaml'), content: 'new b' },
          { path: join(dir, 'new', 'deep', 'd.yaml'), content: 'new d' },
          { path: join(dir, 'c.yaml'), content: null },
        ],
        failing(op, nth),
      ),
    ).rejects.toMatchObject({ code: 'save-failed', message: expect.stringContaining('EIO') });
    expect(await snapshot(dir)).toEqual(before);
  });
});
