/**
 * Issue 26, item 1, through the real processes: a body file swapped for a symbolic link to a file
 * outside the project while `parley run --iterations` sends it through a 307 (the built CLI, its
 * own supervisor and sender child), and the same during a History re-send (the supervisor and its
 * sender child in-process). The server swaps the file when the first hop arrives and swaps it
 * back when the second does, so every iteration starts from a regular file and meets the link
 * on its second hop: the second hop must send the original bytes, never the outside file's.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { emptyBody, type Request } from '../../protocol/model/request.js';
import { runParley } from '../support/processes.js';
import { writeRunProject } from '../support/run-project.js';
import { handlerCaller } from '../support/ui-calls.js';

const SLOW = { timeout: 120_000 };
const ORIGINAL = 'the body file as it was checked';
const OUTSIDE = 'root:x:0:0:outside the project';

let work: string;
let project: string;
let server: Server;
let base: string;
const bodies: { path: string; body: string }[] = [];

const bodyFile = () => join(project, 'files', 'body.txt');

async function swapForLink(): Promise<void> {
  await symlink(join(work, 'passwd'), join(project, 'files', 'swap'));
  await rename(join(project, 'files', 'swap'), bodyFile());
}

async function swapBack(): Promise<void> {
  await writeFile(join(project, 'files', 'swap'), ORIGINAL);
  await rename(join(project, 'files', 'swap'), bodyFile());
}

const binaryBody = (file: string): Request['body'] => ({ ...emptyBody(), kind: 'binary', binary: { file, contentType: 'text/plain' } });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-body-swap-'));
  project = join(work, 'project');
  await writeFile(join(work, 'passwd'), OUTSIDE);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => {});
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      bodies.push({ path, body: Buffer.concat(chunks).toString() });
      if (path === '/first') void swapForLink().then(() => res.writeHead(307, { location: '/second' }).end());
      else void swapBack().then(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeRunProject(project, [
    {
      name: 'Upload',
      baseUrl: base,
      requests: [
        { name: 'swapped between hops', method: 'POST', url: '/first', edit: (r) => void (r.body = binaryBody('files/body.txt')) },
        { name: 'link out', method: 'POST', url: '/second', edit: (r) => void (r.body = binaryBody('files/out.txt')) },
        { name: 'through a linked folder', method: 'POST', url: '/second', edit: (r) => void (r.body = binaryBody('linked/passwd')) },
      ],
    },
  ]);
  await mkdir(join(project, 'files'), { recursive: true });
  await writeFile(bodyFile(), ORIGINAL);
  await symlink(join(work, 'passwd'), join(project, 'files', 'out.txt'));
  await symlink(work, join(project, 'linked'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

describe('a body file swapped for a link to a file outside the project', () => {
  it('parley run --iterations: every hop of every iteration sends the original bytes', SLOW, async () => {
    bodies.length = 0;
    const home = join(work, 'home-run');
    const run = await runParley(['run', project, '--api', 'Upload', '--request', 'swapped between hops', '--iterations', '5', '--reporter', 'json'], { home });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { outcomes: { response: { status: number } }[] };
    expect(report.outcomes.map((o) => o.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(bodies).toHaveLength(10);
    expect(bodies.filter((b) => b.body !== ORIGINAL)).toEqual([]);
  });

  it('parley run refuses a body file that is a link out, or under a linked folder, and sends nothing', SLOW, async () => {
    bodies.length = 0;
    const home = join(work, 'home-refused');
    for (const name of ['link out', 'through a linked folder']) {
      const run = await runParley(['run', project, '--api', 'Upload', '--request', name, '--reporter', 'json'], { home });
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as { outcomes: { error?: { code: string; message: string } }[] };
      expect(report.outcomes[0]!.error).toMatchObject({ code: 'path-escape', message: expect.stringContaining('through a symbolic link') });
    }
    expect(bodies).toEqual([]);
  });

  it('History re-send: the second hop sends the original bytes', SLOW, async () => {
    const home = join(work, 'home-resend');
    const sup = await Supervisor.start({ dataDir: home, log: () => {} });
    try {
      const call = handlerCaller(uiHandlers(sup));
      await sup.openProject(project);
      // writeRunProject numbers the requests in order: the first is req_1.
      const saved = await call('request.get', { project, id: 'req_1' });
      expect(saved.name).toBe('swapped between hops');
      bodies.length = 0;
      const sent = await call('request.send', { project, request: saved });
      const again = await call('history.resend', { project, id: sent.id });
      expect(again).toMatchObject({ from: 'entry', exchange: { response: { status: 200 } } });
      expect(bodies.map((b) => [b.path, b.body])).toEqual([
        ['/first', ORIGINAL],
        ['/second', ORIGINAL],
        ['/first', ORIGINAL],
        ['/second', ORIGINAL],
      ]);
      expect(await readFile(bodyFile(), 'utf8')).toBe(ORIGINAL);
    } finally {
      await sup.shutdown();
    }
  });
});
