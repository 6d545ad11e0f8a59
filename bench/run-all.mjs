// Runs every bench script in bench/, one after another (they measure time: never two at once),
// each with its default arguments, printing its output as it comes. A script counts as a bench
// when its header has a `Usage:` line naming `node bench/<file>`; other .mjs files there are
// helpers and are skipped, as is every subfolder (fixtures/, peers/). Exits non-zero if any failed.
// Usage: node bench/run-all.mjs [name ...]   (only the scripts whose file name contains a name)
import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const only = process.argv.slice(2);

const scripts = [];
for (const file of (await readdir(here)).filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs').sort()) {
  const header = (await readFile(join(here, file), 'utf8')).slice(0, 4_000);
  const usage = new RegExp(`Usage:.*\\bnode bench/${file.replaceAll('.', '\\.')}`);
  if (!usage.test(header)) {
    console.log(`skipping bench/${file}: no "Usage: ... node bench/${file}" line, so not a bench script`);
    continue;
  }
  if (only.length > 0 && !only.some((name) => file.includes(name))) continue;
  scripts.push(file);
}

function run(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join('bench', file)], { cwd: root, stdio: 'inherit' });
    child.once('error', (err) => {
      console.error(`bench/${file} could not start: ${err.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(signal ? `${signal}` : code));
  });
}

const outcomes = [];
for (const file of scripts) {
  console.log(`\n=== node bench/${file}  (${new Date().toISOString()}) ===`);
  const started = performance.now();
  const result = await run(file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  outcomes.push({ file, result, seconds });
  console.log(`=== bench/${file}: ${result === 0 ? 'done' : `FAILED (${result})`} in ${seconds} s ===`);
}

console.log('\nsummary:');
for (const { file, result, seconds } of outcomes) console.log(`  ${result === 0 ? 'ok    ' : 'FAILED'} bench/${file} (${seconds} s)`);
if (outcomes.some((o) => o.result !== 0)) process.exitCode = 1;
