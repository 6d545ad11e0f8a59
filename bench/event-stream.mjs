// Event streams (DESIGN.md budget: at least 50% of a bare undici + SSE-parser consumer's
// events/s, with the true count, and the page's ping p99 under 50 ms meanwhile). One SSE server
// in a child process of its own (test/support/sse-server.ts, `/many`: events as fast as the
// client reads them, back-pressure respected) serves both, alternately, in the same run:
//   - bare: undici `request` + eventsource-parser in this process, counting events;
//   - engine: Parley's sender engine (processes/sender/engine, the same code the sender child
//     runs) in this process, rows counted as its stream sink receives them: what reading the
//     stream costs before any process hop;
//   - bus: the same `parley ui` driven over its bus from this process (a WebSocket Peer, as the
//     page connects, replies checked as the page checks them): the sender child, the supervisor
//     and the WebSocket, without Chromium; events counted from `request.send`'s row batches;
//   - Parley: `parley ui --demo` in Chromium; Send on a request pointed at the stream, timed in
//     the page from the click to the Events tab reading `ended`, with the Events tab's count
//     (the true total) checked against what the server sent. Meanwhile the page pings the
//     supervisor every 10 ms over a second bus connection (bench/fixtures/page-pinger.ts), which
//     shows how long a UI call waits while the stream runs.
// On Linux it also reads the CPU time the supervisor and the sender child spent (/proc), per
// event, for the bus and the page contestants: a figure the machine's load moves far less than
// a rate.
// Then the issue's own scale ("at least 20,000 events/s where the bare consumer does 40,000"): the
// same server offers PACED_RATE events a second (`/many?rate=`), bare and Parley's Events tab read
// it in turn, and the page's pings are taken meanwhile: whether Parley keeps up with a stream at
// that rate, which the unpaced runs (a local server writing 60-byte events as fast as a reader
// takes them, over a million a second for the bare consumer) do not say.
// Reports medians of the runs and the ratio; asserts nothing.
// Usage: node bench/event-stream.mjs [events=100000] [runs=3] [paced rate=40000]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { request } from 'undici';
import { bundleBrowser, bundleNode, cleanup, connectBus, importFile, launchChromium, machine, median, openUi, rate, startParley, summarize, tempDir } from './fixtures/harness.mjs';

const EVENTS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 3);
const PACED_RATE = Number(process.argv[4] ?? 40_000);
/** Five seconds of the paced stream. */
const PACED_EVENTS = PACED_RATE * 5;

const work = await tempDir('event-stream');
const built = await bundleNode({ 'sse-server': 'test/support/sse-server.ts', 'sender-engine': 'processes/sender/engine/index.ts', 'bus-kit': 'bench/fixtures/bus-kit.ts' }, join(work, 'build'));
const busKit = await importFile(built['bus-kit']);
const engine = await importFile(built['sender-engine']);
const pingerScript = await bundleBrowser('bench/fixtures/page-pinger.ts');

console.log(`event stream bench, ${EVENTS.toLocaleString('en-US')} events a run, ${RUNS} runs each, ${machine()}`);

// The server gets a process of its own, so neither consumer shares its event loop with it.
const server = spawn(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(new URL(`file://${built['sse-server']}`).href)}); const s = await m.startSseServer(); console.log(s.url);`], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill());
const sseUrl = await new Promise((resolve, reject) => {
  server.stdout.once('data', (d) => resolve(String(d).trim()));
  server.once('exit', (code) => reject(new Error(`the SSE server exited with ${code}`)));
});
const streamUrl = `${sseUrl}/many?count=${EVENTS}`;
const pacedUrl = `${sseUrl}/many?count=${PACED_EVENTS}&rate=${PACED_RATE}`;

async function bare(url = streamUrl) {
  const started = performance.now();
  let events = 0;
  const parser = createParser({ onEvent: () => void events++ });
  const { body } = await request(url);
  const decoder = new TextDecoder();
  for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
  return { ms: performance.now() - started, events };
}

async function engineRun() {
  const started = performance.now();
  let events = 0;
  const spec = { method: 'GET', url: streamUrl, headers: [], body: { type: 'none' }, timeoutMs: 10_000, httpVersion: '1.1', followRedirects: true, maxRedirects: 10, proxy: '', caPem: '', inlineLimit: 1024 * 1024 };
  await engine.send(spec, { spoolDir: work, stream: { head: () => {}, rows: (batch) => void (events += batch.filter((r) => r.kind === 'event').length) } });
  return { ms: performance.now() - started, events };
}

const app = await startParley(['--demo']);
const browser = await launchChromium();
const page = await openUi(browser.context, app, { waitUntil: 'load' });
await page.evaluate(pingerScript);
await page.waitForFunction(() => window.benchPinger !== undefined);
await page.getByRole('treeitem', { name: /Pet Store/ }).click();
await page.getByRole('treeitem', { name: 'pets' }).click();
await page.getByRole('treeitem', { name: /List pets/ }).dblclick();
await page.getByLabel('URL', { exact: true }).fill(streamUrl);

// The bus contestant: a second connection to the same supervisor, sending the demo's request.
const bus = await connectBus(app, busKit);
const [demoRoot] = (await bus.call('app.info', {})).projects;
const demoTree = await bus.call('project.tree', { project: demoRoot });
const listPets = demoTree.items.find((i) => i.kind === 'request' && i.name === 'List pets');
const busRequest = { ...(await bus.call('request.get', { project: demoRoot, id: listPets.id })), url: streamUrl };

/** CPU ms a process has used so far (Linux /proc), or NaN. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The sender child's pid: the supervisor's child whose command line runs sender.js. */
function senderPid() {
  try {
    const pid = app.child.pid;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    return Number(children.find((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('sender.js')));
  } catch {
    return NaN;
  }
}

/** Runs `run`, adding the supervisor's and the sender's CPU ms to `into`. */
async function counted(into, run) {
  const sender = senderPid();
  const before = [cpuMs(app.child.pid), cpuMs(sender)];
  const result = await run();
  into.supervisor += cpuMs(app.child.pid) - before[0];
  into.sender += cpuMs(sender) - before[1];
  into.events += result.events;
  return result;
}
const busCpu = { supervisor: 0, sender: 0, events: 0 };
const parleyCpu = { supervisor: 0, sender: 0, events: 0 };

async function busRun() {
  const started = performance.now();
  let events = 0;
  await bus.call('request.send', { project: demoRoot, request: busRequest }, { onChunk: (p) => void (p.kind === 'batch' && (events = p.batch.events)) });
  return { ms: performance.now() - started, events };
}

async function parley() {
  await page.evaluate(() => window.benchPinger.start(10));
  const run = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const state = () => document.querySelector('[data-testid="stream-state"]')?.textContent;
        const started = performance.now();
        let firstRow = null;
        const observer = new MutationObserver(() => {
          if (firstRow === null && document.querySelector('.ev-event')) firstRow = performance.now() - started;
          if (state() === 'ended') {
            observer.disconnect();
            const count = Number(document.querySelector('[data-testid="events-count"]')?.textContent?.replace(/[^\d]/g, ''));
            resolve({ started, ms: performance.now() - started, firstRow, events: count });
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Send').click();
      }),
  );
  const samples = await page.evaluate(() => window.benchPinger.stop());
  const during = samples.filter((s) => s.at >= run.started && s.at <= run.started + run.ms).map((s) => s.rtt);
  return { ...run, pings: summarize(during) };
}

/** The same pings with nothing streaming: how busy the machine is without the stream. */
async function quietPings() {
  await page.evaluate(() => window.benchPinger.start(10));
  await page.waitForTimeout(1_000);
  return summarize((await page.evaluate(() => window.benchPinger.stop())).map((s) => s.rtt));
}

const bareRuns = [];
const busRuns = [];
const engineRuns = [];
const parleyRuns = [];
await bare(); // warm every path once
await engineRun();
await busRun();
await parley();
const quiet = await quietPings();
for (let i = 0; i < RUNS; i++) {
  bareRuns.push(await bare());
  engineRuns.push(await engineRun());
  busRuns.push(await counted(busCpu, busRun));
  parleyRuns.push(await counted(parleyCpu, parley));
}

const perSecond = (r) => (r.events * 1000) / r.ms;
for (const r of bareRuns) if (r.events !== EVENTS) console.log(`bare consumer counted ${r.events} events, not ${EVENTS}`);
for (const r of parleyRuns) if (r.events !== EVENTS) console.log(`Parley's Events tab counted ${r.events} events, not ${EVENTS}`);
for (const r of engineRuns) if (r.events !== EVENTS) console.log(`the sender engine counted ${r.events} events, not ${EVENTS}`);
const bareRate = median(bareRuns.map(perSecond));
const engineRate = median(engineRuns.map(perSecond));
const busRate = median(busRuns.map(perSecond));
for (const r of busRuns) if (r.events !== EVENTS) console.log(`request.send over the bus counted ${r.events} events, not ${EVENTS}`);
const parleyRate = median(parleyRuns.map(perSecond));
console.log(`bare undici + eventsource-parser: ${rate(bareRate)} (runs: ${bareRuns.map((r) => rate(perSecond(r))).join(', ')})`);
console.log(`Parley's sender engine in this process: ${rate(engineRate)} (runs: ${engineRuns.map((r) => rate(perSecond(r))).join(', ')}), ${(engineRate / bareRate).toFixed(2)} of bare`);
console.log(`Parley over its bus from Node (sender child, supervisor, WebSocket; no browser): ${rate(busRate)} (runs: ${busRuns.map((r) => rate(perSecond(r))).join(', ')}), ${(busRate / bareRate).toFixed(2)} of bare`);
console.log(
  `Parley, server to the Events tab: ${rate(parleyRate)} (runs: ${parleyRuns.map((r) => rate(perSecond(r))).join(', ')}); ` +
    `true count ${parleyRuns.every((r) => r.events === EVENTS) ? 'right in every run' : 'WRONG'}; first row after ${median(parleyRuns.map((r) => r.firstRow)).toFixed(0)} ms`,
);
const ratio = parleyRate / bareRate;
console.log(`ratio Parley / bare: ${ratio.toFixed(2)} (target at least 0.50: ${ratio >= 0.5 ? 'met' : 'MISSED'})`);
console.log(
  `page ping every 10 ms while the stream ran: p50 ${median(parleyRuns.map((r) => r.pings.p50)).toFixed(1)} ms, p99 ${median(parleyRuns.map((r) => r.pings.p99)).toFixed(1)} ms ` +
    `(runs: ${parleyRuns.map((r) => r.pings.p99.toFixed(1)).join(', ')}), slowest ${Math.max(...parleyRuns.map((r) => r.pings.max)).toFixed(1)} ms, ${median(parleyRuns.map((r) => r.pings.n))} pings a run (target p99 under 50 ms: ${median(parleyRuns.map((r) => r.pings.p99)) < 50 ? 'met' : 'MISSED'}); ` +
    `with nothing streaming: p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms`,
);
const perEvent = (cpu, who) => ((cpu[who] * 1000) / cpu.events).toFixed(1);
if (!Number.isNaN(busCpu.supervisor + busCpu.sender)) {
  console.log(
    `CPU per event (µs): bus, no browser: supervisor ${perEvent(busCpu, 'supervisor')}, sender ${perEvent(busCpu, 'sender')}; ` +
      `to the Events tab: supervisor ${perEvent(parleyCpu, 'supervisor')}, sender ${perEvent(parleyCpu, 'sender')}`,
  );
}

// --- the issue's scale: a stream offered at PACED_RATE events a second ----------------------------
await page.getByLabel('URL', { exact: true }).fill(pacedUrl);
const pacedBare = [];
const pacedParley = [];
for (let i = 0; i < RUNS; i++) {
  pacedBare.push(await bare(pacedUrl));
  pacedParley.push(await parley());
}
const pacedBareRate = median(pacedBare.map(perSecond));
const pacedParleyRate = median(pacedParley.map(perSecond));
const pacedP99 = median(pacedParley.map((r) => r.pings.p99));
console.log(
  `offered ${rate(PACED_RATE)} (${PACED_EVENTS.toLocaleString('en-US')} events): bare ${rate(pacedBareRate)}, Parley to the Events tab ${rate(pacedParleyRate)} ` +
    `(runs: ${pacedParley.map((r) => rate(perSecond(r))).join(', ')}; true count ${pacedParley.every((r) => r.events === PACED_EVENTS) ? 'right in every run' : 'WRONG'}), ` +
    `${(pacedParleyRate / pacedBareRate).toFixed(2)} of bare (target at least 0.50: ${pacedParleyRate / pacedBareRate >= 0.5 ? 'met' : 'MISSED'}); ` +
    `page ping p50 ${median(pacedParley.map((r) => r.pings.p50)).toFixed(1)} ms, p99 ${pacedP99.toFixed(1)} ms (runs: ${pacedParley.map((r) => r.pings.p99.toFixed(1)).join(', ')}; target under 50 ms: ${pacedP99 < 50 ? 'met' : 'MISSED'})`,
);

bus.close();
await page.close();
await browser.close();
await app.stop();
await engine.closeDispatchers();
server.kill();
await cleanup(work);
