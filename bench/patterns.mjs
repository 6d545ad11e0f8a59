// What running contract patterns on the linear engine costs (processes/checker/engine/regex.ts):
// re2js alone, and as the checker runs them (V8 answering the strings short enough that its worst
// case on the pattern stays small), against V8's own RegExp in the same run. ns per test for
// patterns of the kind OpenAPI documents carry, on matching and failing strings of about 10-40
// characters and on one of 10,000, plus the time to compile each (translation, and re2js's compile
// on first use). The catastrophic case (`^(a+)+$` against 40 `a`s and a `!`) runs on the linear
// engine only; V8 would need minutes. Asserts nothing.
// Usage: node bench/patterns.mjs [scale=1]
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scale = Number(process.argv[2] ?? 1);
const work = await mkdtemp(join(tmpdir(), 'parley-bench-patterns-'));
await build({ absWorkingDir: root, entryPoints: ['processes/checker/engine/regex.ts'], outfile: join(work, 'regex.mjs'), bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
const { compileEcmaPattern } = await import(pathToFileURL(join(work, 'regex.mjs')).href);

const cases = [
  ['uuid', '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', '3be6453c-03eb-4357-ae5a-984a0e574a54', '3be6453c-03eb-4357-ae5a-984a0e574a5'],
  ['time (museum)', '^([01]\\d|2[0-3]):?([0-5]\\d)$', '09:30', '24:00'],
  ['slug', '^[a-z0-9]+(?:-[a-z0-9]+)*$', 'pirate-coding-workshop', 'Pirate Coding'],
  ['e-mail-ish', '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', 'captain@example.org', 'captain at example'],
  ['phone (E.164)', '^\\+?[1-9]\\d{1,14}$', '+4915112345678', '0049-151'],
  ['unanchored word', 'coding', 'Pirate Coding Workshop: coding for all', 'Pirate Workshop'],
  ['unicode letters', '^\\p{L}+(?: \\p{L}+)*$', 'Gyöngyi Éva', 'R2-D2'],
];
const long = 'a'.repeat(10_000);

/** Distinct string objects with the same text, taken in turn: a cache keyed on the string would flatter either engine. */
function nsPerCall(fn, input, iterations) {
  const inputs = Array.from({ length: 64 }, () => (' ' + input).slice(1));
  for (let i = 0; i < Math.min(iterations, 2000); i++) fn(inputs[i & 63]); // warm-up
  const t = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn(inputs[i & 63]);
  return Number(process.hrtime.bigint() - t) / iterations;
}

console.log(JSON.stringify({ node: process.version, cores: cpus().length, cpu: cpus()[0]?.model.trim(), 'load average at start': loadavg().map((x) => x.toFixed(2)).join(' ') }));
const iterations = 200_000 * scale;
const ratios = [];
try {
  for (const [name, source, yes, no] of cases) {
    let t = process.hrtime.bigint();
    const compiled = compileEcmaPattern(source, { re2Only: true });
    compiled.pattern?.testLinear(yes); // re2js compiles on first use
    const compileUs = Number(process.hrtime.bigint() - t) / 1000;
    if (!compiled.ok || !compiled.pattern.linear) throw new Error(`${name}: not on the linear engine`);
    // As the checker runs it: V8 for strings its worst case on the pattern cannot make slow.
    const auto = compileEcmaPattern(source);
    t = process.hrtime.bigint();
    const native = new RegExp(source, 'u');
    native.test(yes);
    const nativeCompileUs = Number(process.hrtime.bigint() - t) / 1000;
    const linear = (s) => compiled.pattern.testLinear(s);
    const checker = (s) => auto.pattern.testLinear(s);
    const v8 = (s) => native.test(s);
    if (linear(yes) !== v8(yes) || linear(no) !== v8(no)) throw new Error(`${name}: the engines disagree`);
    // Five interleaved rounds, the fastest of each kept: on a shared machine the slow rounds are other people's work.
    const best = { linear: [Infinity, Infinity, Infinity], v8: [Infinity, Infinity, Infinity], checker: [Infinity, Infinity, Infinity] };
    for (let round = 0; round < 5; round++) {
      for (const [key, fn] of [['linear', linear], ['v8', v8], ['checker', checker]]) {
        const times = [nsPerCall(fn, yes, iterations / 5), nsPerCall(fn, no, iterations / 5), nsPerCall(fn, long, iterations / 500)];
        best[key] = best[key].map((b, i) => Math.min(b, times[i]));
      }
    }
    const line = {
      pattern: name,
      'linear ns (match / no match / 10 KB)': best.linear.map(Math.round),
      'V8 ns (match / no match / 10 KB)': best.v8.map(Math.round),
      'as the checker runs it, ns (match / no match / 10 KB)': best.checker.map(Math.round),
      'V8 answers strings up to': auto.pattern.v8UpTo,
      'compile µs (linear / V8)': [Math.round(compileUs), Math.round(nativeCompileUs)],
    };
    ratios.push([line['linear ns (match / no match / 10 KB)'][0] / line['V8 ns (match / no match / 10 KB)'][0], line['as the checker runs it, ns (match / no match / 10 KB)'][0] / line['V8 ns (match / no match / 10 KB)'][0]]);
    console.log(JSON.stringify(line));
  }
  const runaway = compileEcmaPattern('^(a+)+$');
  const input = `${'a'.repeat(40)}!`;
  console.log(JSON.stringify({ pattern: '^(a+)+$ on 40 a and !', 'linear ns': Math.round(nsPerCall((s) => runaway.pattern.testLinear(s), input, iterations / 10)), 'V8': 'not run (minutes)' }));
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    JSON.stringify({
      'on a matching short string, median over the patterns: re2js alone / V8': `${median(ratios.map((r) => r[0])).toFixed(1)}x`,
      'as the checker runs it / V8': `${median(ratios.map((r) => r[1])).toFixed(1)}x`,
    }),
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
