import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { closeDispatchers, send } from './index.js';
import { peakRetainedGrowth } from './test-support/memory.js';
import { readRequestBody, startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

const text = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
const encoded: Record<string, Buffer> = {
  gzip: gzipSync(text),
  deflate: deflateSync(text),
  'deflate-raw': deflateRawSync(text),
  br: brotliCompressSync(text),
  'gzip, br': brotliCompressSync(gzipSync(text)),
};

/** 1 MiB of a repeating pattern, reused for every chunk of the large body (no server-side growth). */
const MIB = 1024 * 1024;
const patternChunk = Buffer.alloc(MIB, 'abcdefghijklmnopqrstuvwxyz0123456789');
const LARGE_MIB = 64;

let server: RunningServer;
const received: Array<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> = [];
const spool = tempDir();
const files = tempDir();

beforeAll(async () => {
  server = await startHttp(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readRequestBody(req);
    received.push({ headers: req.headers, body });
    const encoding = url.searchParams.get('encoding');
    if (url.pathname === '/encoded' && encoding !== null) {
      const header = encoding === 'deflate-raw' ? 'deflate' : encoding;
      res.writeHead(200, { 'Content-Encoding': header, 'Content-Type': 'text/plain' }).end(encoded[encoding]);
      return;
    }
    if (url.pathname === '/corrupt') {
      res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(Buffer.concat([gzipSync(text).subarray(0, 30), Buffer.from('garbage')]));
      return;
    }
    if (url.pathname === '/empty-gzip') {
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': '0' }).end();
      return;
    }
    if (url.pathname === '/unknown-encoding') {
      res.writeHead(200, { 'Content-Encoding': 'zstd' }).end('not really zstd');
      return;
    }
    if (url.pathname === '/stalls-after-2mb') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.write(patternChunk);
      res.write(patternChunk);
      return;
    }
    if (url.pathname === '/large') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(LARGE_MIB * MIB) });
      let sent = 0;
      const pump = (): void => {
        while (sent < LARGE_MIB) {
          sent++;
          if (!res.write(patternChunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
});

afterAll(async () => {
  await closeDispatchers();
  await server.close();
  spool.remove();
  files.remove();
});

describe('response decoding', () => {
  for (const encoding of Object.keys(encoded)) {
    it(`decodes ${encoding}`, async () => {
      const result = await send(sendSpec(`${server.url}/encoded?encoding=${encodeURIComponent(encoding)}`), { spoolDir: spool.path });
      expect(Buffer.from(result.body.bytes).toString()).toBe(text);
      expect(result.body.size).toBe(Buffer.byteLength(text));
      expect(result.body.wireSize).toBe(encoded[encoding]!.length);
    });
  }

  it('fails with decode-failed naming the encoding when the body is corrupt', async () => {
    const error = await send(sendSpec(`${server.url}/corrupt`), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(error, 'decode-failed')).toBe(true);
    expect((error as Error).message).toContain('gzip');
    expect((error as Error).message).toContain(`127.0.0.1:${server.port}`);
  });

  it('takes an empty body declared as gzip as empty, and keeps an unknown encoding undecoded', async () => {
    const empty = await send(sendSpec(`${server.url}/empty-gzip`), { spoolDir: spool.path });
    expect(empty.body.size).toBe(0);
    const unknown = await send(sendSpec(`${server.url}/unknown-encoding`), { spoolDir: spool.path });
    expect(Buffer.from(unknown.body.bytes).toString()).toBe('not really zstd');
  });

  it('does not decode a HEAD response', async () => {
    const result = await send(sendSpec(`${server.url}/encoded?encoding=gzip`, { method: 'HEAD' }), { spoolDir: spool.path });
    expect(result.status).toBe(200);
    expect(result.body.size).toBe(0);
  });
});

describe('large bodies', () => {
  it(`spools a ${LARGE_MIB} MB body to a 0600 file, keeps its start in memory, memory stays bounded`, async () => {
    const inlineLimit = 256 * 1024;
    // A full GC per sample: every 100 ms leaves a loaded machine time to move the body.
    const { result, peak } = await peakRetainedGrowth(() => send(sendSpec(`${server.url}/large`, { inlineLimit }), { spoolDir: join(spool.path, 'made-on-demand') }), 100);
    expect(result.body.size).toBe(LARGE_MIB * MIB);
    expect(result.body.wireSize).toBe(LARGE_MIB * MIB);
    expect(result.body.bytes.length).toBe(inlineLimit);
    expect(Buffer.from(result.body.bytes).equals(patternChunk.subarray(0, inlineLimit))).toBe(true);
    const file = result.body.spooledTo!;
    expect(file.startsWith(join(spool.path, 'made-on-demand'))).toBe(true);
    const info = statSync(file);
    expect(info.size).toBe(LARGE_MIB * MIB);
    expect(info.mode & 0o777).toBe(0o600);
    // The whole body never sits in memory: growth stays well under its size.
    // Measured after forced GCs: the body is not kept alive (a held body would be >= 64 MB).
    expect(peak).toBeLessThan(24 * MIB);
  }, 120_000);

  it('keeps a body at the inline limit in memory, without a file', async () => {
    const result = await send(sendSpec(`${server.url}/ok`, { inlineLimit: 2 }), { spoolDir: join(spool.path, 'exact') });
    expect(result.body.spooledTo).toBeUndefined();
    expect(Buffer.from(result.body.bytes).toString()).toBe('ok');
  });

  it('removes a partly spooled file when the body fails', async () => {
    const dir = join(spool.path, 'cancelled');
    const controller = new AbortController();
    const pending = send(sendSpec(`${server.url}/stalls-after-2mb`, { inlineLimit: 1024 }), { spoolDir: dir, signal: controller.signal });
    const listed = (): string[] => (existsSync(dir) ? readdirSync(dir) : []);
    // Cancel once the spool file exists: the body is half read and stalled.
    while (listed().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(hasCode(error, 'cancelled')).toBe(true);
    expect(listed()).toEqual([]);
  });
});

describe('outgoing bodies', () => {
  it('streams a file with its length', async () => {
    const data = Buffer.alloc(300_000, 7);
    writeFileSync(join(files.path, 'payload.bin'), data);
    const result = await send(sendSpec(`${server.url}/upload`, { method: 'PUT', body: { type: 'file', root: files.path, path: 'payload.bin' } }), { spoolDir: spool.path });
    expect(result.status).toBe(200);
    const got = received.at(-1)!;
    expect(got.headers['content-length']).toBe('300000');
    expect(got.body.equals(data)).toBe(true);
    expect(result.raw.request.endsWith('[300000 bytes binary]')).toBe(true);
  });

  it('refuses a missing body file with body-file-missing naming it, before sending', async () => {
    const before = received.length;
    const path = 'nope.bin';
    const error = await send(sendSpec(`${server.url}/upload`, { method: 'PUT', body: { type: 'file', root: files.path, path } }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(error, 'body-file-missing')).toBe(true);
    expect((error as Error).message).toBe('The body file "nope.bin" does not exist.');
    const multipartError = await send(
      sendSpec(`${server.url}/upload`, { method: 'POST', body: { type: 'multipart', root: files.path, parts: [{ kind: 'file', name: 'f', path, contentType: '' }] } }),
      { spoolDir: spool.path },
    ).catch((e: unknown) => e);
    expect(hasCode(multipartError, 'body-file-missing')).toBe(true);
    expect(received.length).toBe(before);
  });

  it('encodes multipart with file parts, their content type and file name, ignoring a hand-set Content-Type', async () => {
    const path = join(files.path, 'photo.png');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    writeFileSync(path, png);
    await send(
      sendSpec(`${server.url}/form`, {
        method: 'POST',
        headers: [['Content-Type', 'multipart/form-data']],
        body: {
          type: 'multipart',
          root: files.path,
          parts: [
            { kind: 'text', name: 'caption', value: 'a picture' },
            { kind: 'file', name: 'image', path: 'photo.png', contentType: 'image/png' },
          ],
        },
      }),
      { spoolDir: spool.path },
    );
    const got = received.at(-1)!;
    expect(String(got.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(got.body), { headers: { 'content-type': String(got.headers['content-type']) } }).formData();
    expect(form.get('caption')).toBe('a picture');
    const file = form.get('image') as File;
    expect(file.name).toBe('photo.png');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    expect(readFileSync(path).equals(png)).toBe(true);
  });
});
