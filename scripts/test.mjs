// `npm test`: build, type-check, lint (eslint and the process boundaries), then every test (vitest) inside a private D-Bus session
// with an unlocked gnome-keyring, so keychain tests talk to a real Secret Service.
// Without gnome-keyring: under CI=true that is an error; elsewhere keychain tests say they skip.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args, env = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const onPath = (name) => (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, name)));

run(process.execPath, ['scripts/build.mjs']);
run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
run(bin('eslint'), ['.']);
run(bin('depcruise'), ['processes', 'cli', 'protocol', '--config', '.dependency-cruiser.cjs']);

const vitest = [bin('vitest'), 'run', ...process.argv.slice(2)];
if (onPath('gnome-keyring-daemon') && onPath('dbus-run-session')) {
  run(join(root, 'scripts', 'with-keyring'), vitest, { PARLEY_TEST_KEYRING: '1' });
} else if (process.env.CI) {
  console.error('npm test: gnome-keyring-daemon and dbus-run-session are required under CI (Debian: gnome-keyring dbus-x11).');
  process.exit(1);
} else {
  console.warn('npm test: no gnome-keyring here; keychain tests will report that they skip.');
  run(vitest[0], vitest.slice(1));
}
