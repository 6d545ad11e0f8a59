// gRPC unary calls (issue 30's benchmark): calls a second through `parley run` (iterations over
// one unary request with two assertions: `status equals OK` and `$.message`) against a bare
// @grpc/grpc-js client loop (protobufjs encode and decode, one call after another, as the run
// makes them) on the same server, in the same run: at least 0.5x. The server (the tests' Greeter,
// test/support/grpc-server.ts) runs in a child process of its own on 127.0.0.1.
//   - bare: CALLS calls of SayHello in this process, one at a time, on one channel;
//   - parley: `parley run <project> --iterations CALLS --reporter json:<file>` from spawn to exit
//     (start-up included, as bench/run-vs-newman.mjs counts it), its console report to /dev/null;
//     and its start-up alone (1 iteration), so the rate past start-up is shown too.
// Median of RUNS rounds, interleaved. Asserts nothing.
// Usage: node bench/grpc.mjs [calls=5000] [runs=3]
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { bundleNode, cleanup, importFile, machine, median, rate, root, tempDir } from './fixtures/harness.mjs';

const CALLS = Number(process.argv[2] ?? 5_000);
const RUNS = Number(process.argv[3] ?? 3);

const work = await tempDir('grpc');
const built = await bundleNode({ 'grpc-kit': 'bench/fixtures/grpc-kit.ts' }, work);
const kit = await importFile(built['grpc-kit']);

const server = spawn(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(built['grpc-kit'])}).then((kit) => kit.serve())`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill());
const address = await new Promise((resolve, reject) => {
  server.stdout.once('data', (d) => resolve(String(d).trim()));
  server.once('exit', (code) => reject(new Error(`the gRPC server exited with ${code}`)));
});

const home = join(work, 'home');
const project = join(work, 'project');
await kit.makeProject(project, `grpc://${address}`);
const cli = join(root, 'dist', 'cli.js');

console.log(`gRPC bench, ${CALLS.toLocaleString('en-US')} unary calls a round, ${RUNS} rounds, ${machine()}`);

// The bare client: the same definition, the same message, one call at a time.
const rootType = new protobuf.Root();
rootType.addJSON(protobuf.common.get('google/protobuf/timestamp.proto').nested);
protobuf.parse(kit.GREETER_PROTO, rootType, { keepCase: true });
const input = rootType.lookupType('parley.test.HelloRequest');
const output = rootType.lookupType('parley.test.HelloReply');
const client = new grpc.Client(address, grpc.credentials.createInsecure());
const message = { name: 'bench', mood: 'HAPPY', tags: ['a', 'b'] };
const call = () =>
  new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      '/parley.test.Greeter/SayHello',
      (value) => Buffer.from(input.encode(input.fromObject(value)).finish()),
      (bytes) => output.toObject(output.decode(bytes), { longs: String, enums: String, defaults: true }),
      message,
      (err, reply) => (err ? reject(err) : reply.message === 'Hello bench' ? resolve() : reject(new Error('unexpected reply'))),
    ),
  );

async function bare() {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  return { ms: performance.now() - started };
}

function parley(iterations) {
  const report = join(work, 'report.json');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'run', project, '--iterations', String(iterations), '--reporter', `json:${report}`], { env: { ...process.env, PARLEY_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', async (code) => {
      const ms = performance.now() - started;
      const outcome = JSON.parse(await readFile(report, 'utf8').catch(() => '{}'));
      const failed = outcome.summary?.failed ?? -1;
      if (code !== 0 || failed !== 0) reject(new Error(`parley run exited with ${code}, ${failed} failed: ${err.slice(-2000)}`));
      else resolve({ ms });
    });
  });
}

// Warm-up, not counted: the channel's connection, the disk caches, the JIT.
await bare();
await parley(10);
const samples = { bare: [], parley: [], startup: [] };
for (let round = 0; round < RUNS; round++) {
  samples.bare.push((await bare()).ms);
  samples.parley.push((await parley(CALLS)).ms);
  samples.startup.push((await parley(1)).ms);
}
client.close();
const bareRate = (CALLS / median(samples.bare)) * 1000;
const parleyRate = (CALLS / median(samples.parley)) * 1000;
const pastStartup = (CALLS / Math.max(1, median(samples.parley) - median(samples.startup))) * 1000;
console.log(`bare @grpc/grpc-js loop: ${rate(bareRate)} (median ${median(samples.bare).toFixed(0)} ms for ${CALLS})`);
console.log(`parley run:              ${rate(parleyRate)} (median ${median(samples.parley).toFixed(0)} ms, start-up ${median(samples.startup).toFixed(0)} ms; ${rate(pastStartup)} past start-up)`);
console.log(`ratio: ${(parleyRate / bareRate).toFixed(2)}x (${(pastStartup / bareRate).toFixed(2)}x past start-up); ${machine()}`);
server.kill();
await cleanup(work);
