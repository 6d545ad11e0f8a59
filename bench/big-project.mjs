// A big project (DESIGN.md budget: a project of 5,000 requests opens and shows its tree in
// under 1 s; the tree is virtualized and loading does not block the UI). Generates 5,000
// requests in 200 folders (4 APIs x 50 folders x 25 requests) through the real project store,
// then measures:
//   1. ProjectStore.open (read + parse + validate every file) and the longest the event loop
//      waited meanwhile, and each phase on its own (with the old ways of reading and parsing
//      next to the store's), with a CPU profile of the open grouped by where the time goes; the
//      file watcher the supervisor starts after an open until ready (bench/watch.mjs compares it with the peers);
//   2. in Chromium, `parley ui <project>` from the spawn to the URL, first paint, data-ready and
//      the first tree rows; then expanding an API and a filter that shows every request;
//   3. in Chromium, opening the project from a running UI (palette > Open project folder) to its
//      first rows, with a long-task observer watching the page's main thread; then the same again
//      after quitting and starting on the same workspace (the reopen reads unchanged files from
//      the load cache). Each is done twice, on workspaces of their own: once quiet, which gives
//      the time to the rows, and once while the page pings the supervisor every 5 ms over a
//      second bus connection, which shows how long a UI call waits during the open. The pinging
//      is not free (200 round trips a second through Chromium's network process and the
//      supervisor, on two cores): it slows the open it watches, so its rows time is reported
//      apart and is not the target's figure.
// Reports medians; asserts nothing.
// Usage: node bench/big-project.mjs [runs=3]
import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join, sep } from 'node:path';
import { parseDocument } from 'yaml';
import { bundleBrowser, bundleNode, cleanup, connectBus, importFile, launchChromium, machine, median, ms, openUi, startParley, summarize, tempDir } from './fixtures/harness.mjs';

const RUNS = Number(process.argv[2] ?? 3);
const APIS = 4;
const FOLDERS_PER_API = 50;
const REQUESTS_PER_FOLDER = 25;
const TOTAL = APIS * FOLDERS_PER_API * REQUESTS_PER_FOLDER;
const PROJECT_NAME = 'Big';

const work = await tempDir('big-project');
const projectDir = join(work, 'big');
const built = await bundleNode(
  { kit: 'bench/fixtures/project-kit.ts', 'bus-kit': 'bench/fixtures/bus-kit.ts', 'yaml-kit': 'protocol/project/yaml-file.ts' },
  join(work, 'build'),
);
const kit = await importFile(built.kit);
const yamlKit = await importFile(built['yaml-kit']);
const busKit = await importFile(built['bus-kit']);
const pingerScript = await bundleBrowser('bench/fixtures/page-pinger.ts');

console.log(`big project bench, ${machine()}`);

// --- 0. generate ---------------------------------------------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
function request(api, folder, i) {
  const method = METHODS[i % METHODS.length];
  const body = kit.emptyBody();
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    body.kind = 'raw';
    body.raw = { language: 'json', text: JSON.stringify({ name: `item ${i}`, tags: ['a', 'b'], owner: { id: i, team: `team-${folder}` } }, null, 2) };
  }
  return {
    version: 1,
    id: `r_big_${api}_${folder}_${i}`,
    name: `${method} item ${i} of area ${folder}`,
    method,
    url: `/area-${folder}/items/{id}`,
    pathParams: [{ name: 'id', value: String(i) }],
    query: [
      { name: 'limit', value: '20', enabled: true },
      { name: 'expand', value: 'owner', enabled: false },
    ],
    headers: [
      { name: 'Accept', value: 'application/json', enabled: true },
      { name: 'X-Request-Id', value: '${requestId}', enabled: true },
    ],
    body,
    auth: { type: 'inherit' },
    settings: kit.defaultSettings(),
  };
}

let started = performance.now();
const writer = await kit.ProjectStore.open(projectDir, { create: true, name: PROJECT_NAME });
for (let a = 0; a < APIS; a++) {
  const api = await writer.createApi({ name: `Service ${a + 1}`, baseUrl: `http://127.0.0.1:4010/s${a + 1}` });
  for (let f = 0; f < FOLDERS_PER_API; f++) {
    const folder = `area-${String(f).padStart(2, '0')}`;
    const reserved = writer.nameClaims();
    const changes = [];
    for (let i = 0; i < REQUESTS_PER_FOLDER; i++) changes.push(writer.newRequestChange(api.id, folder, request(a, f, i), reserved));
    await writer.commit(changes); // one atomic save per folder, as an import writes a batch
  }
}
await writer.close();
const generateMs = performance.now() - started;
const files = [];
for (const entry of await readdir(join(projectDir, 'apis'), { recursive: true, withFileTypes: true })) {
  if (entry.isFile() && entry.name.endsWith(kit.REQUEST_SUFFIX)) files.push(join(entry.parentPath, entry.name));
}
let bytes = 0;
for (const file of files) bytes += (await readFile(file)).byteLength;
console.log(
  `generated ${files.length} request files (${(bytes / 1e6).toFixed(1)} MB YAML, ${APIS} APIs x ${FOLDERS_PER_API} folders) through ProjectStore.commit in ${(generateMs / 1000).toFixed(1)} s`,
);
if (files.length !== TOTAL) throw new Error(`expected ${TOTAL} request files, found ${files.length}`);

// --- 1. load in Node -----------------------------------------------------------------------

const openTimes = [];
const loopGaps = [];
let firstOpenMs = 0;
let tree;
for (let i = 0; i < RUNS + 1; i++) {
  // A 1 ms timer meanwhile: the longest gap between its runs is how long a socket would wait.
  let lastTick = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - lastTick);
    lastTick = now;
  }, 1);
  started = performance.now();
  const store = await kit.ProjectStore.open(projectDir);
  const took = performance.now() - started;
  clearInterval(ticker);
  longestGap = Math.max(longestGap, performance.now() - lastTick);
  if (i > 0) loopGaps.push(longestGap);
  // The first open runs cold code, as in a freshly started `parley ui <project>`.
  if (i === 0) firstOpenMs = took;
  else openTimes.push(took);
  tree = store.tree();
  await store.close();
}
const items = tree.items.length;
if (tree.items.filter((t) => t.kind === 'request').length !== TOTAL) throw new Error('the store did not load every request');
if (tree.problems.length > 0) throw new Error(`load problems: ${tree.problems[0].message}`);

// Each phase of the open on its own, in sequence (the store reads and parses file by file).
const phase = {};
started = performance.now();
const listed = [];
for (const apiDir of await readdir(join(projectDir, 'apis'))) {
  for (const e of await readdir(join(projectDir, 'apis', apiDir, kit.REQUESTS_DIR), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) listed.push(join(e.parentPath, e.name));
  }
}
phase.list = performance.now() - started;
started = performance.now();
const texts = await Promise.all(listed.map((f) => readFile(f, 'utf8')));
phase.read = performance.now() - started;
started = performance.now();
const docs = texts.map((text) => parseDocument(text, { uniqueKeys: true, prettyErrors: false }).toJS());
phase.yaml = performance.now() - started;
// js-yaml's own load of the same texts (its default schema): the raw speed of the fast path.
const jsYaml = await import('js-yaml');
started = performance.now();
for (const text of texts) jsYaml.load(text);
phase.jsYaml = performance.now() - started;
// Synchronous reads one by one, as the store reads while reads are quick.
started = performance.now();
for (const file of listed) readFileSync(file, 'utf8');
phase.readSync = performance.now() - started;
started = performance.now();
for (const doc of docs) if (kit.checkAll(kit.Request, doc).length > 0) throw new Error('invalid generated request');
phase.check = performance.now() - started;
started = performance.now();
for (let i = 0; i < texts.length; i++) kit.parseYamlFile(texts[i], listed[i].split(sep).slice(-3).join('/'), kit.requestKind, kit.checkAll);
phase.parseYamlFile = performance.now() - started;
const fastPathMisses = texts.filter((text) => yamlKit.fastLoad(text) === undefined).length;
// The reference path alone (`yaml`'s document, line map and check), as every file was read before.
started = performance.now();
for (let i = 0; i < texts.length; i++) yamlKit.parseYamlFileWithDocument(texts[i], listed[i].split(sep).slice(-3).join('/'), kit.requestKind, kit.checkAll);
phase.parseWithDocument = performance.now() - started;
const store = await kit.ProjectStore.open(projectDir);
started = performance.now();
tree = store.tree();
phase.tree = performance.now() - started;
started = performance.now();
const wire = kit.encode({ v: 1, id: 1, kind: 'res', type: 'project.open', payload: tree });
phase.encode = performance.now() - started;
started = performance.now();
kit.decode(wire);
phase.decode = performance.now() - started;
started = performance.now();
const treeOk = kit.validateInterpreted(kit.ProjectTree, tree) === null;
phase.checkTree = performance.now() - started;
await store.close();

// Where the open spends its time: a sampling CPU profile grouped by code.
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
started = performance.now();
await (await kit.ProjectStore.open(projectDir)).close();
const profiledMs = performance.now() - started;
const { profile } = await session.post('Profiler.stop');
session.disconnect();
const groups = profileGroups(profile);

// The supervisor watches every project it opens (processes/supervisor/store/folder-watcher.ts).
started = performance.now();
const watcher = new kit.FolderWatcher(projectDir, { accept: (path) => /\.ya?ml$/.test(path), onChange: () => {}, log: console.error });
await watcher.ready();
const watchReadyMs = performance.now() - started;
await watcher.close();

const open = summarize(openTimes);
console.log(`\n1. load in Node (${TOTAL} requests, ${items} tree items)`);
console.log(
  `ProjectStore.open (read + parse + validate): first (cold code) ${ms(firstOpenMs, 0)}; then median ${ms(median(openTimes), 0)}, ` +
    `best ${ms(Math.min(...openTimes), 0)}, worst ${ms(open.max, 0)} over ${RUNS} opens; ` +
    `meanwhile the event loop's longest wait (1 ms timer) median ${ms(median(loopGaps), 0)}, worst ${ms(Math.max(...loopGaps), 0)}`,
);
console.log(
  `phases alone: list files ${ms(phase.list, 0)}; read: readFileSync one by one (as the store) ${ms(phase.readSync, 0)}, fs/promises all at once ${ms(phase.read, 0)} ` +
    `(${(phase.read / phase.readSync).toFixed(1)}x); parseYamlFile (as the store: js-yaml fast path, ${fastPathMisses} of ${texts.length} files left to yaml) ${ms(phase.parseYamlFile, 0)}, ` +
    `its reference path alone (yaml parseDocument + line map + check, as before) ${ms(phase.parseWithDocument, 0)} (${(phase.parseWithDocument / phase.parseYamlFile).toFixed(1)}x); ` +
    `bare parsers: yaml parseDocument + toJS ${ms(phase.yaml, 0)}, js-yaml load ${ms(phase.jsYaml, 0)} (${(phase.yaml / phase.jsYaml).toFixed(1)}x); ` +
    `schema check (compiled TypeBox) ${ms(phase.check, 0)}; tree() ${ms(phase.tree, 1)}; ` +
    `the whole tree as one message (project.open sends it in pages of 500 items): encode ${ms(phase.encode, 1)} (${(wire.byteLength / 1e3).toFixed(0)} KB msgpack), decode ${ms(phase.decode, 1)}, ` +
    `UI-side interpreted check of the tree ${ms(phase.checkTree, 1)}${treeOk ? '' : ' (FAILED)'}`,
);
console.log(`CPU profile of one open (${ms(profiledMs, 0)} wall): ${groups.map(([k, v]) => `${k} ${v.toFixed(0)}%`).join(', ')}`);
console.log(`the project's watcher (started by the supervisor on every open) until ready: ${ms(watchReadyMs, 0)}`);

// --- 2 and 3. Chromium ---------------------------------------------------------------------

// Runs in the page before its scripts: when the first rows of each kind appear (at the next
// frame, so they are painted), long tasks, and when a form was submitted.
const PAGE_PROBE = () => {
  const seen = {};
  window.benchProbe = { seen, longTasks: [], submitAt: null };
  const kinds = ['project', 'api', 'folder', 'request'];
  new MutationObserver(() => {
    for (const kind of kinds) {
      if (seen[kind] === undefined && document.querySelector(`.tree-row.kind-${kind}`)) {
        seen[kind] = null;
        requestAnimationFrame(() => (seen[kind] = performance.now()));
      }
    }
  }).observe(document, { subtree: true, childList: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.benchProbe.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('submit', () => (window.benchProbe.submitAt = performance.now()), true);
};

const waitForRows = (page, kind) => page.waitForFunction((k) => typeof window.benchProbe.seen[k] === 'number', kind, { timeout: 60_000, polling: 'raf' });

// The supervisor's share of an open from the UI: `project.open` over the bus from a Node client
// (WebSocket, token, msgpack Peer; no page), on a freshly started `parley ui`.
const busOpen = [];
for (let run = 0; run < RUNS; run++) {
  const app = await startParley([]);
  try {
    const peer = await connectBus(app, busKit);
    started = performance.now();
    const pages = [];
    const opened = busKit.withPages(pages, await peer.call('project.open', { path: projectDir }, { onChunk: (page) => pages.push(page) }));
    busOpen.push(performance.now() - started);
    if (opened.items.length !== items) throw new Error('project.open answered a different tree');
    peer.close();
  } finally {
    await app.stop();
  }
}
console.log(
  `project.open round trip from a Node bus client to a fresh \`parley ui\` (store open, watcher start, recent-projects save, ` +
    `${(wire.byteLength / 1e3).toFixed(0)} KB tree in pages, checked as the UI does): median ${ms(median(busOpen), 0)}`,
);

const browser = await launchChromium();

// 2. cold: `parley ui <project>`.
const cold = [];
for (let run = 0; run < RUNS; run++) {
  const app = await startParley([projectDir]);
  try {
    const page = await openUi(browser.context, app, { initScript: PAGE_PROBE });
    await waitForRows(page, 'api');
    const t = await page.evaluate(() => ({
      origin: performance.timeOrigin,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      api: window.benchProbe.seen.api,
    }));
    // Expand the first API (its 50 folders), then filter so every request is a visible row.
    const expand = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const start = performance.now();
      document.querySelector('.tree-row.kind-api').click();
      while (!document.querySelector('.tree-row.kind-folder')) await frame();
      await frame();
      return performance.now() - start;
    });
    const filter = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const input = document.querySelector('.sidebar-search input');
      const start = performance.now();
      input.value = 'item';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while (!document.querySelector('.tree-row.kind-request')) await frame();
      await frame();
      const took = performance.now() - start;
      const list = document.querySelector('.tree > div');
      return { took, domRows: document.querySelectorAll('.tree-row').length, totalRows: Math.round(list.getBoundingClientRect().height / 28) };
    });
    const fromSpawn = (pageMs) => t.origin + pageMs - app.spawnedAt;
    cold.push({ url: app.urlMs, fcp: fromSpawn(t.fcp), rows: fromSpawn(t.api), expand, filter: filter.took, domRows: filter.domRows, totalRows: filter.totalRows });
    await page.close();
  } finally {
    await app.stop();
  }
}
const col = (runs, key, digits = 0) => ms(median(runs.map((r) => r[key])), digits);
console.log(`\n2. \`parley ui <project>\` cold, from the spawn (median of ${RUNS}; the project loads behind the URL, and the page shows it opening until its rows)`);
console.log(
  `URL printed ${col(cold, 'url')}, first contentful paint ${col(cold, 'fcp')}, first tree rows (project and APIs) painted ${col(cold, 'rows')}; ` +
    `expand an API to its 50 folders ${col(cold, 'expand')}; filter showing all ${TOTAL} requests ${col(cold, 'filter')} ` +
    `(${cold[0].totalRows} rows in the list, ${cold[0].domRows} in the DOM: virtualized)`,
);

// 3. warm: open the project from a running UI; then quit, start again on the same workspace
// and open it once more, which reads the unchanged files from the load cache the first open left
// in the workspace (processes/supervisor/store/load-cache.ts).
async function openFromRunningUi(app, { ping }) {
  const page = await openUi(browser.context, app, { initScript: PAGE_PROBE, waitUntil: 'load' });
  if (ping) {
    await page.evaluate(pingerScript);
    await page.waitForFunction(() => window.benchPinger !== undefined);
  }
  await page.keyboard.press('Control+Shift+P');
  await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
  await page.keyboard.type('Open project folder');
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Folder' }).fill(projectDir);
  if (ping) await page.evaluate(() => window.benchPinger.start(5));
  await page.waitForTimeout(300); // a baseline of quiet pings, or as long a pause without them
  await page.keyboard.press('Enter');
  await waitForRows(page, 'api');
  await page.waitForTimeout(1_500); // the watcher, the cache save and the rest of the load settle
  const r = await page.evaluate(() => ({ samples: window.benchPinger?.stop() ?? [], probe: window.benchProbe }));
  await page.close();
  const submit = r.probe.submitAt;
  const shown = r.probe.seen.api;
  const during = r.samples.filter((s) => s.at >= submit && s.at <= shown);
  const after = r.samples.filter((s) => s.at > shown);
  const gaps = (list) => list.slice(1).map((s, i) => s.at - list[i].at);
  const longDuring = r.probe.longTasks.filter((l) => l.start + l.duration >= submit && l.start <= shown);
  const longAfter = r.probe.longTasks.filter((l) => l.start > shown);
  return {
    rows: shown - submit,
    pingsDuring: during.length,
    pingP50: summarize(during.map((s) => s.rtt)).p50,
    pingMax: Math.max(0, ...during.map((s) => s.rtt)),
    gapMax: Math.max(0, ...gaps(r.samples.filter((s) => s.at >= submit - 10 && s.at <= shown + 10))),
    longCount: longDuring.length,
    longMax: Math.max(0, ...longDuring.map((l) => l.duration)),
    longTotal: longDuring.reduce((a, l) => a + l.duration, 0),
    afterPingMax: Math.max(0, ...after.map((s) => s.rtt)),
    afterLongMax: Math.max(0, ...longAfter.map((l) => l.duration)),
    baseline: summarize(r.samples.filter((s) => s.at < submit).map((s) => s.rtt)).p50,
  };
}

const warm = [];
const reopened = [];
const warmPinged = [];
const reopenedPinged = [];
for (let run = 0; run < RUNS; run++) {
  for (const [ping, first, again] of [[false, warm, reopened], [true, warmPinged, reopenedPinged]]) {
    const home = await tempDir('home');
    try {
      for (const into of [first, again]) {
        const app = await startParley([], { home });
        try {
          into.push(await openFromRunningUi(app, { ping }));
        } finally {
          await app.stop();
        }
      }
    } finally {
      await cleanup(home);
    }
  }
}
await browser.close();
await cleanup(work);

const report = (label, runs, pinged) => {
  console.log(`\n3${label}, from the submit (median of ${RUNS})`);
  console.log(
    `quiet: first tree rows painted ${col(runs, 'rows')}; long tasks (50 ms or more) on the page ${median(runs.map((r) => r.longCount))}, ` +
      `longest ${col(runs, 'longMax')}, total ${col(runs, 'longTotal')}; in the 1.5 s after the rows (watcher, cache save): longest long task ${col(runs, 'afterLongMax')}`,
  );
  console.log(`  each run: rows ${runs.map((r) => r.rows.toFixed(0)).join(', ')} ms`);
  console.log(
    `pinged: the page's app.ping every 5 ms: ${median(pinged.map((r) => r.pingsDuring))} answered until the rows, ` +
      `p50 ${col(pinged, 'pingP50', 1)}, slowest ${col(pinged, 'pingMax')}, longest gap between pings sent ${col(pinged, 'gapMax')} (quiet baseline p50 ${col(pinged, 'baseline', 2)}); ` +
      `long tasks on the page ${median(pinged.map((r) => r.longCount))}, longest ${col(pinged, 'longMax')}; rows under the pinging ${col(pinged, 'rows')}; ` +
      `in the 1.5 s after the rows: slowest ping ${col(pinged, 'afterPingMax')}`,
  );
  console.log(`  each run: slowest ping ${pinged.map((r) => r.pingMax.toFixed(0)).join(', ')} ms; rows ${pinged.map((r) => r.rows.toFixed(0)).join(', ')} ms`);
};
report('. open from a running UI (palette > Open project folder > Enter), first open in a new workspace', warm, warmPinged);
report('b. the same after quitting and starting again on that workspace (unchanged files from its load cache)', reopened, reopenedPinged);

const verdict = (ok) => (ok ? 'met' : 'MISSED');
const load = median(openTimes);
const shown = median(warm.map((r) => r.rows));
const shownAgain = median(reopened.map((r) => r.rows));
const worstPing = median(warmPinged.map((r) => r.pingMax));
const worstPingAgain = median(reopenedPinged.map((r) => r.pingMax));
console.log(
  `targets: load under 1 s: ${verdict(load < 1000)} (${ms(load, 0)}); open to tree shown under 1 s: first open ${verdict(shown < 1000)} (${ms(shown, 0)}), ` +
    `reopen ${verdict(shownAgain < 1000)} (${ms(shownAgain, 0)}); UI responsive while loading (slowest page ping under 50 ms, the HAR import's bar): ` +
    `first open ${verdict(worstPing < 50)} (${ms(worstPing, 0)}), reopen ${verdict(worstPingAgain < 50)} (${ms(worstPingAgain, 0)})`,
);

/** Self time of a CPU profile by where the code lives, as percentages of the samples. */
function profileGroups(p) {
  const byNode = new Map(p.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  let all = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    const { functionName, url } = byNode.get(p.samples[i]).callFrame;
    let group = 'other';
    if (functionName === '(idle)') group = 'idle (waiting on file reads, or between slices)';
    else if (functionName === '(garbage collector)') group = 'garbage collection';
    else if (functionName === '(program)') group = 'V8/native';
    else if (url.includes('/node_modules/yaml/')) group = 'yaml';
    else if (url.includes('/node_modules/js-yaml/')) group = 'js-yaml';
    else if (url.includes('/node_modules/@sinclair/typebox/')) group = 'TypeBox';
    else if (url.includes('/kit.mjs') || url.includes('/yaml-kit.mjs')) group = 'Parley store and protocol code';
    else if (url.startsWith('node:') || url === '') group = 'Node internals (fs, promises)';
    totals.set(group, (totals.get(group) ?? 0) + dt);
    all += dt;
  }
  return [...totals].map(([k, v]) => [k, (100 * v) / all]).sort((a, b) => b[1] - a[1]);
}
