/**
 * Fuzzing the project loader (issue 26 item 16, RELIABILITY.md): the demo project with one of its
 * files damaged (project.yaml, an api.yaml, a request, a folder.yaml, an environment), opened as a
 * cloned repository would be. Each open either loads, listing the damaged file's problem, or is
 * refused with a typed error; nothing on disk is changed by opening it.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { ensureDemoProject } from '../../demo/project.js';
import { FUZZ, expectTyped, mutated, fuzzTimeout } from './fuzz-support.js';

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path), createHash('sha256').update(await readFile(path)).digest('hex'));
  }
  return out;
}

describe('the project loader under damaged files', () => {
  let base = '';
  let template = '';
  let files: string[] = [];
  const texts = new Map<string, string>();

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'parley-fuzz-load-'));
    template = join(base, 'template');
    await ensureDemoProject(template, 'http://127.0.0.1:1');
    files = [...(await snapshot(template)).keys()].filter((p) => p.endsWith('.yaml')).sort();
    for (const f of files) texts.set(f, await readFile(join(template, f), 'utf8'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('loads with the damage listed, or refuses with a typed error, and changes nothing on disk', async () => {
    expect(files.length).toBeGreaterThan(3);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files).chain((file) => fc.tuple(fc.constant(file), mutated(texts.get(file)!))),
        async ([file, text]) => {
          const dir = join(base, `p${++n}`);
          await cp(template, dir, { recursive: true });
          await writeFile(join(dir, file), text);
          const before = await snapshot(dir);
          try {
            const store = await ProjectStore.open(dir);
            try {
              store.tree();
            } finally {
              await store.close();
            }
          } catch (err) {
            expectTyped(err, `opening a project with ${file} damaged`);
          }
          expect(await snapshot(dir)).toEqual(before);
          await rm(dir, { recursive: true, force: true });
        },
      ),
      FUZZ,
    );
  }, fuzzTimeout(600_000));
});
