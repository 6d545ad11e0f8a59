// `parley ui` to first paint (DESIGN.md budget: under 1.5 s). Each run starts the built
// `dist/cli.js ui --no-open` with a fresh PARLEY_HOME and opens the printed URL in Chromium
// (launched once beforehand, as a user's browser already runs). Measured from the spawn: the
// URL printed, the page's first contentful paint, and `body[data-ready=true]` (first data in).
// Then where the time before the URL goes: bare Node start, loading the CLI bundle, and the
// sender and checker children starting (Supervisor.start waits for both). Medians; asserts nothing.
// Usage: node bench/first-paint.mjs [runs=7]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { bundleNode, cleanup, importFile, launchChromium, machine, median, openUi, root, startParley, tempDir } from './fixtures/harness.mjs';

const RUNS = Number(process.argv[2] ?? 7);

// Records when the UI flags itself ready, from before any page script runs.
const READY_PROBE = () => {
  window.__readyAt = null;
  new MutationObserver((_records, observer) => {
    if (document.body?.dataset.ready === 'true') {
      window.__readyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
};

async function oneRun(context, args) {
  const app = await startParley(args);
  try {
    const page = await openUi(context, app, { initScript: READY_PROBE });
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      return {
        origin: performance.timeOrigin,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        fp: performance.getEntriesByName('first-paint')[0]?.startTime ?? NaN,
        dcl: nav?.domContentLoadedEventEnd ?? NaN,
        ready: window.__readyAt ?? NaN,
      };
    });
    await page.close();
    // Epoch ms on both sides: the page's timeOrigin and our Date.now() before the spawn.
    const fromSpawn = (pageMs) => t.origin + pageMs - app.spawnedAt;
    return {
      url: app.urlMs,
      navigation: t.origin - app.spawnedAt,
      fcp: fromSpawn(t.fcp),
      dcl: fromSpawn(t.dcl),
      ready: fromSpawn(t.ready),
      fcpInPage: t.fcp,
      readyInPage: t.ready,
    };
  } finally {
    await app.stop();
  }
}

/** Wall time of a process from spawn to exit. */
function timeProcess(args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - start));
  });
}

const launchStart = performance.now();
const browser = await launchChromium();
const launchMs = performance.now() - launchStart;

console.log(`first paint bench, ${machine()}; Chromium ${browser.context.browser()?.version() ?? '(persistent context)'} headless, launched once in ${launchMs.toFixed(0)} ms`);
const report = (label, runs) => {
  const col = (key) => `${median(runs.map((r) => r[key])).toFixed(0)} ms`;
  console.log(
    `${label.padEnd(26)} URL printed ${col('url')}, navigation starts ${col('navigation')}, first contentful paint ${col('fcp')}, ` +
      `DOMContentLoaded ${col('dcl')}, data-ready ${col('ready')}  (in the page: FCP ${col('fcpInPage')}, ready ${col('readyInPage')} after navigation start)`,
  );
  return median(runs.map((r) => r.fcp));
};

const variants = [
  ['parley ui --no-open', []],
  ['parley ui --no-open --demo', ['--demo']],
];
const results = new Map(variants.map(([label]) => [label, []]));
await oneRun(browser.context, []); // warm the OS file cache, as a second start would be
for (let i = 0; i < RUNS; i++) for (const [label, args] of variants) results.get(label).push(await oneRun(browser.context, args));
await browser.close();

console.log(`median of ${RUNS} runs, each with a fresh PARLEY_HOME, times from the spawn of dist/cli.js:`);
const fcp = report(variants[0][0], results.get(variants[0][0]));
report(variants[1][0], results.get(variants[1][0]));

// Where the time before the URL goes.
const work = await tempDir('first-paint');
const { 'bus-kit': busKit } = await bundleNode({ 'bus-kit': 'bench/fixtures/bus-kit.ts' }, work);
const { ChildProcessHandle } = await importFile(busKit);
async function childStart(entries) {
  const handles = entries.map((entry) => new ChildProcessHandle({ name: entry, entry: join(root, 'dist', entry), restart: false }));
  const start = performance.now();
  await Promise.all(handles.map((h) => h.start()));
  const took = performance.now() - start;
  await Promise.all(handles.map((h) => h.stop()));
  return took;
}
const phases = { node: [], cli: [], sender: [], checker: [], both: [] };
for (let i = 0; i < RUNS; i++) {
  phases.node.push(await timeProcess(['-e', '0']));
  phases.cli.push(await timeProcess([join(root, 'dist', 'cli.js'), '--version']));
  phases.sender.push(await childStart(['sender.js']));
  phases.checker.push(await childStart(['checker.js']));
  phases.both.push(await childStart(['sender.js', 'checker.js']));
}
await cleanup(work);
const m = (key) => `${median(phases[key]).toFixed(0)} ms`;
console.log(
  `before the URL: bare \`node -e 0\` ${m('node')}; \`node dist/cli.js --version\` (Node + CLI bundle load) ${m('cli')}; ` +
    `child spawn to handshake: sender ${m('sender')}, checker ${m('checker')}, both at once ${m('both')}`,
);
console.log(`target: parley ui to first paint under 1.5 s: ${fcp < 1500 ? 'met' : 'MISSED'} (${fcp.toFixed(0)} ms median, spawn to first contentful paint)`);
