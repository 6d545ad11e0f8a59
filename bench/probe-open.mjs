// Throwaway probe: project.open over the bus from Node after parley ui has settled.
import { join } from 'node:path';
import WebSocket from 'ws';
import { bundleNode, importFile, median, startParley, tempDir } from './fixtures/harness.mjs';
const projectDir = process.argv[2];
const runs = Number(process.argv[3] ?? 3);
const prof = process.argv[4];
const work = await tempDir('probe');
const built = await bundleNode({ 'bus-kit': 'bench/fixtures/bus-kit.ts' }, join(work, 'build'));
const busKit = await importFile(built['bus-kit']);
const times = [];
for (let run = 0; run < runs; run++) {
  const app = await startParley([], prof ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${prof}`] } : {});
  try {
    await new Promise((r) => setTimeout(r, 3000));
    const url = new URL(app.url);
    const ws = new WebSocket(`ws://${url.host}/bus?token=${url.searchParams.get('token')}`, { headers: { origin: url.origin } });
    const peer = new busKit.Peer(busKit.webSocketTransport(ws), { role: 'ui', validate: busKit.validateInterpreted });
    await peer.ready;
    const started = performance.now();
    const pages = [];
    await peer.call('project.open', { path: projectDir }, { onChunk: (page) => pages.push(page) });
    times.push(performance.now() - started);
    peer.close();
  } finally {
    await app.stop();
  }
}
console.log(process.cwd(), 'open ms', times.map((t) => t.toFixed(0)).join(' '), 'median', median(times).toFixed(0));
