import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, nodeFs, recoverCommits, type FsOps } from './atomic.js';

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

const noLinks = async () => Promise.reject(Object.assign(new Error('no hard links here'), { code: 'EPERM' }));

describe('commitFiles', () => {
  it('writes, replaces and deletes several files together', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, 'a.yaml'), 'old a');
    await writeFile(join(dir, 'gone.yaml'), 'bye');
    await commitFiles([
      { path: join(dir, 'a.yaml'), content: 'new a' },
      { path: join(dir, 'sub', 'b.yaml'), content: 'new b' },
      { path: join(dir, 'gone.yaml'), content: null },
    ], { journalDir: dir });
    expect(await snapshot(dir)).toEqual({ '/a.yaml': 'new a', '/sub/': '<dir>', '/sub/b.yaml': 'new b' });
  });

  const cuts: [keyof FsOps, number, boolean][] = [
    ['writeSynced', 1, true],
    ['writeSynced', 2, true],
    ['writeSynced', 3, true],
    ['link', 1, true],
    ['link', 2, true],
    ['rename', 1, true],
    ['rename', 2, true],
    ['rename', 3, true],
    ['rename', 4, true],
    ['unlink', 1, true],
    ['mkdir', 2, true],
    // Where the file system has no hard links, backups are moved aside instead.
    ['rename', 1, false],
    ['rename', 2, false],
    ['rename', 3, false],
    ['rename', 4, false],
    ['rename', 5, false],
    ['rename', 6, false],
    ['rename', 7, false],
  ];
  it.each(cuts)('a failure at %s call %i (hard links: %s) leaves every file byte-for-byte as it was', async (op, nth, links) => {
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
        { journalDir: dir, fs: links ? failing(op, nth) : { ...failing(op, nth), link: noLinks } },
      ),
    ).rejects.toMatchObject({ code: 'save-failed', message: expect.stringContaining('EIO') });
    expect(await snapshot(dir)).toEqual(before);
  });

  it.each([true, false])('never leaves a file that existed missing while it saves (hard links: %s)', async (links) => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, 'a.yaml'), 'old a');
    await writeFile(join(dir, 'b.yaml'), 'old b');
    const seen: string[] = [];
    const watching: FsOps = {
      ...nodeFs,
      ...(links ? {} : { link: noLinks }),
      rename: async (from, to) => {
        await nodeFs.rename(from, to);
        for (const name of ['a.yaml', 'b.yaml']) if (!(await nodeFs.exists(join(dir, name)))) seen.push(`${name} missing after rename ${from} -> ${to}`);
      },
    };
    await commitFiles(
      [
        { path: join(dir, 'a.yaml'), content: 'new a' },
        { path: join(dir, 'b.yaml'), content: 'new b' },
      ],
      { journalDir: dir, fs: watching },
    );
    expect(await snapshot(dir)).toEqual({ '/a.yaml': 'new a', '/b.yaml': 'new b' });
    if (links) expect(seen).toEqual([]);
    else expect(seen.length).toBeGreaterThan(0);
  });

  it('a rollback that fails too keeps its journal, and the next recovery puts every file back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, 'a.yaml'), 'old a');
    await writeFile(join(dir, 'b.yaml'), 'old b');
    const before = await snapshot(dir);
    let renames = 0;
    const dying: FsOps = { ...nodeFs, rename: async (from, to) => (++renames > 2 ? Promise.reject(Object.assign(new Error('gone'), { code: 'EIO' })) : nodeFs.rename(from, to)) };
    await expect(
      commitFiles(
        [
          { path: join(dir, 'a.yaml'), content: 'new a' },
          { path: join(dir, 'b.yaml'), content: 'new b' },
        ],
        { journalDir: dir, fs: dying },
      ),
    ).rejects.toMatchObject({ code: 'save-failed' });
    expect((await readdir(dir)).filter((n) => n.startsWith('.parley-commit.'))).toHaveLength(1);
    expect(await snapshot(dir)).not.toEqual(before);
    expect(await recoverCommits(dir)).toMatchObject([{ outcome: 'undone', files: ['a.yaml', 'b.yaml'] }]);
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('recoverCommits reads journals as untrusted input', () => {
  const journal = (steps: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ version: 1, pid: 999_999_999, host: hostname(), steps, created: [], ...extra });
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');

  it('drops a journal naming a file outside its folder without touching that file', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    const dir = join(outside, 'project');
    await mkdir(dir);
    await writeFile(join(outside, 'victim.txt'), 'mine');
    await writeFile(join(outside, '.victim.txt.0123456789abcdef.bak'), 'planted');
    await writeFile(join(dir, '.parley-commit.0123456789abcdef.json'), journal([{ target: '../victim.txt', existed: false, sha256: sha('mine') }]));
    expect(await recoverCommits(dir)).toMatchObject([{ outcome: 'discarded' }]);
    expect(await snapshot(outside)).toEqual({ '/victim.txt': 'mine', '/.victim.txt.0123456789abcdef.bak': 'planted', '/project/': '<dir>' });
  });

  it('removes a file a cut-short commit made only while it holds what that commit wrote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, 'ours.yaml'), 'written by the commit');
    await writeFile(join(dir, 'theirs.yaml'), 'edited since');
    await writeFile(
      join(dir, '.parley-commit.0123456789abcdef.json'),
      journal([
        { target: 'ours.yaml', existed: false, sha256: sha('written by the commit') },
        { target: 'theirs.yaml', existed: false, sha256: sha('written by the commit') },
      ]),
    );
    expect(await recoverCommits(dir)).toMatchObject([{ outcome: 'undone' }]);
    expect(await snapshot(dir)).toEqual({ '/theirs.yaml': 'edited since' });
  });

  it('discards a journal cut off while being written, and leaves a newer one and a live one alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
    await writeFile(join(dir, '.parley-commit.0000000000000001.json'), journal([{ target: 'a.yaml', existed: true, sha256: null }]).slice(0, 30));
    await writeFile(join(dir, '.parley-commit.0000000000000002.json'), journal([], { version: 2 }));
    // The parent of this test's process is alive: its journal is a save under way.
    await writeFile(join(dir, '.parley-commit.0000000000000003.json'), journal([], { pid: process.ppid }));
    const lines: string[] = [];
    expect(await recoverCommits(dir, { log: (line) => lines.push(line) })).toMatchObject([{ journal: '.parley-commit.0000000000000001.json', outcome: 'discarded' }]);
    expect((await readdir(dir)).sort()).toEqual(['.parley-commit.0000000000000002.json', '.parley-commit.0000000000000003.json']);
    expect(lines.join('\n')).toMatch(/newer release[\s\S]*under way/);
  });
});
