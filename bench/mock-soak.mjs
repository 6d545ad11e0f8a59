// A mock under steady load for a long time (issue 26 item 16, RELIABILITY.md): `parley mock serve`
// on the pets contract (the mock made from the document, every request checked against it, the
// `log` check), first driven flat out for its peak requests/s, then held at 80% of that peak for
// the soak's length while the resident memory of its whole process tree (the CLI and the mock-host
// child) is sampled. Prints the peak, the rate held, errors, and RSS after the first minute, at the
// end and at its highest; the target is a drift under 10% from the first minute to the end.
// Usage: node bench/mock-soak.mjs [soak-seconds=600] [connections=20]   (run `npm run build` first)
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const soakSeconds = Number(process.argv[2] ?? 600);
const connections = Number(process.argv[3] ?? 20);
const requireFromRoot = createRequire(join(root, 'package.json'));
const work = await mkdtemp(join(tmpdir(), 'parley-bench-soak-'));

const { $RefParser } = requireFromRoot('@apidevtools/json-schema-ref-parser');
const openapi = await new $RefParser().dereference(join(root, 'test/fixtures/mocks/contracts/pets.openapi.yaml'));
const openapiFile = join(work, 'openapi.json');
await writeFile(openapiFile, JSON.stringify(openapi));
const postArgs = ['-m', 'POST', '-H', 'Content-Type=application/json', '-b', JSON.stringify({ name: 'Rex', kind: 'dog' })];

function autocannon(url, args, seconds) {
  const cli = requireFromRoot.resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, '--json', '-c', String(connections), '-d', String(seconds), ...args, url], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))));
  });
}

/** Resident memory of a process and its descendants now, in MB (VmRSS summed). */
async function treeRssMb(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const children = await readFile(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').catch(() => '');
    pids.push(...children.split(' ').filter(Boolean).map(Number));
  }
  let kb = 0;
  for (const p of pids) kb += Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${p}/status`, 'utf8').catch(() => ''))?.[1] ?? 0);
  return kb / 1024;
}

const port = await new Promise((resolve) => {
  const s = http.createServer().listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'mock', 'serve', openapiFile, '--port', String(port)], { stdio: 'ignore' });
try {
  for (let ok = false; !ok; ) {
    if (child.exitCode !== null) throw new Error(`parley mock serve exited with ${child.exitCode}`);
    ok = await new Promise((resolve) => http.get(`${base}/pets`, { agent: false }, (res) => resolve(res.resume() && res.statusCode === 200)).on('error', () => resolve(false)));
    if (!ok) await new Promise((r) => setTimeout(r, 20));
  }
  await autocannon(`${base}/pets`, postArgs, 5); // warm-up
  const peak = await autocannon(`${base}/pets`, postArgs, 10);
  const peakRate = Math.round(peak.requests.average);
  const rate = Math.max(1, Math.round(peakRate * 0.8));
  console.log(JSON.stringify({ phase: 'peak', 'req/s': peakRate, 'p99 ms': peak.latency.p99, errors: peak.errors + peak.non2xx, load: loadavg()[0].toFixed(1) }));

  const samples = [];
  const started = performance.now();
  const sampler = setInterval(async () => samples.push({ s: (performance.now() - started) / 1000, mb: await treeRssMb(child.pid) }), 5_000);
  const soak = await autocannon(`${base}/pets`, [...postArgs, '-R', String(rate)], soakSeconds);
  clearInterval(sampler);
  const firstMinute = samples.find((x) => x.s >= Math.min(60, soakSeconds / 2)) ?? samples[0];
  const last = samples.at(-1);
  const highest = Math.max(...samples.map((x) => x.mb));
  const drift = (last.mb - firstMinute.mb) / firstMinute.mb;
  console.log(
    JSON.stringify({
      phase: 'soak',
      seconds: soakSeconds,
      'target req/s': rate,
      'req/s': Math.round(soak.requests.average),
      requests: soak.requests.total,
      'p99 ms': soak.latency.p99,
      errors: soak.errors + soak.non2xx,
      'RSS MB at first minute': Math.round(firstMinute.mb),
      'RSS MB at end': Math.round(last.mb),
      'RSS MB highest': Math.round(highest),
      drift: `${(drift * 100).toFixed(1)}%`,
      load: loadavg()[0].toFixed(1),
    }),
  );
  console.log(`target: RSS drift under 10% from the first minute to the end: ${Math.abs(drift) < 0.1 ? 'met' : 'MISSED'}`);
} finally {
  child.kill('SIGINT');
  await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  await rm(work, { recursive: true, force: true });
}
