/**
 * Issue 26: an import from a URL said what undici or Node said ("... could not be fetched: connect
 * ECONNREFUSED 127.0.0.1:9", "Headers Timeout Error"). Against real 127.0.0.1 servers, a failed
 * fetch says in the sender's words (send-errors.ts) what was wrong, naming the host.
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../sender/engine/dispatchers.js';
import { importSource } from '../test-support.js';
import { fetchDocument } from './fetch-url.js';
import { ReadBudget } from './limits.js';
import { Redactor } from './redact.js';

/** Words undici or Node put in their errors: none may reach a message. */
const LIBRARY_TEXT = /UND_ERR|ABORT_ERR|HPE_|E[A-Z]{4,}\b|Error\b|connect E|socket hang up|other side closed/;

const servers: net.Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function rawTcp(onSocket: (socket: net.Socket) => void): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

async function fetchFailure(url: string, gapMs: number): Promise<{ code: string; message: string }> {
  const dispatcher = createDispatcher({ proxy: '', caPem: '', timeoutMs: gapMs });
  try {
    await fetchDocument(new URL(url), { dispatcher, redactor: new Redactor(), budget: new ReadBudget(), gapMs, deadlines: { fetchMs: 20_000, jobMs: 20_000 } });
  } catch (err) {
    return err as { code: string; message: string };
  } finally {
    await dispatcher.destroy();
  }
  throw new Error('expected the fetch to fail');
}

describe('a failed fetch, in Parley’s words', () => {
  it('a server that never sends headers: the headers timeout, with its length', async () => {
    const port = await rawTcp((socket) => socket.resume());
    const error = await fetchFailure(`http://127.0.0.1:${port}/openapi.yaml`, 300);
    expect(error).toMatchObject({ code: 'import-fetch-failed', message: `http://127.0.0.1:${port}/openapi.yaml could not be fetched. No response headers from 127.0.0.1:${port} within 300 ms (the headers timeout).` });
    expect(error.message).not.toMatch(LIBRARY_TEXT);
  });

  it('headers over the limit', async () => {
    const port = await rawTcp((socket) => socket.once('data', () => socket.write(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(40 * 1024)}\r\n\r\n`)));
    const error = await fetchFailure(`http://127.0.0.1:${port}/openapi.yaml`, 5_000);
    expect(error.message).toBe(`http://127.0.0.1:${port}/openapi.yaml could not be fetched. The response's headers from 127.0.0.1:${port} are larger than 16 KiB, the most Parley reads; the response was not read.`);
    expect(error.message).not.toMatch(LIBRARY_TEXT);
  });

  it('a closed port, through the import itself', async () => {
    const port = await rawTcp(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const failed = await importSource({ kind: 'url', url: `http://127.0.0.1:${port}/openapi.yaml` }, {}, {}).then(
      () => undefined,
      (err: { code: string; message: string }) => err,
    );
    expect(failed).toMatchObject({ code: 'import-fetch-failed', message: `http://127.0.0.1:${port}/openapi.yaml could not be fetched. Connection refused by 127.0.0.1:${port}: nothing is listening there.` });
    expect(failed!.message).not.toMatch(LIBRARY_TEXT);
  });
});
