// The bus between two processes (DESIGN.md budget: 100,000 small messages/s; the issue adds
// round-trip p50 under 0.1 ms): a parent and a real child over the real fd-3 pipe, framing,
// msgpack and Peer (ChildProcessHandle + processes/runtime/child.ts, as every Parley child),
// against a bare Node child on `process.send` IPC (JSON) doing the same, in the same run.
// Measures: events one way each direction (messages/s), sequential `sys.ping` round trips
// (p50/p99), and `sys.ping` throughput with many calls in flight. Then, to show where a round
// trip's time goes, a CPU profile of the answering child under pipelined pings and the cost of
// the AbortSignal Peer makes per incoming call. Asserts nothing.
// Usage: node bench/bus.mjs [events=200000] [pings=20000] [rounds=3]
import { fork } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleNode, cleanup, importFile, machine, ms, rate, root, summarize, tempDir, topFunctions } from './fixtures/harness.mjs';

const EVENTS = Number(process.argv[2] ?? 200_000);
const PINGS = Number(process.argv[3] ?? 20_000);
const ROUNDS = Number(process.argv[4] ?? 3);
const IN_FLIGHT = 256;
const BATCH = 1_000;

const work = await tempDir('bus');
const built = await bundleNode(
  { 'bus-kit': 'bench/fixtures/bus-kit.ts', 'echo-child': 'bench/fixtures/echo-child.ts' },
  work,
);
const { ChildProcessHandle } = await importFile(built['bus-kit']);

/** Parley's bus: the supervisor side of a real child. */
async function parleyPeer(execArgv = []) {
  const handle = new ChildProcessHandle({ name: 'bench echo child', entry: built['echo-child'], execArgv, restart: false, log: (line) => console.error(line) });
  await handle.start();
  const listeners = new Set();
  handle.currentPeer.on('notice', ({ message }) => {
    for (const listener of listeners) listener(message);
  });
  return {
    name: 'parley bus (pipe + msgpack + Peer)',
    emit: (message) => handle.currentPeer.emit('notice', { level: 'info', message }),
    onNotice: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    ping: (t) => handle.call('sys.ping', { t }),
    stop: () => handle.stop(),
  };
}

/** The peer: bare `process.send` IPC with JSON serialization, same envelopes, minimal correlation. */
async function ipcPeer() {
  const child = fork(join(root, 'bench/fixtures/ipc-child.mjs'), { serialization: 'json', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('spawn', resolve));
  const pending = new Map();
  const listeners = new Set();
  let nextId = 1;
  child.on('message', (m) => {
    if (m.kind === 'res') {
      const resolve = pending.get(m.id);
      pending.delete(m.id);
      resolve?.(m.payload);
    } else if (m.kind === 'event') for (const listener of listeners) listener(m.payload.message);
  });
  return {
    name: 'bare process.send IPC (JSON)',
    emit: (message) => child.send({ v: 1, id: 0, kind: 'event', type: 'notice', payload: { level: 'info', message } }),
    onNotice: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    ping: (t) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        child.send({ v: 1, id, kind: 'req', type: 'sys.ping', payload: { t } });
      }),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

function waitForNotice(peer, test) {
  return new Promise((resolve) => {
    const off = peer.onNotice((message) => {
      if (test(message)) {
        off();
        resolve(message);
      }
    });
  });
}

/** Child -> parent: the child emits `n` events; messages/s until the last one arrived here. */
async function eventsFromChild(peer, n) {
  let count = 0;
  const start = performance.now();
  const done = new Promise((resolve) => {
    const off = peer.onNotice((message) => {
      if (message === 'e' && ++count === n) {
        off();
        resolve();
      }
    });
  });
  peer.emit(`burst:${n}`);
  await done;
  return n / ((performance.now() - start) / 1000);
}

/** Parent -> child: we emit `n` events (a batch per loop turn), the child reports its count. */
async function eventsToChild(peer, n) {
  const answered = waitForNotice(peer, (m) => m.startsWith('count:'));
  const start = performance.now();
  let sent = 0;
  await new Promise((resolve) => {
    const next = () => {
      const end = Math.min(n, sent + BATCH);
      for (; sent < end; sent++) peer.emit('x');
      if (sent < n) setImmediate(next);
      else resolve();
    };
    next();
  });
  peer.emit('count?');
  const got = Number((await answered).slice('count:'.length));
  const seconds = (performance.now() - start) / 1000;
  if (got !== n) throw new Error(`${peer.name}: the child counted ${got} events of ${n}`);
  return n / seconds;
}

async function sequentialPings(peer, n) {
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await peer.ping(i);
    times[i] = performance.now() - t;
  }
  return summarize(times);
}

/** `n` pings with IN_FLIGHT outstanding at any time; calls/s. */
async function pipelinedPings(peer, n) {
  let started = 0;
  const start = performance.now();
  const lane = async () => {
    while (started < n) {
      started++;
      await peer.ping(started);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return n / ((performance.now() - start) / 1000);
}

const peers = [await parleyPeer(), await ipcPeer()];
const results = new Map(peers.map((p) => [p, { fromChild: [], toChild: [], rtt: [], pipelined: [] }]));

// Warm-up: JIT both sides of both peers.
for (const peer of peers) {
  await eventsFromChild(peer, 20_000);
  await eventsToChild(peer, 20_000);
  await sequentialPings(peer, 2_000);
  await pipelinedPings(peer, 10_000);
}
// Rounds interleave the peers so neither profits from running later.
for (let round = 0; round < ROUNDS; round++) {
  for (const peer of peers) {
    const r = results.get(peer);
    r.fromChild.push(await eventsFromChild(peer, EVENTS));
    r.toChild.push(await eventsToChild(peer, EVENTS));
    r.rtt.push(await sequentialPings(peer, PINGS));
    r.pipelined.push(await pipelinedPings(peer, PINGS * 5));
  }
}
for (const peer of peers) await peer.stop();

// Where the answering side's time goes: the echo child under --cpu-prof, answering pipelined pings.
const profileDir = join(work, 'profile');
const profiled = await parleyPeer(['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
await pipelinedPings(profiled, PINGS * 5);
await profiled.stop();
const [profileFile] = await readdir(profileDir);
const childTop = topFunctions(JSON.parse(await readFile(join(profileDir, profileFile), 'utf8')), 8);

// What Peer.receiveCall pays per incoming call for its AbortController and signal.
const abortCost = (() => {
  const n = 200_000;
  const keep = [];
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      keep.push(new AbortController().signal);
      if (keep.length > IN_FLIGHT) keep.shift();
    }
    best = Math.min(best, ((performance.now() - start) / n) * 1000);
  }
  return best;
})();
await cleanup(work);

const mid = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`bus bench, ${machine()}`);
console.log(`${EVENTS} events per direction, ${PINGS} sequential pings, ${PINGS * 5} pings with ${IN_FLIGHT} in flight; median of ${ROUNDS} interleaved rounds`);
const rows = peers.map((peer) => {
  const r = results.get(peer);
  return {
    name: peer.name,
    fromChild: mid(r.fromChild),
    toChild: mid(r.toChild),
    p50: mid(r.rtt.map((s) => s.p50)),
    p99: mid(r.rtt.map((s) => s.p99)),
    pipelined: mid(r.pipelined),
  };
});
for (const row of rows) {
  console.log(
    `${row.name.padEnd(36)} events child->parent ${rate(row.fromChild).padStart(11)}  parent->child ${rate(row.toChild).padStart(11)}  ` +
      `ping p50 ${ms(row.p50)} p99 ${ms(row.p99)}  pings in flight ${rate(row.pipelined).padStart(9)}`,
  );
}
const [parley, ipc] = rows;
const ratio = (a, b) => (a / b).toFixed(2);
console.log(
  `ratio parley/ipc: events child->parent ${ratio(parley.fromChild, ipc.fromChild)}, parent->child ${ratio(parley.toChild, ipc.toChild)}, ` +
    `ping p50 ${ratio(parley.p50, ipc.p50)} (lower is better), pings in flight ${ratio(parley.pipelined, ipc.pipelined)}`,
);
const verdict = (ok) => (ok ? 'met' : 'MISSED');
console.log(
  `targets: 100,000 msgs/s one way: ${verdict(Math.min(parley.fromChild, parley.toChild) >= 100_000)}; ` +
    `round trip p50 under 0.1 ms: ${verdict(parley.p50 < 0.1)} (${ms(parley.p50)})`,
);
console.log(`CPU profile of the Parley child answering ${PINGS * 5} pings with ${IN_FLIGHT} in flight (self time): ${childTop.map(([k, v]) => `${k} ${v.toFixed(1)}%`).join(', ')}`);
console.log(`new AbortController().signal, as Peer.receiveCall makes per incoming call: ${abortCost.toFixed(2)} µs each`);
