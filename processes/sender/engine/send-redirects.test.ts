import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import type { OutgoingBody } from '../../../protocol/model/exchange.js';
import { closeDispatchers, send } from './index.js';
import { readRequestBody, startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Each server records what reached it; /redirect/<status>?to=<location> answers with a redirect. */
async function recordingServer(seen: Seen[]): Promise<RunningServer> {
  return startHttp(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = (await readRequestBody(req)).toString('latin1');
    seen.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, headers: req.headers, body });
    const redirect = /^\/redirect\/(\d{3})$/.exec(url.pathname);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { Location: url.searchParams.get('to') ?? '/', 'Content-Type': 'text/plain' });
      res.end('moved');
      return;
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { Location: '/loop' }).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`landed ${url.pathname}`);
  });
}

let home: RunningServer;
let other: RunningServer;
const homeSeen: Seen[] = [];
const otherSeen: Seen[] = [];
const files = tempDir();
const spool = tempDir();

beforeAll(async () => {
  home = await recordingServer(homeSeen);
  other = await recordingServer(otherSeen);
});

afterAll(async () => {
  await closeDispatchers();
  await home.close();
  await other.close();
  files.remove();
  spool.remove();
});

const payload: OutgoingBody = { type: 'bytes', data: Buffer.from('the payload') };

describe('redirects', () => {
  const cases: Array<{ status: number; method: string; expectMethod: string; keepsBody: boolean }> = [
    { status: 301, method: 'POST', expectMethod: 'GET', keepsBody: false },
    { status: 301, method: 'PUT', expectMethod: 'PUT', keepsBody: true },
    { status: 302, method: 'POST', expectMethod: 'GET', keepsBody: false },
    { status: 303, method: 'PUT', expectMethod: 'GET', keepsBody: false },
    { status: 303, method: 'DELETE', expectMethod: 'GET', keepsBody: false },
    { status: 307, method: 'POST', expectMethod: 'POST', keepsBody: true },
    { status: 308, method: 'PATCH', expectMethod: 'PATCH', keepsBody: true },
  ];

  for (const { status, method, expectMethod, keepsBody } of cases) {
    it(`${status} turns ${method} into ${expectMethod}${keepsBody ? ' with' : ' without'} the body`, async () => {
      homeSeen.length = 0;
      const result = await send(
        sendSpec(`${home.url}/redirect/${status}?to=/final`, { method, headers: [['Content-Type', 'text/plain']], body: payload }),
        { spoolDir: spool.path },
      );
      expect(result.status).toBe(200);
      expect(result.url).toBe(`${home.url}/final`);
      expect(result.hops).toEqual([
        expect.objectContaining({ method, url: `${home.url}/redirect/${status}?to=/final`, status, location: '/final' }),
      ]);
      expect(result.hops[0]!.headers).toContainEqual(['Location', '/final']);

      const landed = homeSeen.at(-1)!;
      expect(landed.path).toBe('/final');
      expect(landed.method).toBe(expectMethod);
      expect(landed.body).toBe(keepsBody ? 'the payload' : '');
      expect(landed.headers['content-type']).toBe(keepsBody ? 'text/plain' : undefined);
      expect(result.raw.request.startsWith(`${expectMethod} /final HTTP/1.1\r\n`)).toBe(true);
      // What went out on each hop, as written: method, framing header and body bytes.
      const length = String(Buffer.byteLength('the payload'));
      expect(result.hops[0]!.sent).toMatchObject({ method, bodySize: 11 });
      expect(result.hops[0]!.sent.headers).toEqual(expect.arrayContaining([['host', home.url.slice('http://'.length)], ['Content-Type', 'text/plain'], ['content-length', length]]));
      expect(result.sent).toMatchObject({ method: expectMethod, bodySize: keepsBody ? 11 : 0 });
      expect(result.sent!.headers.some(([name]) => name.toLowerCase() === 'content-type')).toBe(keepsBody);
    });
  }

  it('307 sends a file body again, read again from its start', async () => {
    writeFileSync(join(files.path, 'body.txt'), 'file contents');
    homeSeen.length = 0;
    const result = await send(sendSpec(`${home.url}/redirect/307?to=/final`, { method: 'POST', body: { type: 'file', root: files.path, path: 'body.txt' } }), { spoolDir: spool.path });
    expect(result.status).toBe(200);
    expect(homeSeen.map((s) => s.body)).toEqual(['file contents', 'file contents']);
    expect(homeSeen[1]!.headers['content-length']).toBe('13');
  });

  it('308 sends a multipart body again, file part included', async () => {
    writeFileSync(join(files.path, 'upload.json'), '{"a":1}');
    homeSeen.length = 0;
    const body: OutgoingBody = {
      type: 'multipart',
      root: files.path,
      parts: [
        { kind: 'text', name: 'title', value: 'hello' },
        { kind: 'file', name: 'doc', path: 'upload.json', contentType: 'application/json' },
      ],
    };
    const result = await send(sendSpec(`${home.url}/redirect/308?to=/final`, { method: 'POST', body }), { spoolDir: spool.path });
    expect(result.status).toBe(200);
    expect(homeSeen).toHaveLength(2);
    for (const seen of homeSeen) {
      const form = await new Response(Buffer.from(seen.body, 'latin1'), { headers: { 'content-type': String(seen.headers['content-type']) } }).formData();
      expect(form.get('title')).toBe('hello');
      const file = form.get('doc') as File;
      expect(file.name).toBe('upload.json');
      expect(file.type).toBe('application/json');
      expect(await file.text()).toBe('{"a":1}');
    }
  });

  it('resolves a relative Location against the hop URL', async () => {
    homeSeen.length = 0;
    const result = await send(sendSpec(`${home.url}/redirect/302?to=../elsewhere?x=1`), { spoolDir: spool.path });
    expect(result.url).toBe(`${home.url}/elsewhere?x=1`);
    expect(homeSeen.at(-1)!.path).toBe('/elsewhere?x=1');
  });

  it('keeps credentials on the same origin and drops them for another origin', async () => {
    const headers: Array<[string, string]> = [['Authorization', 'Bearer secret-token'], ['Cookie', 'sid=1'], ['X-Other', 'kept']];
    homeSeen.length = 0;
    await send(sendSpec(`${home.url}/redirect/302?to=/same`, { headers }), { spoolDir: spool.path });
    expect(homeSeen.at(-1)!.headers.authorization).toBe('Bearer secret-token');
    expect(homeSeen.at(-1)!.headers.cookie).toBe('sid=1');

    otherSeen.length = 0;
    const result = await send(sendSpec(`${home.url}/redirect/302?to=${encodeURIComponent(`${other.url}/away`)}`, { headers }), { spoolDir: spool.path });
    expect(result.url).toBe(`${other.url}/away`);
    const away = otherSeen.at(-1)!;
    expect(away.headers.authorization).toBeUndefined();
    expect(away.headers.cookie).toBeUndefined();
    expect(away.headers['x-other']).toBe('kept');
    expect(away.headers.host).toBe(`127.0.0.1:${other.port}`);
  });

  it('follows a chain and records every hop in order', async () => {
    const third = encodeURIComponent('/redirect/303?to=/end');
    const result = await send(sendSpec(`${home.url}/redirect/301?to=${encodeURIComponent(`/redirect/302?to=${third}`)}`), { spoolDir: spool.path });
    expect(result.hops.map((h) => h.status)).toEqual([301, 302, 303]);
    expect(result.url).toBe(`${home.url}/end`);
  });

  it('stops at maxRedirects with too-many-redirects', async () => {
    const error = await send(sendSpec(`${home.url}/loop`, { maxRedirects: 3 }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(error, 'too-many-redirects')).toBe(true);
    expect((error as Error).message).toContain('3 redirects');

    const none = await send(sendSpec(`${home.url}/redirect/302?to=/x`, { maxRedirects: 0 }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(none, 'too-many-redirects')).toBe(true);
  });

  it('returns the 3xx itself when redirects are not followed', async () => {
    const result = await send(sendSpec(`${home.url}/redirect/302?to=/final`, { followRedirects: false }), { spoolDir: spool.path });
    expect(result.status).toBe(302);
    expect(result.hops).toEqual([]);
    expect(Buffer.from(result.body.bytes).toString()).toBe('moved');
  });

  it('returns a redirect to a scheme it cannot follow as the final response', async () => {
    const result = await send(sendSpec(`${home.url}/redirect/302?to=${encodeURIComponent('ftp://example.com/file')}`), { spoolDir: spool.path });
    expect(result.status).toBe(302);
    expect(result.hops).toEqual([]);
  });
});
