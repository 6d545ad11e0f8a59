// The mock log's memory under hostile traffic (issue 26 item 5): the real app (`parley ui`, its
// supervisor and the mock's mock-host child), a mock whose dispatch script names its response from
// the request body made `times` times longer (`respond(request.body.repeat(times))`), so every
// request fails with an error about a huge name, the case that took a mock host past its heap.
// POSTs of `bodyKB` KB each, four at a time; every `sample` requests a marker request is sent and
// its entry awaited on the page's `mock.logged` events, then the mock host's and the supervisor's
// RSS (VmRSS) and peak (VmHWM) are read from /proc. At the end, `mocks.log` as the UI reads it:
// the bytes of its largest answer (every page, on a build that pages), or the error it gives.
// A build whose host or supervisor passes `stopMb` of RSS, or whose host dies, is stopped there and
// says so (an unbounded log would otherwise take the machine's memory).
// Builds named on the command line run one after the other, each with its own bus pieces (its own
// protocol version); a "before" source tree needs `node scripts/build.mjs` there first.
// Prints JSON lines and a table; asserts nothing.
// Usage: node bench/mock-log-memory.mjs [requests=2000] [sample=250] [bodyKB=20] [times=100] [stopMb=2500] [name=source-root ...]
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { bundleNode, cleanup, connectBus, importFile, machine, root, startParley, tempDir } from './fixtures/harness.mjs';

const requests = Number(process.argv[2] ?? 2000);
const sample = Number(process.argv[3] ?? 250);
const bodyBytes = Number(process.argv[4] ?? 20) * 1024;
const times = Number(process.argv[5] ?? 100);
const stopMb = Number(process.argv[6] ?? 2500);
const named = process.argv.slice(7).map((arg) => arg.split('='));
const builds = named.length > 0 ? named.map(([name, dir]) => ({ name, dir: resolve(dir) })) : [{ name: 'this tree', dir: root }];
const work = await tempDir('mock-log');
const projectKit = await importFile((await bundleNode({ 'project-kit': 'bench/fixtures/project-kit.ts' }, work))['project-kit']);
for (const b of builds) {
  const out = join(work, `kit-${b.name}`);
  await mkdir(out);
  const kits = await bundleNode({ 'bus-kit': join(b.dir, 'bench/fixtures/bus-kit.ts'), 'codec-kit': join(b.dir, 'protocol/codec.ts') }, out);
  b.busKit = await importFile(kits['bus-kit']);
  b.codec = await importFile(kits['codec-kit']);
}

console.log(`# mock log memory: ${requests} requests of ${bodyBytes / 1024} KB, the script's name ${(bodyBytes * times / 1e6).toFixed(1)} MB; ${machine()}`);

const openapi = {
  openapi: '3.0.3',
  info: { title: 'Names', version: '1.0.0' },
  paths: { '/names': { post: { operationId: 'addName', responses: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string' }, example: 'ok' } } } } } } },
};

/** A project with one API whose cached definition is `openapi`, as an import leaves it. */
async function project(dir) {
  const text = JSON.stringify(openapi);
  const store = await projectKit.ProjectStore.open(dir, { create: true, name: 'Names' });
  try {
    const api = await store.createApi({ name: 'Names', baseUrl: 'http://127.0.0.1:9', api: { definition: { format: 'openapi-3.1', cached: ['definition/openapi.json'], fingerprint: 'bench', apiVersion: '1.0.0' } } });
    await store.commit([{ path: join(store.apiDir(api.id), 'definition', 'openapi.json'), content: text }]);
    return api.id;
  } finally {
    await store.close();
  }
}

function status(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

function childOf(parent, entry) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(entry)) return Number(name);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

async function run(build) {
  const dir = join(work, `project-${build.name}`);
  const apiId = await project(dir);
  const app = await startParley([], { source: build.dir });
  const page = await connectBus(app, build.busKit);
  const seen = new Set();
  page.on('mock.logged', ({ entries }) => {
    for (const e of entries) if (e.path.startsWith('/names?mark=')) seen.add(e.path);
  });
  const rows = [];
  let stopped = '';
  try {
    await page.call('project.open', { path: dir });
    const created = await page.call('mocks.create', { project: dir, api: apiId, name: 'Names' });
    const op = created.mock.operations[0];
    await page.call('mocks.save', { project: dir, mock: { ...created.mock, contractCheck: 'off', operations: [{ ...op, dispatch: 'script', script: `respond(request.body.repeat(${times}));\n` }] } });
    const url = (await page.call('mocks.start', { project: dir, id: created.id })).running.url;
    const supervisor = app.child.pid;
    const host = childOf(supervisor, 'mock-host.js');
    const started = performance.now();
    let sent = 0;
    const one = async (n) => {
      const body = `${String(n).padStart(8, '0')}${'b'.repeat(bodyBytes - 8)}`;
      const res = await request(`${url}/names`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
      await res.body.dump();
    };
    while (sent < requests && !stopped) {
      const end = Math.min(requests, sent + sample);
      const worker = async () => {
        while (sent < end) await one(sent++);
      };
      const failed = await Promise.all([worker(), worker(), worker(), worker()]).then(() => null, (err) => err);
      const mark = `/names?mark=${end}`;
      if (!failed) {
        await request(`${url}${mark}`, { method: 'POST', body: 'mark', headers: { 'content-type': 'text/plain' } }).then((r) => r.body.dump(), () => {});
        const waitUntil = performance.now() + 60_000;
        while (!seen.has(mark) && performance.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
      }
      const h = status(host);
      const s = status(supervisor);
      const row = { build: build.name, requests: end, seconds: +((performance.now() - started) / 1000).toFixed(1), hostRssMb: h ? +h.rss.toFixed(0) : null, hostPeakMb: h ? +h.hwm.toFixed(0) : null, supervisorRssMb: s ? +s.rss.toFixed(0) : null, supervisorPeakMb: s ? +s.hwm.toFixed(0) : null };
      rows.push(row);
      console.log(JSON.stringify(row));
      if (failed) stopped = `requests failed at ${end}: ${String(failed.message ?? failed).slice(0, 160)}`;
      else if (!h) stopped = `the mock host was gone at ${end} requests`;
      else if (h.rss > stopMb || (s && s.rss > stopMb)) stopped = `stopped at ${end} requests: past ${stopMb} MB`;
    }
    // What the UI's read of the log costs now.
    let log;
    try {
      let largest = 0;
      let pages = 0;
      let entries = 0;
      let before;
      for (;;) {
        const answer = await page.call('mocks.log', { project: dir, id: created.id, ...(before ? { before } : {}) });
        const list = Array.isArray(answer) ? answer : answer.entries;
        largest = Math.max(largest, build.codec.encode(answer).byteLength);
        pages++;
        entries += list.length;
        if (Array.isArray(answer) || !answer.more || list.length === 0) break;
        before = list[0].id;
      }
      log = { pages, entries, largestAnswerKB: +(largest / 1024).toFixed(0) };
    } catch (err) {
      log = { error: `${err.code ?? ''} ${String(err.message).slice(0, 200)}` };
    }
    const s = status(supervisor);
    console.log(JSON.stringify({ build: build.name, mocksLog: log, stopped: stopped || undefined, supervisorRssAfterLogMb: s ? +s.rss.toFixed(0) : null }));
    return { rows, log, stopped };
  } finally {
    page.close();
    await app.stop();
    await cleanup(dir);
  }
}

const results = [];
for (const b of builds) results.push({ build: b, ...(await run(b)) });

console.log('\n| build | requests | mock host RSS (peak), MB | supervisor RSS (peak), MB |');
console.log('|---|---:|---:|---:|');
for (const r of results) for (const row of r.rows) console.log(`| ${row.build} | ${row.requests.toLocaleString('en')} | ${row.hostRssMb ?? 'gone'} (${row.hostPeakMb ?? '-'}) | ${row.supervisorRssMb} (${row.supervisorPeakMb}) |`);
for (const r of results) {
  const log = r.log.error ? `mocks.log failed: ${r.log.error}` : `mocks.log: ${r.log.pages} page(s), ${r.log.entries} entries, largest answer ${r.log.largestAnswerKB} KB`;
  console.log(`${r.build.name}: ${log}${r.stopped ? `; ${r.stopped}` : ''}`);
}
await cleanup(work);
