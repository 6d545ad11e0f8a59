/**
 * The process boundaries `npm run lint` enforces (.dependency-cruiser.cjs, ARCHITECTURE.md
 * "Boundaries"): each rule fails on a deliberate cross-import written the way code really
 * imports, relative paths and all, and an allowed import passes.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';

const root = repoRoot();
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The rules broken by a tree of files (path → source), as the lint would report them. */
async function violations(files: Record<string, string>): Promise<string[]> {
  dir = await mkdtemp(join(tmpdir(), 'parley-boundaries-'));
  await copyFile(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  await copyFile(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const tops = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
  const run = spawnSync(process.execPath, [join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), ...tops, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stdout, run.stderr).not.toBe('');
  const report = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

const leaf = 'export const x = 1;\n';

test("a process importing another process's internals by a relative path", async () => {
  expect(
    await violations({
      'processes/supervisor/paths.ts': leaf,
      'processes/sender/main.ts': "import { x } from '../supervisor/paths.js';\nexport const y = x;\n",
      'cli/main.ts': "import { y } from '../processes/sender/main.js';\nexport const z = y;\n",
    }),
  ).toEqual(['no-process-internals: processes/sender/main.ts → processes/supervisor/paths.ts']);
});

test('an engine reaching process wiring, its own or another', async () => {
  expect(
    await violations({
      'processes/checker/main.ts': leaf,
      'processes/runtime/child.ts': leaf,
      'processes/checker/engine/check.ts': "import { x } from '../main.js';\nimport { x as c } from '../../runtime/child.js';\nexport const y = x + c;\n",
    }),
  ).toEqual(['engines-are-pure: processes/checker/engine/check.ts → processes/checker/main.ts', 'engines-are-pure: processes/checker/engine/check.ts → processes/runtime/child.ts']);
});

test('protocol importing a process, the page importing anything but protocol, a process importing a command', async () => {
  expect(
    (
      await violations({
        'processes/sender/engine/send.ts': leaf,
        'protocol/messages.ts': "import { x } from '../processes/sender/engine/send.js';\nexport const y = x;\n",
        'processes/ui/src/App.tsx': "import { y } from '../../../protocol/messages.js';\nimport { x } from '../../sender/engine/send.js';\nexport const z = x + y;\n",
        'cli/run.ts': leaf,
        'processes/supervisor/run.ts': "import { x } from '../../cli/run.js';\nexport const y = x;\n",
      })
    ).sort(),
  ).toEqual([
    'no-process-imports-the-cli: processes/supervisor/run.ts → cli/run.ts',
    'protocol-stands-alone: protocol/messages.ts → processes/sender/engine/send.ts',
    'ui-speaks-only-protocol: processes/ui/src/App.tsx → processes/sender/engine/send.ts',
  ]);
});

test("what the rules allow: another process's engine, the shared runtime, protocol", async () => {
  expect(
    await violations({
      'protocol/ids.ts': leaf,
      'processes/runtime/budgeted-pool.ts': leaf,
      'processes/checker/engine/check.ts': "import { x } from '../../../protocol/ids.js';\nexport const y = x;\n",
      'processes/mock-host/check-pool.ts': "import { x } from '../runtime/budgeted-pool.js';\nimport { y } from '../checker/engine/check.js';\nexport const z = x + y;\n",
    }),
  ).toEqual([]);
});
