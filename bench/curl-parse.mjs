// cURL import: how long reading a curl command takes (curlconverter's tree-sitter parse plus
// Parley's conversion) for commands of 1 KB, 10 KB, 100 KB and about 1 MB, as the Import cURL
// dialog's preview asks for it: through the supervisor's CurlReader, whose importer child is kept
// running between reads. The peer, measured in the same run, is what the other design would cost
// per keystroke: a fresh importer child for every read (its start included).
// Also: a command of the same size glued from many quoted pieces ('it'"'"'s'), the shape
// curlconverter reads in quadratic time, which is why reads run in a child with a deadline.
// Build first (node scripts/build.mjs): the reader starts dist/importer.js.
// Usage: node bench/curl-parse.mjs [rounds=10]
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { bundleNode, cleanup, root, tempDir } from './fixtures/harness.mjs';

const rounds = Number(process.argv[2] ?? 10);
console.log(`node ${process.version}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

const work = await tempDir('curl-parse');
const { reader: readerModule } = await bundleNode({ reader: 'processes/supervisor/curl/curl-reader.ts' }, work);
const { CurlReader } = await import(readerModule);

/** A JSON body of about `bytes`, quoted once ($'...'), or glued at every apostrophe when `glued`. */
function command(bytes, glued = false) {
  const items = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const item = JSON.stringify({ id: i, name: `item ${i}`, note: glued ? "it's fine" : 'fine', tags: ['a', 'b'] });
    items.push(item);
    size += item.length + 1;
  }
  const body = `[${items.join(',')}]`;
  const quoted = glued ? `'${body.replace(/'/g, `'"'"'`)}'` : `'${body}'`;
  return `curl -X POST https://api.example.com/items -H 'Content-Type: application/json' -H 'Authorization: Bearer abc' --data-raw ${quoted}`;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(f) {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

const entry = join(root, 'dist', 'importer.js');
const kept = new CurlReader({ deadlineMs: 120_000, entry });
const firstRead = await time(() => kept.read('curl https://x', { id: 'r' }));
const sizes = [1024, 10 * 1024, 100 * 1024, 1000 * 1024];
const warm = {};
for (const size of sizes) {
  const text = command(size);
  const times = [];
  for (let i = 0; i < rounds; i++) times.push(await time(() => kept.read(text, { id: 'r' })));
  warm[size] = median(times);
}
// The peer: a child started for each read (a reader whose child is closed after every read).
const fresh = [];
for (let i = 0; i < Math.min(rounds, 8); i++) {
  const once = new CurlReader({ entry });
  fresh.push(await time(() => once.read(command(1024), { id: 'r' })));
  await once.close();
}
const perRead = median(fresh);
console.log(`\nfirst read (starts the child, loads the parser): ${firstRead.toFixed(0)} ms`);
console.log('command size   kept child (median)   a fresh child per read (1 KB)   ratio');
for (const size of sizes) console.log(`${`${size / 1024} KB`.padEnd(14)} ${warm[size].toFixed(1).padStart(12)} ms   ${perRead.toFixed(1).padStart(22)} ms   ${(warm[size] / perRead).toFixed(3).padStart(8)}x`);

// The glued shape: quadratic in pieces (a deadline stops it in the app; here it is given 2 min).
console.log('\nglued from quoted pieces (one per item):');
for (const size of [25 * 1024, 50 * 1024, 100 * 1024]) {
  const text = command(size, true);
  const pieces = (text.match(/'"'"'/g) ?? []).length;
  const t = await time(() => kept.read(text, { id: 'r' }).catch(() => {}));
  console.log(`${`${size / 1024} KB`.padEnd(8)} ${String(pieces).padStart(6)} pieces  ${t.toFixed(0).padStart(7)} ms`);
}
await kept.close();
console.log(`\n${warm[1024] < perRead ? 'met' : 'MISSED'}: a preview read by the kept child costs ${((100 * warm[1024]) / perRead).toFixed(1)}% of starting a child for it`);
await cleanup(work);
