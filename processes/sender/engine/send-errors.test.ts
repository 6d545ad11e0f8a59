import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../../protocol/errors.js';
import type { SendSpec } from '../../../protocol/model/exchange.js';
import { closeDispatchers, send } from './index.js';
import { startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

/** A raw TCP server that answers every connection with `reply` (then closes if asked). */
async function rawServer(reply: string, close: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => {
      socket.write(reply);
      if (close) socket.end();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const secret = 'Bearer very-secret-value';
let ok: RunningServer;
const spool = tempDir();

beforeAll(async () => {
  ok = await startHttp((_req, res) => res.writeHead(302, { Location: 'http://nonexistent.invalid/next' }).end());
});

afterAll(async () => {
  await closeDispatchers();
  await ok.close();
  spool.remove();
});

async function failure(spec: SendSpec): Promise<ParleyError> {
  const error = await send({ ...spec, headers: [['Authorization', secret], ...spec.headers] }, { spoolDir: spool.path }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParleyError);
  // No message ever carries a header value.
  expect((error as ParleyError).message).not.toContain('very-secret-value');
  return error as ParleyError;
}

describe('send errors', () => {
  it('bad-url for an unparsable URL, another scheme, or a bad proxy', async () => {
    expect((await failure(sendSpec('not a url'))).code).toBe('bad-url');
    expect((await failure(sendSpec('ftp://example.com/x'))).code).toBe('bad-url');
    expect((await failure(sendSpec('http://127.0.0.1:1/', { proxy: 'socks://nope' }))).code).toBe('bad-url');
  });

  it('dns-failed names the host that does not resolve', async () => {
    const error = await failure(sendSpec('http://nonexistent.invalid/'));
    expect(error.code).toBe('dns-failed');
    expect(error.message).toContain('nonexistent.invalid');
  });

  it('dns-failed for a redirect hop names that hop', async () => {
    const error = await failure(sendSpec(`${ok.url}/`));
    expect(error.code).toBe('dns-failed');
    expect(error.message).toContain('nonexistent.invalid');
  });

  it('connect-failed when nothing listens', async () => {
    const closed = await startHttp(() => undefined);
    await closed.close();
    const error = await failure(sendSpec(`${closed.url}/`));
    expect(error.code).toBe('connect-failed');
    expect(error.message).toBe(`Could not connect to 127.0.0.1:${closed.port}: connection refused.`);
  });

  it('protocol-error for a response that is not HTTP', async () => {
    const garbage = await rawServer('SMTP READY\r\n\r\n', true);
    try {
      const error = await failure(sendSpec(`${garbage.url}/`));
      expect(error.code).toBe('protocol-error');
      expect(error.message).toContain('127.0.0.1');
    } finally {
      await garbage.close();
    }
  });

  it('protocol-error when the connection closes in the middle of the body', async () => {
    const cut = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a part', true);
    try {
      const error = await failure(sendSpec(`${cut.url}/`));
      expect(error.code).toBe('protocol-error');
      expect(error.message).toContain('closed before the response was complete');
    } finally {
      await cut.close();
    }
  });

  it('bad-input for a method that is not an HTTP token', async () => {
    expect((await failure(sendSpec(`${ok.url}/`, { method: 'GE T' }))).code).toBe('bad-input');
  });

  it('bad-header for a header with a line break, naming the header only', async () => {
    const error = await failure(sendSpec(`${ok.url}/`, { headers: [['X-Bad', 'very-secret-value\r\nInjected: 1']] }));
    expect(error.code).toBe('bad-header');
    expect(error.message).toContain('X-Bad');
    const name = await failure(sendSpec(`${ok.url}/`, { headers: [['Bad Name', 'x']] }));
    expect(name.code).toBe('bad-header');
  });
});
