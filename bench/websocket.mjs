// WebSocket sessions (issue 29's benchmark: messages a second read by Parley to the message log
// against a bare `ws` client reading the same server, in the same run: at least 0.5x at 10,000
// messages/s, and the page's ping p99 under 50 ms meanwhile). One `ws` server in a child process
// of its own sends COUNT messages of about 60 bytes per connection, RATE a second (paced in 10 ms
// ticks, back-pressure respected; rate 0: as fast as the reader takes them), then closes with 1000.
// Both read it in turn, in the same run:
//   - bare: a `ws` client in this process, counting messages until the close;
//   - Parley: `parley ui --demo` in Chromium, a WebSocket request of the demo's API pointed at the
//     server, timed in the page from Connect's click to the close shown in the status line, with
//     the Events view's count (the true total) checked against what the server sent. Meanwhile the
//     page pings the supervisor every 10 ms over a second bus connection (page-pinger.ts), and
//     the supervisor's and the sender child's resident memory is sampled (Linux /proc).
// Reports medians of the runs and the ratio; asserts nothing.
// Usage: node bench/websocket.mjs [rate=10000] [seconds=5] [runs=3]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { bundleBrowser, bundleNode, cleanup, connectBus, importFile, launchChromium, machine, median, openUi, rate, root, startParley, summarize, tempDir } from './fixtures/harness.mjs';

const RATE = Number(process.argv[2] ?? 10_000);
const SECONDS = Number(process.argv[3] ?? 5);
const RUNS = Number(process.argv[4] ?? 3);
const COUNT = RATE > 0 ? RATE * SECONDS : 200_000;

const work = await tempDir('websocket');
const built = await bundleNode({ 'bus-kit': 'bench/fixtures/bus-kit.ts' }, work);
const busKit = await importFile(built['bus-kit']);
const pingerScript = await bundleBrowser('bench/fixtures/page-pinger.ts');

console.log(`websocket bench, ${COUNT.toLocaleString('en-US')} messages a run at ${RATE > 0 ? rate(RATE) : 'full speed'}, ${RUNS} runs each, ${machine()}`);

// The server in a process of its own, so neither reader shares its event loop with it.
const serverSource = `
import { WebSocketServer } from 'ws';
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('listening', () => console.log('ws://127.0.0.1:' + wss.address().port));
wss.on('connection', (socket, req) => {
  const q = new URL(req.url, 'http://x').searchParams;
  const count = Number(q.get('count')), perSecond = Number(q.get('rate'));
  let n = 0;
  const message = (i) => '{"n":' + i + ',"label":"item ' + i + '","pad":"xxxxxxxxxxxxxxxxxxxx"}';
  const done = () => socket.close(1000, 'done');
  if (perSecond > 0) {
    const perTick = Math.max(1, Math.round(perSecond / 100));
    const started = Date.now();
    const tick = () => {
      // As many as the pace allows by now, never more than the socket takes without buffering.
      const due = Math.min(count, Math.floor(((Date.now() - started) / 1000) * perSecond) + perTick);
      while (n < due && socket.bufferedAmount < 4 * 1024 * 1024) socket.send(message(++n));
      if (n >= count) return done();
      setTimeout(tick, 10);
    };
    tick();
  } else {
    const more = () => {
      while (n < count) {
        socket.send(message(++n));
        if (socket.bufferedAmount > 1024 * 1024) return setTimeout(more, 1);
      }
      done();
    };
    more();
  }
});
`;
const server = spawn(process.execPath, ['--input-type=module', '-e', serverSource], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill());
const serverUrl = await new Promise((resolve, reject) => {
  server.stdout.once('data', (d) => resolve(String(d).trim()));
  server.once('exit', (code) => reject(new Error(`the ws server exited with ${code}`)));
});
const streamUrl = `${serverUrl}/flood?count=${COUNT}&rate=${RATE}`;

async function bare() {
  const started = performance.now();
  let messages = 0;
  await new Promise((resolve, reject) => {
    const socket = new WebSocket(streamUrl);
    socket.on('message', () => void messages++);
    socket.on('close', resolve);
    socket.on('error', reject);
  });
  return { ms: performance.now() - started, messages };
}

const app = await startParley(['--demo']);
const bus = await connectBus(app, busKit);
const [demoRoot] = (await bus.call('app.info', {})).projects;
const demoTree = await bus.call('project.tree', { project: demoRoot });
const apiId = demoTree.items.find((i) => i.kind === 'api').id;
await bus.call('request.createOfKind', { project: demoRoot, parent: apiId, kind: 'websocket', name: 'Flood', url: streamUrl });

const browser = await launchChromium();
const page = await openUi(browser.context, app, { waitUntil: 'load' });
await page.evaluate(pingerScript);
await page.waitForFunction(() => window.benchPinger !== undefined);
await page.getByRole('treeitem', { name: /Pet Store/ }).click();
await page.getByRole('treeitem', { name: /Flood/ }).dblclick();
await page.getByRole('button', { name: 'Connect', exact: true }).waitFor();

/** Resident memory of a process in MB (Linux /proc), or NaN. */
function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
}
function senderPid() {
  try {
    const pid = app.child.pid;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    return Number(children.find((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('sender.js')));
  } catch {
    return NaN;
  }
}

async function parley() {
  const sender = senderPid();
  const peak = { supervisor: rssMb(app.child.pid), sender: rssMb(sender) };
  const sampler = setInterval(() => {
    peak.supervisor = Math.max(peak.supervisor, rssMb(app.child.pid));
    peak.sender = Math.max(peak.sender, rssMb(sender));
  }, 100);
  await page.evaluate(() => window.benchPinger.start(10));
  const run = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const started = performance.now();
        const observer = new MutationObserver(() => {
          const closed = document.querySelector('[data-testid="close"]');
          const connect = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Connect');
          if (closed && connect) {
            observer.disconnect();
            const count = Number(document.querySelector('[data-testid="events-count"]')?.textContent?.replace(/[^\d]/g, ''));
            resolve({ started, ms: performance.now() - started, messages: count });
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Connect').click();
      }),
  );
  clearInterval(sampler);
  const samples = await page.evaluate(() => window.benchPinger.stop());
  const during = samples.filter((s) => s.at >= run.started && s.at <= run.started + run.ms).map((s) => s.rtt);
  // The closed session's rows are released before the next run.
  await page.waitForTimeout(200);
  return { ...run, pings: summarize(during), peak };
}

async function quietPings() {
  await page.evaluate(() => window.benchPinger.start(10));
  await page.waitForTimeout(1_000);
  return summarize((await page.evaluate(() => window.benchPinger.stop())).map((s) => s.rtt));
}

await bare(); // warm both paths once
await parley();
const quiet = await quietPings();
const bareRuns = [];
const parleyRuns = [];
for (let i = 0; i < RUNS; i++) {
  bareRuns.push(await bare());
  parleyRuns.push(await parley());
}

const perSecond = (r) => (r.messages * 1000) / r.ms;
for (const r of bareRuns) if (r.messages !== COUNT) console.log(`the bare client counted ${r.messages} messages, not ${COUNT}`);
for (const r of parleyRuns) if (r.messages !== COUNT) console.log(`Parley's message log counted ${r.messages} messages, not ${COUNT}`);
const bareRate = median(bareRuns.map(perSecond));
const parleyRate = median(parleyRuns.map(perSecond));
const ratio = parleyRate / bareRate;
const p99 = median(parleyRuns.map((r) => r.pings.p99));
console.log(`bare ws client: ${rate(bareRate)} (runs: ${bareRuns.map((r) => rate(perSecond(r))).join(', ')})`);
console.log(`Parley, server to the message log: ${rate(parleyRate)} (runs: ${parleyRuns.map((r) => rate(perSecond(r))).join(', ')}); true count ${parleyRuns.every((r) => r.messages === COUNT) ? 'right in every run' : 'WRONG'}`);
console.log(`ratio Parley / bare: ${ratio.toFixed(2)} (target at least 0.50: ${ratio >= 0.5 ? 'met' : 'MISSED'})`);
console.log(
  `page ping every 10 ms meanwhile: p50 ${median(parleyRuns.map((r) => r.pings.p50)).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (runs: ${parleyRuns.map((r) => r.pings.p99.toFixed(1)).join(', ')}), ` +
    `slowest ${Math.max(...parleyRuns.map((r) => r.pings.max)).toFixed(1)} ms (target p99 under 50 ms: ${p99 < 50 ? 'met' : 'MISSED'}); with nothing running: p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms`,
);
console.log(`peak resident memory during a run: supervisor ${Math.max(...parleyRuns.map((r) => r.peak.supervisor)).toFixed(0)} MB, sender ${Math.max(...parleyRuns.map((r) => r.peak.sender)).toFixed(0)} MB`);

bus.close();
await page.close();
await browser.close();
await app.stop();
server.kill();
await cleanup(work);
