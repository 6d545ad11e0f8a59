// Uploading a body file with the sender engine: a binary body and a multipart file part of
// `mb` MiB, each through one 307 (so the file is sent twice), against an in-process server on
// 127.0.0.1 that counts the bytes. Prints the best of `rounds` in MiB/s of bytes sent, and the
// engine process's peak RSS. Issue 26 opened body files once and reads them by position per hop
// (processes/sender/engine/body-file.ts) instead of createReadStream/openAsBlob by path per hop.
// Usage: node bench/body-upload.mjs [mb=64] [rounds=5]
// PARLEY_BENCH_BODY_SHAPE=path sends `{ type: 'file', path }` (absolute), the shape before protocol 7.
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mb = Number(process.argv[2] ?? 64);
const rounds = Number(process.argv[3] ?? 5);
const oldShape = process.env.PARLEY_BENCH_BODY_SHAPE === 'path';
const work = await mkdtemp(join(tmpdir(), 'parley-bench-upload-'));

await build({
  absWorkingDir: root,
  entryPoints: { engine: 'processes/sender/engine/index.ts' },
  outdir: work,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
const { send, closeDispatchers } = await import(pathToFileURL(join(work, 'engine.mjs')).href);

const size = mb * 1024 * 1024;
await writeFile(join(work, 'payload.bin'), Buffer.alloc(size, 'parley body upload '));
let received = 0;
const server = http.createServer((req, res) => {
  req.on('data', (chunk) => (received += chunk.length));
  req.on('end', () => (req.url === '/first' ? res.writeHead(307, { location: '/second' }).end() : res.writeHead(200).end('ok')));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/first`;

const bodies = {
  binary: oldShape ? { type: 'file', path: join(work, 'payload.bin') } : { type: 'file', root: work, path: 'payload.bin' },
  multipart: oldShape
    ? { type: 'multipart', parts: [{ kind: 'file', name: 'f', path: join(work, 'payload.bin'), contentType: '' }] }
    : { type: 'multipart', root: work, parts: [{ kind: 'file', name: 'f', path: 'payload.bin', contentType: '' }] },
};
const spec = (body) => ({ method: 'POST', url, headers: [], body, timeoutMs: 120_000, httpVersion: '1.1', followRedirects: true, maxRedirects: 10, proxy: '', caPem: '', inlineLimit: 1024 * 1024 });

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
console.log(`${mb} MiB file, sent twice per round (one 307), best of ${rounds}; body shape: ${oldShape ? 'absolute path (before protocol 7)' : 'project folder + relative path'}`);
for (const [kind, body] of Object.entries(bodies)) {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    received = 0;
    const t = performance.now();
    await send(spec(body), { spoolDir: work });
    const ms = performance.now() - t;
    if (received < 2 * size) throw new Error(`only ${received} bytes arrived`);
    best = Math.min(best, ms);
  }
  console.log(`${kind.padEnd(9)}: ${((2 * size) / 1024 / 1024 / (best / 1000)).toFixed(0)} MiB/s (${best.toFixed(0)} ms for ${2 * mb} MiB)`);
}
clearInterval(sampler);
console.log(`peak RSS of this process: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);

await closeDispatchers();
server.close();
await rm(work, { recursive: true, force: true });
