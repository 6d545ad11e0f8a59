/**
 * Postman imports through the supervisor and a real importer child: a collection into a project
 * (properties merged, existing names keep their values), environments and globals into the
 * workspace (renamed when taken, never active, secrets to the keychain and never overwritten,
 * existing globals kept), the importer's heap cap, and kill -9 of the importer mid-import
 * (the job fails clearly and nothing changes).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import type { ReqOf } from '../../protocol/messages.js';
import type { ImportProgress } from '../../protocol/model/import.js';
import { until } from '../support/until.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/importers/postman');
const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  get = async (name: string) => this.values.get(name) ?? null;
  set = async (name: string, value: string) => void this.values.set(name, value);
  delete = async (name: string) => void this.values.delete(name);
  unavailableReason = async () => null;
}

let sup: Supervisor;
let home: string;
const secrets = new MemorySecrets();

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-postman-it-'));
  sup = await Supervisor.start({ dataDir: home, log: () => {}, secrets });
}, 30_000);
afterAll(async () => {
  await sup?.shutdown();
});

function run(req: ReqOf<'import.run'>, signal = new AbortController().signal, progress: ImportProgress[] = []) {
  return sup.imports.run(req, { signal, chunk: (p) => progress.push(p) });
}

async function filesOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.set(relative(dir, join(entry.parentPath, entry.name)), await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return out;
}

function bigCollection(requests: number): string {
  const item = Array.from({ length: requests }, (_, i) => ({ name: `R${i}`, request: { method: 'POST', url: `{{base}}/things/${i}?q=${i}`, header: [{ key: 'X-N', value: String(i) }], body: { mode: 'raw', raw: JSON.stringify({ i, text: 'x'.repeat(200) }), options: { raw: { language: 'json' } } } } }));
  return JSON.stringify({ info: { name: 'Big', schema: SCHEMA }, item: [{ name: 'Folder', item }] });
}

describe('Postman collection into a project', () => {
  it('imports by file into a new project: requests, folders, properties; a name the project has keeps its value', async () => {
    const path = join(FIXTURES, 'bruno/postman-v21.json');
    const progress: ImportProgress[] = [];
    const done = await run({ source: { kind: 'file', path }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'p1') } }, undefined, progress);
    expect(done.detection).toMatchObject({ format: 'postman-collection', label: 'Postman collection v2.1' });
    expect(done.apis[0]).toMatchObject({ name: 'Postman v2.1 Collection', requests: 2 });
    expect(done.properties).toBe(1);
    expect(progress.some((p) => p.bytes !== undefined && p.bytes > 0)).toBe(true);
    const store = sup.project(done.project!);
    expect(store.properties).toEqual([{ name: 'baseUrl', value: 'https://api.example.com', enabled: true }]);

    await store.setProperties([{ name: 'baseUrl', value: 'http://localhost:1', enabled: true }]);
    const again = await run({ source: { kind: 'paste', text: readFileSync(path, 'utf8') }, format: 'postman-collection', options: {}, into: { kind: 'project', project: store.root } });
    expect(again.properties).toBe(0);
    expect(store.properties).toEqual([{ name: 'baseUrl', value: 'http://localhost:1', enabled: true }]);
    expect(store.listApis().filter((a) => a.name === 'Postman v2.1 Collection')).toHaveLength(2);
  });

  it('a collection without a target is refused before anything is written', async () => {
    await expect(run({ source: { kind: 'file', path: join(FIXTURES, 'bruno/postman-v20.json') }, format: 'auto', options: {} })).rejects.toMatchObject({ code: 'import-needs-project' });
  });

  it('the importer runs with a heap cap sized from the source', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pm-big-'));
    const path = join(dir, 'big.postman_collection.json');
    await writeFile(path, bigCollection(5000));
    const job = run({ source: { kind: 'file', path }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'cap') } });
    await until(() => sup.activeJobs.some((j) => j.pid !== undefined));
    const cmdline = readFileSync(`/proc/${sup.activeJobs[0]!.pid!}/cmdline`, 'utf8').split('\0');
    expect(cmdline.some((a) => /^--max-old-space-size=\d+$/.test(a))).toBe(true);
    // Only an OpenAPI definition's importer trades speed for memory.
    expect(cmdline).not.toContain('--optimize-for-size');
    expect((await job).apis[0]!.requests).toBe(5000);
  }, 120_000);

  it('kill -9 of the importer mid-import: the job fails clearly and the project is unchanged', async () => {
    const store = sup.project(join(home, 'p1'));
    const before = await filesOf(store.root);
    let killed = false;
    const job = sup.imports.run(
      { source: { kind: 'paste', text: bigCollection(5000) }, format: 'auto', options: {}, into: { kind: 'project', project: store.root } },
      {
        signal: new AbortController().signal,
        chunk: (p) => {
          // The first chunk of conversion: the importer is mid-import.
          if (!killed && p.phase === 'convert') {
            killed = true;
            process.kill(sup.activeJobs[0]!.pid!, 'SIGKILL');
          }
        },
      },
    );
    await expect(job).rejects.toMatchObject({ code: 'child-died', message: expect.stringMatching(/SIGKILL/) });
    expect(killed).toBe(true);
    expect(await filesOf(store.root)).toEqual(before);
  }, 120_000);
});

describe('Postman environments and globals into the workspace', () => {
  it('an environment: no project needed, never active, secret values to the secret store as references, disabled kept', async () => {
    const text = JSON.stringify({ name: 'Staging', values: [{ key: 'host', value: '{{base}}/v1' }, { key: 'token', value: 'tok-123', type: 'secret' }, { key: 'empty', value: '', type: 'secret' }, { key: 'off', value: '1', enabled: false }], _postman_variable_scope: 'environment' });
    const done = await run({ source: { kind: 'paste', text }, format: 'auto', options: {} });
    expect(done.project).toBeUndefined();
    expect(done.workspace?.environments).toEqual([expect.objectContaining({ name: 'Staging', variables: 4, secrets: 2 })]);
    const ws = sup.workspace.get();
    const env = ws.environments.find((e) => e.name === 'Staging')!;
    expect(ws.activeEnvironment).toBeUndefined();
    expect(env.variables).toEqual([
      { name: 'host', value: '${base}/v1', enabled: true },
      { name: 'token', value: '${secret:staging/token}', enabled: true },
      { name: 'empty', value: '', enabled: true },
      { name: 'off', value: '1', enabled: false },
    ]);
    expect(secrets.values.get('staging/token')).toBe('tok-123');
    expect(secrets.values.has('staging/empty')).toBe(false);
    expect(ws.secrets).toContain('staging/token');
    expect(done.report.warnings.some((w) => /no exported value/.test(w.message))).toBe(true);
    // Where the value went is said by the supervisor, which knows the store (here the keychain; a vault says "the vault").
    expect(done.report.notes).toContainEqual({ message: '1 secret value went to the system keychain; the variable holds a ${secret:…} reference.' });
    expect(JSON.stringify(ws)).not.toContain('tok-123');
  });

  it('a taken name (case-insensitive) gets a numeric suffix; an existing secret is never overwritten', async () => {
    secrets.values.set('staging-2/token', 'kept-value');
    const text = JSON.stringify({ name: 'STAGING', values: [{ key: 'token', value: 'new-value', type: 'secret' }], _postman_variable_scope: 'environment' });
    const done = await run({ source: { kind: 'paste', text }, format: 'postman-environment', options: {} });
    expect(done.workspace?.environments[0]?.name).toBe('STAGING 2');
    expect(secrets.values.get('staging-2/token')).toBe('kept-value');
    expect(done.report.warnings.some((w) => /already holds a secret named staging-2\/token/.test(w.message))).toBe(true);
    expect(sup.workspace.get().environments.find((e) => e.name === 'STAGING 2')!.variables[0]!.value).toBe('${secret:staging-2/token}');
    expect(sup.workspace.get().activeEnvironment).toBeUndefined();
  });

  it('globals merge: an existing global keeps its value, new ones are added', async () => {
    await sup.workspace.update((d) => void (d.globals = [{ name: 'host', value: 'mine', enabled: true }]));
    const done = await run({ source: { kind: 'file', path: join(FIXTURES, 'environments/global-env.json') }, format: 'auto', options: {} });
    expect(done.workspace?.globals).toMatchObject({ kept: 1, added: 5, secrets: 1 });
    const globals = sup.workspace.get().globals;
    expect(globals.find((g) => g.name === 'host')?.value).toBe('mine');
    expect(globals.find((g) => g.name === 'secretApiToken')?.value).toBe('${secret:secretApiToken}');
    expect(secrets.values.get('secretApiToken')).toBe('global-secret-token-67890');
  });

  it('a data dump is refused and nothing changes', async () => {
    const before = JSON.stringify(sup.workspace.get());
    await expect(run({ source: { kind: 'paste', text: JSON.stringify({ version: 1, collections: [], environments: [] }) }, format: 'auto', options: {} })).rejects.toMatchObject({ code: 'import-refused' });
    expect(JSON.stringify(sup.workspace.get())).toBe(before);
  });
});
