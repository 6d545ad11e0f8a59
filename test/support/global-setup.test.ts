/** The stale-build check `vitest run` makes before any test (test/support/global-setup.ts). */
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { newerSource } from './global-setup.js';

async function tree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'parley-stale-'));
  for (const dir of ['cli', 'protocol', 'processes/ui/src', 'scripts']) await mkdir(join(root, dir), { recursive: true });
  for (const file of ['scripts/build.mjs', 'scripts/compiled-checks.mjs', 'processes/ui/index.html', 'cli/main.ts', 'processes/ui/src/App.tsx', 'protocol/peer.test.ts']) {
    await writeFile(join(root, file), '');
    await utimes(join(root, file), 1_000, 1_000);
  }
  return root;
}

test('a build newer than every source is current', async () => {
  expect(newerSource(await tree(), 2_000_000)).toBeNull();
});

test('names a source edited after the build, in the UI as in a process', async () => {
  const root = await tree();
  await utimes(join(root, 'processes/ui/src/App.tsx'), 3_000, 3_000);
  expect(newerSource(root, 2_000_000)).toBe(join('processes', 'ui', 'src', 'App.tsx'));
});

test('an edited test file does not make the build stale; an edited build script does', async () => {
  const root = await tree();
  await utimes(join(root, 'protocol/peer.test.ts'), 3_000, 3_000);
  expect(newerSource(root, 2_000_000)).toBeNull();
  await utimes(join(root, 'scripts/build.mjs'), 3_000, 3_000);
  expect(newerSource(root, 2_000_000)).toBe('scripts/build.mjs');
});
