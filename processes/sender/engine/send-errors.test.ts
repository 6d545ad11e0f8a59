import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../../protocol/errors.js';
import type { SendSpec } from '../../../protocol/model/exchange.js';
import { MAX_EVENT_CHARS } from './event-stream.js';
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
    expect(error.message).toBe(`Connection refused by 127.0.0.1:${closed.port}: nothing is listening there.`);
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

/**
 * Issue 26: undici's and Node's own words reached the user ("Headers Timeout Error",
 * "UND_ERR_HEADERS_OVERFLOW", "connect ECONNREFUSED 127.0.0.1:9", an oversized event line as
 * "ABORT_ERR"). Against real 127.0.0.1 servers, each failure has its code and a message of
 * Parley's that names the host and what was wrong, with no library text in it.
 */
describe('no library text in a send error', () => {
  /** Words undici or Node put in their errors: none may reach a message. */
  const LIBRARY_TEXT = /UND_ERR|ABORT_ERR|HPE_|E[A-Z]{4,}\b|Error\b|Timeout Error|Overflow Error|connect E|socket hang up|other side closed|The operation was aborted/;

  async function rawTcp(onSocket: (socket: net.Socket) => void): Promise<{ port: number; close: () => Promise<void> }> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      onSocket(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('a server that never sends headers: timeout, naming the host and the wait', async () => {
    const silent = await rawTcp((socket) => socket.resume());
    try {
      const error = await failure(sendSpec(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 300 }));
      expect(error.code).toBe('timeout');
      expect(error.message).toBe(`No response headers from 127.0.0.1:${silent.port} within 300 ms (the request's timeout).`);
      expect(error.message).not.toMatch(LIBRARY_TEXT);
    } finally {
      await silent.close();
    }
  });

  it('headers over the limit: headers-too-large, naming the host and the limit', async () => {
    const big = await rawTcp((socket) => socket.once('data', () => socket.write(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(40 * 1024)}\r\nContent-Length: 0\r\n\r\n`)));
    try {
      const error = await failure(sendSpec(`http://127.0.0.1:${big.port}/`));
      expect(error.code).toBe('headers-too-large');
      expect(error.message).toBe(`The response's headers from 127.0.0.1:${big.port} are larger than 16 KiB, the most Parley reads; the response was not read.`);
      expect(error.message).not.toMatch(LIBRARY_TEXT);
    } finally {
      await big.close();
    }
  });

  it('a closed port: connect-failed, saying nothing listens there', async () => {
    const closed = await rawTcp(() => undefined);
    await closed.close();
    const error = await failure(sendSpec(`http://127.0.0.1:${closed.port}/`));
    expect(error.code).toBe('connect-failed');
    expect(error.message).toBe(`Connection refused by 127.0.0.1:${closed.port}: nothing is listening there.`);
    expect(error.message).not.toMatch(LIBRARY_TEXT);
  });

  it('a response that is not HTTP: protocol-error, saying what came instead', async () => {
    const smtp = await rawTcp((socket) => socket.once('data', () => socket.end('220 mail.example ESMTP ready\r\n')));
    try {
      const error = await failure(sendSpec(`http://127.0.0.1:${smtp.port}/`));
      expect(error.code).toBe('protocol-error');
      expect(error.message).toBe(`The exchange with 127.0.0.1:${smtp.port} broke: the response is not valid HTTP: the server sent something an HTTP client cannot read (is it another protocol, or TLS, on that port?).`);
      expect(error.message).not.toMatch(LIBRARY_TEXT);
    } finally {
      await smtp.close();
    }
  });

  it('an event-stream line over the limit: the stream ends with event-too-large, not ABORT_ERR', async () => {
    const limit = MAX_EVENT_CHARS;
    const sse = await startHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': before\n\n');
      const chunk = 'a'.repeat(1024 * 1024);
      let sent = 0;
      const more = (): void => {
        // One line (no line break) past the limit, then the server waits: the reader must stop it.
        while (sent <= limit) {
          sent += chunk.length;
          if (!res.write(sent === chunk.length ? `data: ${chunk}` : chunk)) return void res.once('drain', more);
        }
      };
      more();
    });
    try {
      const result = await send(sendSpec(`${sse.url}/`), { spoolDir: spool.path, stream: { head: () => undefined } });
      expect(result.stream?.state).toBe('stopped');
      expect(result.stream?.error).toEqual({ code: 'event-too-large', message: 'An event-stream line is over 32 MiB (the most one event may hold); the stream was stopped there.' });
      expect(result.stream?.error?.message).not.toMatch(LIBRARY_TEXT);
    } finally {
      await sse.close();
    }
  });
});
