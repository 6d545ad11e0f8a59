import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { closeDispatchers, send } from './index.js';
import { startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

let server: RunningServer;
/**
 * Long enough for the headers to arrive on a loaded machine (100 ms was not: the test failed
 * when a busy machine took longer than that to connect), short enough to wait out once.
 */
const SLOW_BODY_TIMEOUT_MS = 2_000;
const spool = tempDir();
/** Resolves with the server-side socket of the next request to arrive, once it closes. */
let onRequest: ((socket: Socket) => void) | undefined;

beforeAll(async () => {
  server = await startHttp((req, res) => {
    onRequest?.(req.socket);
    const path = req.url ?? '/';
    if (path === '/slow-headers') {
      setTimeout(() => res.writeHead(200).end('late'), 10_000).unref();
      return;
    }
    if (path === '/slow-body') {
      // Headers at once; the body ends only after the client's timeout has certainly run out
      // (its clock started before this request arrived), so a timeout that cut bodies would show.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('start,');
      setTimeout(() => res.end('end'), SLOW_BODY_TIMEOUT_MS + 300);
      return;
    }
    if (path === '/never-ending-body') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('some of it');
      return;
    }
    if (path === '/a-bit-slow') {
      setTimeout(() => res.writeHead(200).end('fine'), 150);
      return;
    }
    res.writeHead(200).end('ok');
  });
});

afterAll(async () => {
  await closeDispatchers();
  await server.close();
  spool.remove();
});

/** Resolves when the socket of the next request the server gets closes; `arrived` runs as it arrives. */
function nextServerSocketClosed(arrived?: () => void): Promise<void> {
  return new Promise((resolve) => {
    onRequest = (socket) => {
      onRequest = undefined;
      arrived?.();
      if (socket.destroyed) resolve();
      else socket.once('close', () => resolve());
    };
  });
}

describe('timeout', () => {
  it('stops waiting for headers after timeoutMs with code timeout', async () => {
    // 1 s, not 100 ms: on a loaded machine the request must reach the server before the timeout,
    // or there is no server socket whose release the test can see.
    const closed = nextServerSocketClosed();
    const error = await send(sendSpec(`${server.url}/slow-headers`, { timeoutMs: 1_000 }), { spoolDir: spool.path }).catch((e: unknown) => e);
    expect(hasCode(error, 'timeout')).toBe(true);
    expect((error as Error).message).toBe(`No response headers from 127.0.0.1:${server.port} within 1 s (the request's timeout).`);
    await closed;
  });

  it('does not cut a slow body once the headers are in', async () => {
    const started = performance.now();
    const result = await send(sendSpec(`${server.url}/slow-body`, { timeoutMs: SLOW_BODY_TIMEOUT_MS }), { spoolDir: spool.path });
    expect(performance.now() - started).toBeGreaterThan(SLOW_BODY_TIMEOUT_MS);
    expect(Buffer.from(result.body.bytes).toString()).toBe('start,end');
  });

  it('waits as long as it takes when timeoutMs is 0', async () => {
    const result = await send(sendSpec(`${server.url}/a-bit-slow`, { timeoutMs: 0 }), { spoolDir: spool.path });
    expect(Buffer.from(result.body.bytes).toString()).toBe('fine');
  });
});

describe('cancellation', () => {
  it('cancels while waiting for headers and releases the socket', async () => {
    const controller = new AbortController();
    // Cancelled once the request is at the server, waiting for headers: a timer from the send's
    // start could fire before a loaded machine even connected, and then no server socket closes.
    const closed = nextServerSocketClosed(() => setTimeout(() => controller.abort(), 50));
    const pending = send(sendSpec(`${server.url}/slow-headers`), { spoolDir: spool.path, signal: controller.signal });
    const error = await pending.catch((e: unknown) => e);
    expect(hasCode(error, 'cancelled')).toBe(true);
    await closed;
  });

  it('cancels during the body download, past the headers timeout, and releases the socket', async () => {
    const controller = new AbortController();
    const closed = new Promise<void>((resolve) => {
      onRequest = (socket) => {
        onRequest = undefined;
        socket.once('close', () => resolve());
        // Well past the headers timeout: only the cancel can stop this body.
        setTimeout(() => controller.abort(), 700);
      };
    });
    const pending = send(sendSpec(`${server.url}/never-ending-body`, { timeoutMs: 500 }), { spoolDir: spool.path, signal: controller.signal });
    const error = await pending.catch((e: unknown) => e);
    expect(hasCode(error, 'cancelled')).toBe(true);
    await closed;
  });

  it('does not send at all when the signal is already aborted', async () => {
    let arrived = false;
    onRequest = () => (arrived = true);
    const error = await send(sendSpec(`${server.url}/ok`), { spoolDir: spool.path, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(hasCode(error, 'cancelled')).toBe(true);
    expect(arrived).toBe(false);
    onRequest = undefined;
  });
});
