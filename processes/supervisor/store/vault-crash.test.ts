/**
 * kill -9 while the vault is written: a child process unlocks the vault and makes two saves (a
 * secret replaced, then one added), SIGKILLing itself before every disk-changing step of them and
 * half-way through every write. After the next start's recovery (WorkspaceStore.open) the vault
 * unlocks, holds every secret stored before plus whole saves only (none, the first, or both),
 * is 0600, and nothing else is left in the data folder.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommitChild, type BuiltChild } from '../../../test/fixtures/store/build-commit-child.js';
import type { CommitChildConfig } from '../../../test/fixtures/store/commit-child.js';
import { finished, type Run } from '../../../test/support/processes.js';
import { VaultSecrets } from './vault-secrets.js';
import { VAULT_FILE, type KdfParams } from './vault-file.js';
import { WorkspaceStore } from './workspace-store.js';

const KDF: KdfParams = { N: 2 ** 14, r: 8, p: 1 };
const PASS = 'crash test passphrase';

let child: BuiltChild;
let scratch: string;
beforeAll(async () => {
  child = await buildCommitChild();
  scratch = await mkdtemp(join(tmpdir(), 'parley-vault-crash-'));
});
afterAll(async () => {
  await child?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function runChild(config: CommitChildConfig): Promise<Run> {
  const proc = spawn(process.execPath, [child.file, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(proc);
}

let copies = 0;
async function copyOf(template: string): Promise<string> {
  const dir = join(scratch, `run-${++copies}`);
  await cp(template, dir, { recursive: true });
  return dir;
}

async function entriesOf(dir: string): Promise<string> {
  const vault = new VaultSecrets(dir);
  await vault.unlock(PASS);
  const names = ['kept/changed', 'kept/same', 'added'];
  const values = await Promise.all(names.map(async (n) => `${n}=${(await vault.get(n)) ?? '-'}`));
  vault.lock();
  return values.join(' ');
}

/** The vault's contents after each whole save, by name. */
const STATES = new Map([
  ['kept/changed=changed-value-1 kept/same=same-value added=-', 'old'],
  ['kept/changed=changed-value-2 kept/same=same-value added=-', 'first save'],
  ['kept/changed=changed-value-2 kept/same=same-value added=added-value', 'both saves'],
]);

describe('the vault written by a process killed at any step', () => {
  it('keeps every secret stored before, and each save whole or not at all', async () => {
    const template = join(scratch, 'template');
    const made = new VaultSecrets(template, { kdf: KDF });
    await made.create(PASS);
    await made.set('kept/changed', 'changed-value-1');
    await made.set('kept/same', 'same-value');
    made.lock();

    const whole = await copyOf(template);
    const run = await runChild({ kind: 'vault', dir: whole, passphrase: PASS });
    expect(run, run.stderr).toMatchObject({ code: 0, signal: null });
    const steps = (JSON.parse(run.stdout) as { steps: string[] }).steps;
    expect(steps.length).toBeGreaterThan(5);
    await expect(entriesOf(whole)).resolves.toBe('kept/changed=changed-value-2 kept/same=same-value added=added-value');

    const cuts = steps.flatMap((op, i) => [
      { killAt: i + 1, tear: false, label: `before step ${i + 1} (${op})` },
      ...(op === 'writeSynced' ? [{ killAt: i + 1, tear: true, label: `half-way through step ${i + 1} (${op})` }] : []),
    ]);
    const seen = new Set<string>();
    const wrong: string[] = [];
    for (const cut of cuts) {
      const dir = await copyOf(template);
      const killed = await runChild({ kind: 'vault', dir, passphrase: PASS, killAt: cut.killAt, tear: cut.tear });
      expect(killed.signal, `${cut.label}: ${killed.stderr}`).toBe('SIGKILL');
      // The next start: the workspace's recovery finishes or undoes the cut write.
      await WorkspaceStore.open(dir);
      const state = STATES.get(await entriesOf(dir).catch((err: Error) => err.message));
      if (state === undefined) wrong.push(`${cut.label}: ${await entriesOf(dir).catch((err: Error) => err.message)}`);
      else seen.add(state);
      const left = (await readdir(dir)).filter((f) => f !== VAULT_FILE);
      if (left.length > 0) wrong.push(`${cut.label}: left over ${left.join(', ')}`);
      const mode = (await stat(join(dir, VAULT_FILE))).mode & 0o777;
      if (mode !== 0o600) wrong.push(`${cut.label}: mode ${mode.toString(8)}`);
    }
    expect(wrong).toEqual([]);
    expect([...seen].sort()).toEqual(['both saves', 'first save', 'old']);
  }, 240_000);
});
