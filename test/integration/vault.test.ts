/**
 * Secrets without a keychain, end to end (docs/secrets.md, "No keychain: the vault"): the real
 * `parley ui` whose D-Bus session does not exist. A typed password is refused until a vault is
 * made (or saved without it); made, it is sealed into the workspace's vault, sent, kept across a
 * restart, unlocked again with the passphrase (a wrong one changes nothing), read by `parley run`
 * with PARLEY_VAULT_PASSPHRASE or replaced by PARLEY_SECRET_<NAME>; a kill -9 while saves are
 * under way loses no secret already stored. Neither the passphrase nor the password ever shows in
 * the app's or the CLI's output, an error message, a project file or any file of the data folder.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { VAULT_FILE } from '../../processes/supervisor/store/vault-file.js';
import type { Request } from '../../protocol/model/request.js';
import { secretEnvName } from '../../protocol/secret-names.js';
import { startApp, type RunningApp } from '../support/app.js';
import { finished, type Run } from '../support/processes.js';
import { busCaller, type UiCall } from '../support/ui-calls.js';

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-vault-test-bus' };
/** Neither may appear anywhere but in what the test itself sends. */
const PASSPHRASE = 'vault-pass-4e1b97 words';
const PASSWORD = 'pw-typed-8c23d5f0';
const SLOW = { timeout: 300_000 };

let server: Server;
let base: string;
const seen: string[] = [];
let home: string;
let projectDir: string;
const outputs: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(String(req.headers.authorization ?? ''));
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  home = await mkdtemp(join(tmpdir(), 'parley-vault-home-'));
  // The project lives apart from the data folder: the vault is never in it.
  projectDir = join(await mkdtemp(join(tmpdir(), 'parley-vault-project-')), 'Vaulted');
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  if (home) await rm(home, { recursive: true, force: true });
  if (projectDir) await rm(join(projectDir, '..'), { recursive: true, force: true });
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Runs the app on the test's workspace with no keychain, and a bus to it; the app's output is kept for the leak check. */
async function withApp<T>(work: (call: UiCall, app: RunningApp) => Promise<T>, options: { kill?: boolean } = {}): Promise<T> {
  const app = await startApp([projectDir], { PARLEY_HOME: home, ...NO_BUS });
  try {
    const bus = await busCaller(app.url);
    try {
      await bus.call('project.open', { path: projectDir });
      return await work(bus.call, app);
    } finally {
      bus.close();
    }
  } finally {
    if (!options.kill) await app.stop();
    outputs.push(app.output());
  }
}

/** The error a call fails with (its message kept for the leak check). */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as { code: string; message: string } | null;
  if (!err) throw new Error('the call was expected to fail');
  errors.push(err.message);
  return err;
}

async function filesHolding(dir: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && (await readFile(join(entry.parentPath, entry.name))).includes(Buffer.from(text))) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

function parleyRun(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), 'run', projectDir, ...args], {
    stdio: 'pipe',
    env: { ...process.env, PARLEY_HOME: home, ...NO_BUS, ...env },
  });
  child.stdin.end();
  return finished(child);
}

let saved: Request;

describe('the vault on a system without a keychain', () => {
  it('is offered when a typed password has nowhere to go; made, it keeps the password, and a send uses it', SLOW, async () => {
    await withApp(async (call) => {
      const status = await call('secret.status', {});
      expect(status).toMatchObject({ backend: 'none', available: false, locked: false, vaultFile: join(home, VAULT_FILE) });
      expect(status.reason).toMatch(/^No secure storage on this system/);

      const api = await call('api.create', { project: projectDir, name: 'Locked', baseUrl: base });
      const created = await call('request.create', { project: projectDir, parent: api.id, name: 'Whoami', method: 'GET', url: '/whoami' });
      const typed: Request = { ...created, auth: { type: 'basic', username: 'ada', password: PASSWORD } };

      // Nowhere to store it: refused, and the file is as it was.
      const file = join(projectDir, 'apis', 'Locked', 'requests', 'Whoami.request.yaml');
      const before = await readFile(file, 'utf8');
      const refused = await refusal(call('request.save', { project: projectDir, request: typed }));
      expect(refused.code).toBe('no-secure-storage');
      expect(refused.message).toMatch(/The secret typed into the auth was not saved\.$/);
      await expect(readFile(file, 'utf8')).resolves.toBe(before);

      // Saved without the secret: the field is empty in the file.
      const without = await call('request.save', { project: projectDir, request: typed, leaveOutSecrets: true });
      expect(without.auth).toEqual({ type: 'basic', username: 'ada', password: '' });

      // A folder's auth the same way: refused, or saved with the field empty and no keychain id written.
      const folder = (await call('tree.newFolder', { project: projectDir, parent: api.id, name: 'Team' })).id;
      const folderFile = join(projectDir, 'apis', 'Locked', 'requests', 'Team', 'folder.yaml');
      const folderBefore = await readFile(folderFile, 'utf8');
      const folderSettings = { auth: { type: 'bearer' as const, token: PASSWORD }, headers: [], variables: [] };
      const folderRefused = await refusal(call('folder.save', { project: projectDir, id: folder, settings: folderSettings }));
      expect(folderRefused).toMatchObject({ code: 'no-secure-storage', message: expect.stringMatching(/The secret typed into the folder settings was not saved\.$/) });
      await expect(readFile(folderFile, 'utf8')).resolves.toBe(folderBefore);
      const folderWithout = await call('folder.save', { project: projectDir, id: folder, settings: folderSettings, leaveOutSecrets: true });
      expect(folderWithout.settings.auth).toEqual({ type: 'bearer', token: '' });
      const folderText = await readFile(folderFile, 'utf8');
      expect(folderText).toMatch(/token: ["']{2}/);
      expect(folderText).not.toMatch(/^id: /m);

      // A curl command with -u, and a Postman environment with a secret value: refused, or imported without them.
      const command = `curl -u ada:${PASSWORD} ${base}/whoami`;
      const curlRefused = await refusal(call('curl.import', { project: projectDir, parent: api.id, command, name: 'Curled' }));
      expect(curlRefused).toMatchObject({ code: 'no-secure-storage', message: expect.stringMatching(/The command carries a password or token, so nothing was imported\.$/) });
      expect((await call('project.tree', { project: projectDir })).items.map((i) => i.name)).not.toContain('Curled');
      const curled = await call('curl.import', { project: projectDir, parent: api.id, command, name: 'Curled', leaveOutSecrets: true });
      expect(curled.request.auth).toEqual({ type: 'basic', username: 'ada', password: '' });
      expect(curled.report.notes).toContain('The password was not imported: there is no secure storage for it (no system keychain, and no vault unlocked). The field is empty: type it on the Auth tab before sending.');
      const environment = JSON.stringify({ name: 'Staging', values: [{ key: 'token', value: PASSWORD, type: 'secret' }, { key: 'host', value: 'h' }], _postman_variable_scope: 'environment' });
      const envRun = { source: { kind: 'paste' as const, text: environment }, format: 'auto', options: {} };
      const envRefused = await refusal(call('import.run', envRun));
      expect(envRefused).toMatchObject({ code: 'no-secure-storage', message: expect.stringMatching(/The import brings 1 secret variable value, so nothing was imported\.$/) });
      expect((await call('workspace.get', {})).environments).toEqual([]);
      const envImported = await call('import.run', { ...envRun, leaveOutSecrets: true });
      expect(envImported.report.warnings.map((w) => w.message)).toContain(
        'A secret variable arrives empty: there is no secure storage for its value (no system keychain, and no vault unlocked). Set it in the Environments tab.',
      );
      expect((envImported.report.notes ?? []).map((n) => n.message).join(' ')).not.toMatch(/keychain|vault/);
      expect((await call('workspace.get', {})).environments[0]!.variables.map((v) => [v.name, v.value])).toEqual([
        ['token', ''],
        ['host', 'h'],
      ]);

      // The vault: a short passphrase is refused; a good one makes it, unlocked.
      expect((await refusal(call('secret.createVault', { passphrase: 'short' }))).message).toBe('A vault passphrase needs at least 8 characters.');
      const made = await call('secret.createVault', { passphrase: PASSPHRASE });
      expect(made).toEqual({ backend: 'vault', locked: false, available: true, vaultFile: join(home, VAULT_FILE) });

      saved = (await call('request.save', { project: projectDir, request: typed })) as Request;
      expect(saved.auth).toEqual({ type: 'basic', username: 'ada', password: `\${secret:request/${saved.id}/password}` });
      await expect(call('secret.has', { names: [`request/${saved.id}/password`, 'nothing/here'] })).resolves.toEqual({
        found: [`request/${saved.id}/password`],
        missing: ['nothing/here'],
        unknown: [],
      });
      seen.length = 0;
      await call('request.send', { project: projectDir, request: saved });
      expect(seen).toEqual([basic('ada', PASSWORD)]);

      // An import's secret value goes into the vault too, and the report says so.
      const prod = JSON.stringify({ name: 'Prod', values: [{ key: 'token', value: `prod-${PASSWORD}`, type: 'secret' }], _postman_variable_scope: 'environment' });
      const imported = await call('import.run', { source: { kind: 'paste', text: prod }, format: 'auto', options: {} });
      expect(imported.report.notes).toContainEqual({ message: '1 secret value went to the vault; the variable holds a ${secret:…} reference.' });
      await expect(call('secret.has', { names: ['prod/token'] })).resolves.toMatchObject({ found: ['prod/token'] });
    });
    expect((await stat(join(home, VAULT_FILE))).mode & 0o777).toBe(0o600);
  });

  it('after a restart is locked; a wrong passphrase is said so and changes nothing; the right one unlocks it for the send', SLOW, async () => {
    await withApp(async (call) => {
      await expect(call('secret.status', {})).resolves.toMatchObject({ backend: 'vault', locked: true, available: false });
      const locked = await refusal(call('request.send', { project: projectDir, request: saved }));
      expect(locked.code).toBe('vault-locked');
      expect(locked.message).toContain('which is locked: unlock it with its passphrase (Unlock vault… in the status bar or the command palette)');

      const vaultBefore = await readFile(join(home, VAULT_FILE));
      const wrong = await refusal(call('secret.unlock', { passphrase: 'not the passphrase' }));
      expect(wrong).toMatchObject({ code: 'vault-passphrase', message: 'Wrong passphrase: the vault was not unlocked.' });
      expect((await readFile(join(home, VAULT_FILE))).equals(vaultBefore)).toBe(true);
      await expect(call('secret.status', {})).resolves.toMatchObject({ backend: 'vault', locked: true });

      await expect(call('secret.unlock', { passphrase: PASSPHRASE })).resolves.toMatchObject({ backend: 'vault', locked: false, available: true });
      seen.length = 0;
      await call('request.send', { project: projectDir, request: saved });
      expect(seen).toEqual([basic('ada', PASSWORD)]);

      // Locked again (Lock vault): the next send asks again.
      await call('secret.lock', {});
      expect((await refusal(call('request.send', { project: projectDir, request: saved }))).code).toBe('vault-locked');
    });
  });

  it('parley run unlocks it with PARLEY_VAULT_PASSPHRASE, or takes PARLEY_SECRET_<NAME>, and names the variable when neither is there', SLOW, async () => {
    const args = ['--api', 'Locked', '--request', 'Whoami', '--reporter', 'json'];
    seen.length = 0;
    const unlocked = await parleyRun(args, { PARLEY_VAULT_PASSPHRASE: PASSPHRASE });
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(seen).toEqual([basic('ada', PASSWORD)]);

    // The name upper-cased, each run of other characters one `_` (ids hold `_` and `-`): cli/run/env-secrets.test.ts has literal cases.
    const variable = secretEnvName(`request/${saved.id}/password`);
    expect(variable).toMatch(/^PARLEY_SECRET_REQUEST_R_[A-Z0-9_]+_PASSWORD$/);
    const none = await parleyRun(args, {});
    expect(none.code).toBe(1);
    expect(none.stdout).toContain(`\${secret:request/${saved.id}/password} has no value: set ${variable} to supply it (the vault is locked: set PARLEY_VAULT_PASSPHRASE to unlock it)`);

    const wrong = await parleyRun(args, { PARLEY_VAULT_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout + wrong.stderr).toContain(`PARLEY_VAULT_PASSPHRASE does not unlock the vault ${join(home, VAULT_FILE)}: wrong passphrase.`);

    // parley import: a curl command's password goes into the vault when PARLEY_VAULT_PASSPHRASE unlocks it;
    // without it the import is refused and says what to do, or goes on with --without-secrets.
    const curl = (name: string, flags: string[], env: Record<string, string>) => {
      const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), 'import', '--format', 'curl', '-', '--project', projectDir, '--api', 'Locked', '--name', name, ...flags], {
        stdio: 'pipe',
        env: { ...process.env, PARLEY_HOME: home, ...NO_BUS, ...env },
      });
      child.stdin.end(`curl -u ada:${PASSWORD} ${base}/whoami`);
      return finished(child);
    };
    const lockedImport = await curl('Cli curl', [], {});
    expect(lockedImport.code).toBe(2);
    expect(lockedImport.stderr).toContain('which is locked: set PARLEY_VAULT_PASSPHRASE to its passphrase to unlock it. The command carries a password or token, so nothing was imported. Set PARLEY_VAULT_PASSPHRASE to the vault\'s passphrase, or give --without-secrets to import without them.');
    const withoutImport = await curl('Cli curl', ['--without-secrets'], {});
    expect(withoutImport.code, withoutImport.stderr).toBe(0);
    expect(withoutImport.stdout).toContain('Note      The password was not imported');
    const vaultImport = await curl('Cli vaulted', [], { PARLEY_VAULT_PASSPHRASE: PASSPHRASE });
    expect(vaultImport.code, vaultImport.stderr).toBe(0);
    seen.length = 0;
    const vaultedRun = await parleyRun(['--api', 'Locked', '--request', 'Cli vaulted'], { PARLEY_VAULT_PASSPHRASE: PASSPHRASE });
    expect(vaultedRun.code, vaultedRun.stdout).toBe(0);
    expect(seen).toEqual([basic('ada', PASSWORD)]);
    outputs.push(...[lockedImport, withoutImport, vaultImport, vaultedRun].flatMap((r) => [r.stdout, r.stderr]));

    seen.length = 0;
    const fromEnv = await parleyRun(args, { [variable]: 'from-the-environment' });
    expect(fromEnv.code, fromEnv.stdout).toBe(0);
    expect(seen).toEqual([basic('ada', 'from-the-environment')]);
    for (const run of [unlocked, none, wrong, fromEnv]) outputs.push(run.stdout, run.stderr);
  });

  it('loses no stored secret when the app is killed (SIGKILL) while saves are under way', SLOW, async () => {
    const answered: Request[] = [];
    await withApp(
      async (call, app) => {
        await call('secret.unlock', { passphrase: PASSPHRASE });
        const api = (await call('project.tree', { project: projectDir })).items.find((i) => i.kind === 'api')!.id;
        const requests = await Promise.all(Array.from({ length: 30 }, (_, i) => call('request.create', { project: projectDir, parent: api, name: `Saved ${i}`, method: 'GET', url: '/whoami' })));
        const exited = new Promise((r) => app.child.once('exit', r));
        // Every save at once; killed as the third is answered, with the others queued or under way.
        for (const [i, request] of requests.entries()) {
          void call('request.save', { project: projectDir, request: { ...request, auth: { type: 'bearer', token: `token-${i}-${PASSWORD}` } } }).then(
            (r) => {
              answered.push(r as Request);
              if (answered.length === 3) app.child.kill('SIGKILL');
            },
            () => {},
          );
        }
        await exited;
        expect(app.child.signalCode).toBe('SIGKILL');
        expect(answered.length).toBeLessThan(30);
      },
      { kill: true },
    );

    await withApp(async (call) => {
      await call('secret.unlock', { passphrase: PASSPHRASE });
      // Every answered save's secret is there, and so is the one stored before.
      const names = [`request/${saved.id}/password`, ...answered.map((r) => `request/${r.id}/token`)];
      await expect(call('secret.has', { names })).resolves.toEqual({ found: names, missing: [], unknown: [] });
      // A request file that refers to a secret has it: the secret is stored before the file is written.
      const tree = await call('project.tree', { project: projectDir });
      const refs: string[] = [];
      for (const item of tree.items.filter((i) => i.kind === 'request')) {
        const request = await call('request.get', { project: projectDir, id: item.id });
        if (request.auth.type === 'bearer' && request.auth.token !== '') refs.push(/^\$\{secret:(.+)\}$/.exec(request.auth.token)![1]!);
      }
      expect(refs.length).toBeGreaterThanOrEqual(answered.length);
      await expect(call('secret.has', { names: refs })).resolves.toMatchObject({ missing: [], unknown: [] });
      seen.length = 0;
      await call('request.send', { project: projectDir, request: answered[0]! });
      expect(seen[0]).toMatch(new RegExp(`^Bearer token-\\d+-${PASSWORD}$`));
    });
  });

  it('never shows the passphrase or a password in output, an error message, a project file or the data folder', () => {
    expect(outputs.length).toBeGreaterThan(4);
    expect(errors.length).toBeGreaterThan(3);
    for (const text of [...outputs, ...errors]) {
      expect(text).not.toContain(PASSPHRASE);
      expect(text).not.toContain(PASSWORD);
    }
    return Promise.all(
      [projectDir, home].flatMap((dir) => [PASSPHRASE, PASSWORD].map(async (secret) => expect(await filesHolding(dir, secret)).toEqual([]))),
    );
  });
});
