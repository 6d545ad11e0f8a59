/**
 * The curl reader: commands are read in an importer child (dist/importer.js), off the supervisor's
 * event loop; one that takes too long to read is stopped at the deadline (the child is killed)
 * with a clear error, and the next command is read by a fresh child. dist/ must be built first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CurlReader } from '../../processes/supervisor/curl/curl-reader.js';
import { childrenOf } from '../support/processes.js';
import { until } from '../support/until.js';

/** A body whose every apostrophe is written '"'"': one shell word glued from thousands of pieces, slow for curlconverter. */
function gluedCommand(items: number): string {
  const body = JSON.stringify(Array.from({ length: items }, (_, i) => ({ id: i, note: "it's" })));
  return `curl https://api.example.com/items -H 'Content-Type: application/json' --data-raw '${body.replace(/'/g, `'"'"'`)}'`;
}

describe('CurlReader', () => {
  const reader = new CurlReader({ deadlineMs: 1500 });
  afterAll(() => reader.close());

  it('reads a command in its child, which stays for the next read', async () => {
    const { request, report } = await reader.read(`curl -k https://api.example.com/pets -d 'name=Rex'`, { id: 'r1', name: 'Create' });
    expect(request).toMatchObject({ id: 'r1', name: 'Create', method: 'POST', url: 'https://api.example.com/pets', body: { kind: 'form', form: [{ name: 'name', value: 'Rex', enabled: true }] } });
    expect(report.ignored).toEqual(['-k']);
    await expect(reader.read('wget https://x', { id: 'r2' })).rejects.toMatchObject({ code: 'import-unrecognised' });
    // The child is kept: the next read goes to the same process.
    const before = await childrenOf(process.pid, 'importer.js');
    await reader.read('curl https://api.example.com/again', { id: 'r3' });
    expect(await childrenOf(process.pid, 'importer.js')).toEqual(before);
    expect(before).toHaveLength(1);
  });

  it('stops a read that passes the deadline, keeps the event loop free meanwhile, and reads the next command in a fresh child', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = performance.now();
    await expect(reader.read(gluedCommand(30_000), { id: 'slow' })).rejects.toMatchObject({ code: 'import-too-slow', message: expect.stringContaining('longer than 1.5 s') });
    clearInterval(ticker);
    const took = performance.now() - started;
    expect(took).toBeLessThan(10_000);
    // The loop ran throughout: ticks kept coming while the read was under way (a loop held by the read would give none).
    expect(ticks).toBeGreaterThan(took / 1000);
    const { request } = await reader.read('curl https://api.example.com/after', { id: 'r4' });
    expect(request.url).toBe('https://api.example.com/after');
    expect(await childrenOf(process.pid, 'importer.js')).toHaveLength(1);
  });

  it('reads on in a new child after its child was killed (kill -9)', async () => {
    await reader.read('curl https://api.example.com/one', { id: 'k1' });
    const [pid] = await childrenOf(process.pid, 'importer.js');
    process.kill(pid!, 'SIGKILL');
    await until(async () => !(await childrenOf(process.pid, 'importer.js')).includes(pid!));
    const { request } = await reader.read('curl https://api.example.com/two', { id: 'k2' });
    expect(request.url).toBe('https://api.example.com/two');
    expect(await childrenOf(process.pid, 'importer.js')).not.toContain(pid);
  });

  it('reads headers named __proto__ and constructor as plain names (Import cURL preview)', async () => {
    const { request, report } = await reader.read(`curl https://api.example.com/pets -H '__proto__: a' -H 'constructor: b' -H 'Constructor: c'`, { id: 'p1' });
    expect(request.headers.map((h) => [h.name, h.value])).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['Constructor', 'c'],
    ]);
    expect(report.preview.headerNames).toEqual(['__proto__', 'constructor', 'Constructor']);
  });

  it('refuses a command over 1 MB before it reaches the child', async () => {
    await expect(reader.read(`curl https://x -d '${'a'.repeat(1024 * 1024)}'`, { id: 'big' })).rejects.toMatchObject({ code: 'import-too-large' });
  });
});
