/**
 * WebSocket sessions through the preferences' proxy, against a real CONNECT proxy and real `ws`
 * servers on 127.0.0.1 (docs/websocket.md): ws: and wss: tunnelled, the proxy's user and password
 * from its URL sent as Proxy-Authorization, a proxy that wants them (407) and one that does not
 * answer named, the password in no error.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { SendSpec } from '../../../../protocol/model/exchange.js';
import type { StreamRow } from '../../../../protocol/model/stream.js';
import { until } from '../../../../test/support/until.js';
import { send } from '../index.js';
import { sendSpec, tempDir } from '../test-support/spec.js';
import { certificate, startForwardProxy, testCaPem, type ForwardProxy } from '../test-support/servers.js';

const spool = tempDir();
let plain: WebSocketServer;
let tls: HttpsServer;
let secureWss: WebSocketServer;
let open: ForwardProxy;
let guarded: ForwardProxy;
let wsPort: number;
let wssPort: number;
const PASSWORD = 'proxy-pass-93c1';

const echo = (server: WebSocketServer) => server.on('connection', (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));

beforeAll(async () => {
  plain = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => plain.once('listening', () => resolve()));
  wsPort = (plain.address() as AddressInfo).port;
  echo(plain);
  tls = createHttpsServer(certificate('server'));
  secureWss = new WebSocketServer({ server: tls });
  echo(secureWss);
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  wssPort = (tls.address() as AddressInfo).port;
  open = await startForwardProxy();
  guarded = await startForwardProxy({ user: 'ada', password: PASSWORD });
});
afterAll(async () => {
  for (const client of [...plain.clients, ...secureWss.clients]) client.terminate();
  await new Promise((resolve) => plain.close(resolve));
  await new Promise((resolve) => secureWss.close(resolve));
  tls.closeAllConnections();
  await new Promise((resolve) => tls.close(resolve));
  await Promise.all([open.close(), guarded.close()]);
  spool.remove();
});

/** Opens a session to `url` with `spec`, sends `text` once open, and disconnects once the echo is back. */
async function echoThrough(url: string, spec: Partial<SendSpec>, text: string) {
  const rows: StreamRow[] = [];
  const stop = new AbortController();
  let sendText: ((message: { text: string }) => Promise<void>) | undefined;
  const result = send(sendSpec(url, { socket: { protocols: [] }, ...spec }), {
    spoolDir: spool.path,
    stream: { head: () => {}, rows: (batch) => rows.push(...batch), stop: stop.signal, onSend: (fn) => void (sendText = fn) },
  });
  await until(() => sendText !== undefined);
  await sendText!({ text });
  await until(() => rows.some((r) => r.kind === 'received'));
  stop.abort();
  return { result: await result, rows };
}

describe('WebSocket through a proxy', () => {
  it('tunnels ws: through the proxy with CONNECT', async () => {
    const { result, rows } = await echoThrough(`ws://127.0.0.1:${wsPort}/echo`, { proxy: open.url }, 'via the proxy');
    expect(result.status).toBe(101);
    expect(rows.filter((r) => r.kind === 'received').map((r) => r.data)).toEqual(['via the proxy']);
    expect(open.tunnels).toContain(`127.0.0.1:${wsPort}`);
  });

  it('tunnels wss: through the proxy, TLS with the server inside the tunnel (the extra CA trusted)', async () => {
    const { result, rows } = await echoThrough(`wss://localhost:${wssPort}/secure`, { proxy: open.url, caPem: testCaPem() }, 'secure via the proxy');
    expect(result.status).toBe(101);
    expect(result.timing.tls).toBeGreaterThan(0);
    expect(rows.filter((r) => r.kind === 'received').map((r) => r.data)).toEqual(['secure via the proxy']);
    expect(open.tunnels).toContain(`localhost:${wssPort}`);
  });

  it("sends the proxy URL's user and password as Proxy-Authorization, as an HTTP send does", async () => {
    const proxy = guarded.url.replace('http://', `http://ada:${PASSWORD}@`);
    const { rows } = await echoThrough(`ws://127.0.0.1:${wsPort}/auth`, { proxy }, 'allowed');
    expect(rows.filter((r) => r.kind === 'received').map((r) => r.data)).toEqual(['allowed']);
    expect(guarded.tunnels).toContain(`127.0.0.1:${wsPort}`);
  });

  it('a proxy that wants credentials (407), or a wrong password, is named, and the password is in no message', async () => {
    for (const proxy of [guarded.url, guarded.url.replace('http://', 'http://ada:wrong-93c1@')]) {
      const failure = await send(sendSpec(`ws://127.0.0.1:${wsPort}/refused`, { socket: { protocols: [] }, proxy }), { spoolDir: spool.path }).then(
        () => null,
        (err: unknown) => err as { code: string; message: string },
      );
      expect(failure).toMatchObject({ code: 'connect-failed', message: expect.stringContaining(`The proxy 127.0.0.1:${guarded.port} refused to open a tunnel to 127.0.0.1:${wsPort}: it asks for credentials (407)`) });
      expect(failure!.message).not.toContain('wrong-93c1');
    }
  });

  it('a proxy that is not there is named as the proxy', async () => {
    const gone = await startForwardProxy();
    const url = gone.url;
    await gone.close();
    await expect(send(sendSpec(`ws://127.0.0.1:${wsPort}/gone`, { socket: { protocols: [] }, proxy: url }), { spoolDir: spool.path })).rejects.toMatchObject({
      code: 'connect-failed',
      message: expect.stringContaining(`proxy 127.0.0.1:${gone.port}`),
    });
  });
});
