// `npm test`: build, type-check, lint (eslint and the process boundaries), then every test (vitest) inside a private D-Bus session
// with an unlocked gnome-keyring, so keychain tests talk to a real Secret Service.
// Without gnome-keyring: under CI=true that is an error; elsewhere keychain tests say they skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
/** Runs a command to its end: its exit status (1 when it was killed). */
const spawn = (cmd, args, env = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const run = (cmd, args, env = {}) => {
  const status = spawn(cmd, args, env);
  if (status !== 0) process.exit(status);
};
const onPath = (name) => (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, name)));

run(process.execPath, ['scripts/build.mjs']);
run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
run(bin('eslint'), ['.']);
run(bin('depcruise'), ['processes', 'cli', 'protocol', '--config', '.dependency-cruiser.cjs']);

// Every file the suite writes goes under a temporary folder of its own (TMPDIR), so that after the
// run the secrets scan (test/secrets-scan/scan.mjs, issue 26 item 16) reads all of them.
const suiteTmp = mkdtempSync(join(tmpdir(), 'ps-'));
const suiteEnv = { TMPDIR: suiteTmp };
const vitest = [bin('vitest'), 'run', ...process.argv.slice(2)];
let status;
if (onPath('gnome-keyring-daemon') && onPath('dbus-run-session')) {
  status = spawn(join(root, 'scripts', 'with-keyring'), vitest, { ...suiteEnv, PARLEY_TEST_KEYRING: '1' });
} else if (process.env.CI) {
  console.error('npm test: gnome-keyring-daemon and dbus-run-session are required under CI (Debian: gnome-keyring dbus-x11).');
  process.exit(1);
} else {
  console.warn('npm test: no gnome-keyring here; keychain tests will report that they skip.');
  status = spawn(vitest[0], vitest.slice(1), suiteEnv);
}
const scan = spawn(process.execPath, [join(root, 'test', 'secrets-scan', 'scan.mjs'), suiteTmp]);
// Kept when the scan found something, to look at; removed otherwise (the suite writes gigabytes).
if (scan === 0) rmSync(suiteTmp, { recursive: true, force: true });
process.exit(status !== 0 ? status : scan);
