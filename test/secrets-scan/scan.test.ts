/** The secrets scan `npm test` runs over every file the suite wrote (issue 26, item 16). */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by its use here
import { scanForSecrets, TEST_SECRETS } from './scan.mjs';

it('finds a test secret in a file Parley wrote, names the file and the label, skips test inputs and never follows a link', async () => {
  const root = await mkdtemp(join(tmpdir(), 'parley-scan-'));
  const secrets = TEST_SECRETS as Record<string, string>;
  const [label, value] = Object.entries(secrets)[0]!;
  await mkdir(join(root, 'parley-home-x', 'logs'), { recursive: true });
  await writeFile(join(root, 'parley-home-x', 'logs', 'supervisor.log'), `sent Authorization: Basic ${value}\n`);
  await mkdir(join(root, 'project', 'files'), { recursive: true });
  await writeFile(join(root, 'project', 'files', 'upload.txt'), value);
  await writeFile(join(root, 'project', 'parley.yaml'), 'name: P\n');
  const outside = await mkdtemp(join(tmpdir(), 'parley-scan-outside-'));
  await writeFile(join(outside, 'secret.txt'), value);
  await symlink(join(outside, 'secret.txt'), join(root, 'project', 'linked.txt'));

  try {
    const { hits, skipped } = await scanForSecrets(root);
    expect(hits).toEqual([{ file: 'parley-home-x/logs/supervisor.log', label }]);
    expect(skipped).toBe(1);
  } finally {
    // Removed, or the suite's own scan would find this planted secret.
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});
