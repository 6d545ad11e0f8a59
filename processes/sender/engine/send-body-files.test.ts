/**
 * Body files are opened once, inside the project, and that open file is what every hop sends
 * (issue 26: a file swapped for a link to /etc/passwd between hops was uploaded). Real servers on
 * 127.0.0.1; the swaps are made by the server between hops, so they happen at a known moment.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import type { OutgoingBody } from '../../../protocol/model/exchange.js';
import { closeDispatchers, send } from './index.js';
import { readRequestBody, startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

const base = tempDir();
const root = join(base.path, 'project');
const outsideDir = join(base.path, 'outside');
const OUTSIDE = 'root:x:0:0:the outside file\n';
const ORIGINAL = 'the original body file';
const spool = join(base.path, 'spool');

interface Seen {
  path: string;
  body: Buffer;
  contentType: string | undefined;
}
const seen: Seen[] = [];
/** What the server does to the project when the first hop arrives, before it answers 307. */
let betweenHops: () => void = () => {};
let server: RunningServer;

beforeAll(async () => {
  mkdirSync(outsideDir, { recursive: true });
  writeFileSync(join(outsideDir, 'passwd'), OUTSIDE);
  server = await startHttp(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readRequestBody(req).catch(() => null);
    // A request whose body broke off is recorded as such: it never reached the handler's answer.
    seen.push({ path: url.pathname, body: body ?? Buffer.from('[aborted]'), contentType: req.headers['content-type'] });
    if (body === null) return;
    if (url.pathname === '/first') {
      betweenHops();
      res.writeHead(Number(url.searchParams.get('status') ?? 307), { Location: '/second' }).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
});

beforeEach(() => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'files'), { recursive: true });
  writeFileSync(join(root, 'files', 'body.txt'), ORIGINAL);
  seen.length = 0;
  betweenHops = () => {};
});

afterAll(async () => {
  await closeDispatchers();
  await server.close();
  base.remove();
});

/** Replaces files/body.txt with a symbolic link to the outside file, as `ln -sf` + `mv` would: atomically. */
function swapForLink(): void {
  symlinkSync(join(outsideDir, 'passwd'), join(root, 'files', 'swap'));
  renameSync(join(root, 'files', 'swap'), join(root, 'files', 'body.txt'));
}

const fileBody: OutgoingBody = { type: 'file', root, path: 'files/body.txt' };
const multipartBody: OutgoingBody = { type: 'multipart', root, parts: [{ kind: 'file', name: 'doc', path: 'files/body.txt', contentType: 'text/plain' }] };

async function formFile(s: Seen): Promise<string> {
  const form = await new Response(new Uint8Array(s.body), { headers: { 'content-type': s.contentType ?? '' } }).formData();
  return (form.get('doc') as File).text();
}

describe('a body file swapped for a link between hops', () => {
  it('307: the second hop sends the bytes of the file opened for the first, never the outside file', async () => {
    betweenHops = swapForLink;
    const result = await send(sendSpec(`${server.url}/first`, { method: 'POST', body: fileBody }), { spoolDir: spool });
    expect(result.status).toBe(200);
    expect(seen.map((s) => [s.path, s.body.toString()])).toEqual([
      ['/first', ORIGINAL],
      ['/second', ORIGINAL],
    ]);
  });

  it('308 multipart: the file part of the second hop is the original file', async () => {
    betweenHops = swapForLink;
    const result = await send(sendSpec(`${server.url}/first?status=308`, { method: 'POST', body: multipartBody }), { spoolDir: spool });
    expect(result.status).toBe(200);
    expect(seen).toHaveLength(2);
    for (const s of seen) expect(await formFile(s)).toBe(ORIGINAL);
  });

  it('a file cut short between hops fails the send, naming the file, rather than sending other bytes', async () => {
    betweenHops = () => truncateSync(join(root, 'files', 'body.txt'), 4);
    const error = await send(sendSpec(`${server.url}/first`, { method: 'POST', body: fileBody }), { spoolDir: spool }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'body-file-changed', message: expect.stringContaining('"files/body.txt" got shorter') });
    expect(seen.map((s) => [s.path, s.body.toString()])[0]).toEqual(['/first', ORIGINAL]);
    // The second hop broke off after the file's 4 bytes (or before its headers reached the server).
    expect(['', '[aborted]']).toContain(seen.slice(1).map((s) => s.body.toString()).join());
  });
});

describe('a body file that leads out of the project when the send starts', () => {
  // The supervisor checked the path when it resolved the request; by the time the sender opens it, it is a link.
  // Each test its own path: a hop an earlier test broke off may still be reaching the server.
  const reached = (path: string) => seen.filter((s) => s.path === path);

  it('a file that became a link to a file outside is refused, and nothing is sent', async () => {
    swapForLink();
    for (const body of [fileBody, multipartBody]) {
      const error = await send(sendSpec(`${server.url}/link-out`, { method: 'POST', body }), { spoolDir: spool }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'path-escape', message: expect.stringContaining('"files/body.txt" leads out of the project folder through a symbolic link') });
    }
    expect(reached('/link-out')).toEqual([]);
  });

  it('a folder of the path that is a link out of the project is refused', async () => {
    symlinkSync(outsideDir, join(root, 'linked'));
    const error = await send(sendSpec(`${server.url}/linked-folder`, { method: 'POST', body: { type: 'file', root, path: 'linked/passwd' } }), { spoolDir: spool }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'path-escape', message: expect.stringContaining('"linked/passwd" leads out of the project folder') });
    expect(reached('/linked-folder')).toEqual([]);
  });

  it.each([
    ['an absolute path', join(outsideDir, 'passwd'), /is absolute/],
    ['a path that climbs out', '../outside/passwd', /points outside the project folder/],
  ])('%s is refused by its text', async (_name, path, message) => {
    const error = await send(sendSpec(`${server.url}/by-text`, { method: 'POST', body: { type: 'file', root, path } }), { spoolDir: spool }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'path-escape', message: expect.stringMatching(message) });
    expect(reached('/by-text')).toEqual([]);
  });

  it('a link inside the project to a file inside it is sent', async () => {
    symlinkSync('body.txt', join(root, 'files', 'alias.txt'));
    await send(sendSpec(`${server.url}/alias`, { method: 'POST', body: { type: 'file', root, path: 'files/alias.txt' } }), { spoolDir: spool });
    expect(reached('/alias').map((s) => s.body.toString())).toEqual([ORIGINAL]);
  });

  it.runIf(process.platform !== 'win32')('a FIFO is refused as not a regular file, without waiting for a writer', async () => {
    execFileSync('mkfifo', [join(root, 'files', 'pipe')]);
    const error = await send(sendSpec(`${server.url}/second`, { method: 'POST', body: { type: 'file', root, path: 'files/pipe' } }), { spoolDir: spool }).catch((e: unknown) => e);
    expect(hasCode(error, 'body-file-missing')).toBe(true);
    expect((error as Error).message).toBe('The body file "files/pipe" is not a regular file.');
  });
});
