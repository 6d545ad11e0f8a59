/**
 * The window between checking a body file's path and opening it, raced deterministically: `open`
 * is wrapped so a test can swap a folder of the path for a link just before it (or just after it
 * and back). And every file a send opens is closed when the send ends, however it ends.
 */
import type * as FsPromises from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { openBodyFile } from './body-file.js';
import { closeDispatchers, send } from './index.js';
import { readRequestBody, startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

const race = vi.hoisted(() => ({
  beforeOpen: undefined as (() => void) | undefined,
  afterOpen: undefined as (() => void) | undefined,
  opened: [] as FileHandle[],
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const open: typeof real.open = async (...args) => {
    race.beforeOpen?.();
    const handle = await real.open(...args);
    race.opened.push(handle);
    race.afterOpen?.();
    return handle;
  };
  return { ...real, open, default: { ...real, open } };
});

const base = tempDir();
const root = join(base.path, 'project');
const outside = join(base.path, 'outside');
const ORIGINAL = 'inside the project';

beforeAll(() => {
  mkdirSync(join(outside, 'files'), { recursive: true });
  writeFileSync(join(outside, 'files', 'body.txt'), 'root:x:0:0 outside');
});

beforeEach(() => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'files'), { recursive: true });
  writeFileSync(join(root, 'files', 'body.txt'), ORIGINAL);
  race.beforeOpen = undefined;
  race.afterOpen = undefined;
  race.opened.length = 0;
});

afterAll(() => base.remove());

/** files/ becomes a link to the outside folder, which holds a body.txt too (the real folder kept aside). */
function linkFilesOut(): void {
  renameSync(join(root, 'files'), join(root, 'files-aside'));
  symlinkSync(join(outside, 'files'), join(root, 'files'));
}

function putFilesBack(): void {
  rmSync(join(root, 'files'));
  renameSync(join(root, 'files-aside'), join(root, 'files'));
}

describe('openBodyFile, raced between its check and its open', () => {
  it('a folder of the path swapped for a link out just before the open: refused, and the file opened is closed', async () => {
    race.beforeOpen = linkFilesOut;
    const error = await openBodyFile(root, 'files/body.txt').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'path-escape', message: expect.stringContaining('"files/body.txt" changed into a symbolic link or moved while it was being opened') });
    expect(race.opened).toHaveLength(1);
    expect(race.opened[0]!.fd).toBe(-1);
  });

  it('swapped just before the open and back just after it: refused (the open file is not the one the path names)', async () => {
    race.beforeOpen = linkFilesOut;
    race.afterOpen = putFilesBack;
    const error = await openBodyFile(root, 'files/body.txt').catch((e: unknown) => e);
    expect(hasCode(error, 'path-escape')).toBe(true);
    expect(race.opened[0]!.fd).toBe(-1);
  });

  it('the last component swapped for a link just before the open: refused (O_NOFOLLOW)', async () => {
    race.beforeOpen = () => {
      symlinkSync(join(outside, 'files', 'body.txt'), join(root, 'files', 'swap'));
      renameSync(join(root, 'files', 'swap'), join(root, 'files', 'body.txt'));
    };
    const error = await openBodyFile(root, 'files/body.txt').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'path-escape', message: expect.stringContaining('changed into a symbolic link') });
  });

  it('nothing swapped: the file is open, with its size', async () => {
    const file = await openBodyFile(root, 'files/body.txt');
    expect(file.size).toBe(ORIGINAL.length);
    await file.handle.close();
  });
});

describe('a send closes the body files it opened', () => {
  let server: RunningServer;
  let hold: (() => void) | undefined;
  beforeAll(async () => {
    server = await startHttp(async (req, res) => {
      await readRequestBody(req).catch(() => null);
      if (req.url === '/hold') {
        hold?.();
        return; // never answers: the send is cancelled
      }
      res.writeHead(req.url === '/redirect' ? 307 : 200, { Location: '/done' }).end();
    });
  });
  afterAll(async () => {
    await closeDispatchers();
    await server.close();
  });

  const spec = (path: string) =>
    sendSpec(`${server.url}${path}`, {
      method: 'POST',
      body: { type: 'multipart', root, parts: [{ kind: 'file', name: 'a', path: 'files/body.txt', contentType: '' }, { kind: 'file', name: 'b', path: 'files/body.txt', contentType: '' }] },
    });

  it('after a success through a redirect', async () => {
    await send(spec('/redirect'), { spoolDir: join(base.path, 'spool') });
    expect(race.opened.map((h) => h.fd)).toEqual([-1, -1]);
  });

  it('after a failure to connect', async () => {
    const closed = await startHttp(() => {});
    await closed.close();
    const error = await send({ ...spec('/'), url: `${closed.url}/` }, { spoolDir: join(base.path, 'spool') }).catch((e: unknown) => e);
    expect(hasCode(error, 'connect-failed')).toBe(true);
    expect(race.opened.map((h) => h.fd)).toEqual([-1, -1]);
  });

  it('after a cancel', async () => {
    const controller = new AbortController();
    hold = () => controller.abort();
    const error = await send(spec('/hold'), { spoolDir: join(base.path, 'spool'), signal: controller.signal }).catch((e: unknown) => e);
    expect(hasCode(error, 'cancelled')).toBe(true);
    expect(race.opened.map((h) => h.fd)).toEqual([-1, -1]);
  });

  it('when the second file of a multipart body is refused, the first is closed too', async () => {
    symlinkSync(join(outside, 'files', 'body.txt'), join(root, 'files', 'out.txt'));
    const body = { type: 'multipart' as const, root, parts: [{ kind: 'file' as const, name: 'a', path: 'files/body.txt', contentType: '' }, { kind: 'file' as const, name: 'b', path: 'files/out.txt', contentType: '' }] };
    const error = await send(sendSpec(`${server.url}/`, { method: 'POST', body }), { spoolDir: join(base.path, 'spool') }).catch((e: unknown) => e);
    expect(hasCode(error, 'path-escape')).toBe(true);
    expect(race.opened.map((h) => h.fd)).toEqual([-1]);
  });
});
