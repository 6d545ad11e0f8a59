// A send's overhead (DESIGN.md budget: a send on loopback under 1 ms p50 over a bare undici
// request). The same loopback server (its own process) is hit, in the same run, by:
//   - a bare undici request (keep-alive Agent) from this process: the peer;
//   - `sender.send` straight to the sender process (dist/sender.js through ChildProcessHandle):
//     the child hop plus the sender engine;
//   - `request.send` over the UI's bus (WebSocket + token + msgpack Peer, as the page connects)
//     to a real `parley ui` (dist/cli.js, fresh PARLEY_HOME), which expands and resolves the
//     request, calls the sender process and records History: the whole path.
// Then the demo project's "List pets" through the whole path, contract check by the checker
// process included, against bare undici to the same demo server. Sequential sends, keep-alive,
// interleaved rounds, best round's p50/p99 (as bench/sender-engine.mjs). Last, History's append
// alone (HistoryStore.add, which a send awaits before it replies). Asserts nothing.
// Usage: node bench/send-overhead.mjs [requests=2000] [rounds=2]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { bundleNode, cleanup, importFile, machine, ms, root, startParley, summarize, tempDir } from './fixtures/harness.mjs';

const COUNT = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 2);
const WARMUP = 300;

const work = await tempDir('send');
const built = await bundleNode({ 'bus-kit': 'bench/fixtures/bus-kit.ts', history: 'processes/supervisor/store/history-store.ts' }, work);
const { ChildProcessHandle, Peer, webSocketTransport, validateInterpreted } = await importFile(built['bus-kit']);
const { HistoryStore } = await importFile(built.history);

// --- the server and the three ways to reach it ---------------------------------------------

const server = spawn(process.execPath, [join(root, 'bench/fixtures/loopback-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
const serverPort = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const match = /port (\d+)/.exec(out);
    if (match) resolve(Number(match[1]));
  });
  server.once('exit', (code) => reject(new Error(`the loopback server exited with ${code}`)));
});
const base = `http://127.0.0.1:${serverPort}`;
const agent = new Agent();

function bareUndici(url) {
  return async () => {
    const res = await request(url, { dispatcher: agent, headers: { accept: 'application/json' } });
    await res.body.arrayBuffer();
  };
}

const sender = new ChildProcessHandle({ name: 'sender process', entry: join(root, 'dist', 'sender.js'), restart: false, log: (line) => console.error(line) });
await sender.start();
const spec = {
  method: 'GET',
  url: `${base}/items?x=1`,
  headers: [['accept', 'application/json']],
  body: { type: 'none' },
  timeoutMs: 30_000,
  httpVersion: '1.1',
  followRedirects: true,
  maxRedirects: 10,
  proxy: '',
  caPem: '',
  inlineLimit: 10 * 1024 * 1024,
};
const senderDirect = async () => {
  const result = await sender.call('sender.send', spec);
  if (result.status !== 200) throw new Error(`sender.send answered ${result.status}`);
};

/** A bus client like the page: WebSocket with the token and the server's Origin, msgpack Peer. */
async function connectUi(appUrl) {
  const url = new URL(appUrl);
  const ws = new WebSocket(`ws://${url.host}/bus?token=${url.searchParams.get('token')}`, { headers: { origin: url.origin } });
  const peer = new Peer(webSocketTransport(ws), { role: 'ui', validate: validateInterpreted, onProtocolError: (err) => console.error(`bus: ${err.message}`) });
  await peer.ready;
  return peer;
}

const projectDir = join(work, 'project');
const app = await startParley([projectDir]);
const ui = await connectUi(app.url);
await ui.call('project.open', { path: projectDir }); // `parley ui <folder>` loads it behind its URL
const api = await ui.call('api.create', { project: projectDir, name: 'Loopback', baseUrl: base });
const created = await ui.call('request.create', { project: projectDir, parent: api.id, name: 'Items', method: 'GET', url: '/items' });
const saved = await ui.call('request.save', {
  project: projectDir,
  request: { ...created, query: [{ name: 'x', value: '1', enabled: true }], headers: [{ name: 'Accept', value: 'application/json', enabled: true }] },
});
const wholePath = (peer, project, req) => async () => {
  const exchange = await peer.call('request.send', { project, request: req });
  if (exchange.response.status !== 200) throw new Error(`request.send answered ${exchange.response.status}`);
};

// --- measuring -----------------------------------------------------------------------------

async function measure(fn) {
  const times = new Float64Array(COUNT);
  for (let i = 0; i < COUNT; i++) {
    const t = performance.now();
    await fn();
    times[i] = performance.now() - t;
  }
  return summarize(times);
}
/** Warm-up, then rounds that interleave the contenders so none profits from running later. */
async function compare(contenders) {
  for (const [, fn] of contenders) for (let i = 0; i < WARMUP; i++) await fn();
  const rounds = new Map(contenders.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [name, fn] of contenders) rounds.get(name).push(await measure(fn));
  const best = (list) => ({ p50: Math.min(...list.map((s) => s.p50)), p99: Math.min(...list.map((s) => s.p99)) });
  return new Map([...rounds].map(([name, list]) => [name, best(list)]));
}

console.log(`send overhead bench, ${machine()}`);
console.log(`${COUNT} sequential GETs per contender and round (keep-alive, loopback, 251 B JSON body), best of ${ROUNDS} interleaved rounds`);
const results = await compare([
  ['bare undici', bareUndici(`${base}/items?x=1`)],
  ['sender process (sender.send)', senderDirect],
  ['whole path (request.send over the UI bus)', wholePath(ui, projectDir, saved)],
]);
const bare = results.get('bare undici');
for (const [name, r] of results) {
  const over = name === 'bare undici' ? '' : `  over bare: p50 +${ms(r.p50 - bare.p50)} (ratio ${(r.p50 / bare.p50).toFixed(1)})`;
  console.log(`${name.padEnd(44)} p50 ${ms(r.p50)}  p99 ${ms(r.p99)}${over}`);
}
const direct = results.get('sender process (sender.send)');
const whole = results.get('whole path (request.send over the UI bus)');
console.log(
  `split of the p50 overhead: sender process hop + engine ${ms(direct.p50 - bare.p50)}; UI bus + supervisor (resolve, history) ${ms(whole.p50 - direct.p50)}`,
);
ui.close();
await app.stop();
await sender.stop();

// The demo project: its API has a definition, so every send also gets a contract verdict.
const demo = await startParley(['--demo']);
const demoUi = await connectUi(demo.url);
const demoApi = /Demo API: (\S+)/.exec(demo.output())?.[1];
const [demoRoot] = (await demoUi.call('app.info', {})).projects;
const listPets = (await demoUi.call('project.tree', { project: demoRoot })).items.find((i) => i.name === 'List pets');
const listPetsRequest = await demoUi.call('request.get', { project: demoRoot, id: listPets.id });
const verdict = (await demoUi.call('request.send', { project: demoRoot, request: listPetsRequest })).verdict;
const demoResults = await compare([
  ['bare undici to the demo server', bareUndici(`${demoApi}/pets?limit=20`)],
  ['demo "List pets", whole path + contract check', wholePath(demoUi, demoRoot, listPetsRequest)],
]);
const demoBare = demoResults.get('bare undici to the demo server');
for (const [name, r] of demoResults) {
  const over = r === demoBare ? '' : `  over bare: p50 +${ms(r.p50 - demoBare.p50)} (ratio ${(r.p50 / demoBare.p50).toFixed(1)})`;
  console.log(`${name.padEnd(44)} p50 ${ms(r.p50)}  p99 ${ms(r.p99)}${over}`);
}
console.log(`(the demo send's verdict: ${verdict ? JSON.stringify(verdict).slice(0, 80) : 'none'}; the demo server runs inside the parley process)`);
demoUi.close();
await demo.stop();

await agent.close();
server.stdin.end();

// History alone: the entry a 251 B response makes, appended COUNT times after a warm-up.
const history = new HistoryStore(join(work, 'history-home'));
const entry = (i) => ({
  id: `h${i}`,
  at: new Date().toISOString(),
  requestId: saved.id,
  request: { method: 'GET', url: `${base}/items?x=1`, headers: [['accept', 'application/json']], body: '' },
  response: { status: 200, statusText: 'OK', headers: [['content-type', 'application/json']], body: '{"ok":true}'.padEnd(251), size: 251, timeMs: 0.2 },
  redacted: false,
});
for (let i = 0; i < WARMUP; i++) await history.add(projectDir, entry(i));
const adds = [];
for (let i = 0; i < COUNT; i++) {
  const t = performance.now();
  await history.add(projectDir, entry(i));
  adds.push(performance.now() - t);
}
const add = summarize(adds);
console.log(`HistoryStore.add alone, ${COUNT} appends: p50 ${ms(add.p50)}  p99 ${ms(add.p99)}  max ${ms(add.max)} (it compacts the file every ~100 entries)`);
await cleanup(work);

const overhead = whole.p50 - bare.p50;
console.log(`target: a send under 1 ms p50 over bare undici: ${overhead < 1 ? 'met' : 'MISSED'} (+${ms(overhead)} through the whole path)`);
