import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { importSource } from '../test-support.js';

describe('cancelling an import', () => {
  it('an AbortSignal stops a fetch that is waiting on the server, as code cancelled', async () => {
    const held: ServerResponse[] = [];
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = createServer((_req, res) => {
      held.push(res);
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const controller = new AbortController();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow.yaml`;
      const running = importSource({ kind: 'url', url }, {}, { signal: controller.signal });
      await requestArrived;
      controller.abort();
      await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an already aborted signal reads nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(importSource({ kind: 'file', path: 'test/fixtures/importers/openapi/learn-openapis/v3.1/tictactoe.yaml' }, {}, { offline: true, signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });
});
