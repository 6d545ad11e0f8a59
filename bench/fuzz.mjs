// Runs the fuzz tests of test/fuzz (every importer, the bus, the project loader, the mock request
// path) with many cases from a fresh seed, one target after another, and prints per target the
// cases run, the time, and whether any case failed (a crash or an untyped error fails it, with
// fast-check's counterexample and seed to replay it). RELIABILITY.md records the figures.
// Usage: node bench/fuzz.mjs [--runs 10000] [--seed N] [target ...]   (targets: importers bus project-loader mock-requests)
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string' } }, allowPositionals: true });
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
const targets = positionals.length > 0 ? positionals : ['importers', 'bus', 'project-loader', 'mock-requests'];

function run(target) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(join(root, 'node_modules', '.bin', 'vitest'), ['run', `test/fuzz/${target}.fuzz.test.ts`, '--testTimeout', '0'], {
      cwd: root,
      env: { ...process.env, FUZZ_RUNS: values.runs, FUZZ_SEED: seed },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      const tests = /Tests\s+(.*)\n/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''))?.[1]?.trim() ?? '?';
      resolve({ target, code, seconds: (performance.now() - started) / 1000, tests, out });
    });
  });
}

console.log(`fuzz: ${values.runs} cases per property, seed ${seed}`);
let failed = 0;
for (const target of targets) {
  const r = await run(target);
  console.log(`${r.target.padEnd(16)} ${r.code === 0 ? 'ok    ' : 'FAILED'} ${r.seconds.toFixed(0).padStart(6)} s  tests: ${r.tests}`);
  if (r.code !== 0) {
    failed++;
    console.log(r.out.split('\n').filter((l) => /Counterexample|seed|Error|threw/.test(l)).slice(0, 20).join('\n'));
  }
}
process.exit(failed > 0 ? 1 : 0);
