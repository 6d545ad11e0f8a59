import { PassThrough } from 'node:stream';
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Peer, type Handlers, type Transport } from './peer.js';
import { streamTransport } from './transport-stream.js';
import { validateCompiled } from './validate-node.js';
import { encodeFrame } from './framing.js';
import { encode } from './codec.js';
import { ParleyError, quote } from './errors.js';
import { PROTOCOL_VERSION } from './version.js';
import { PROTOTYPE_NAMES } from '../test/support/prototype-names.js';
import { until } from '../test/support/until.js';

/** Two Peers joined by in-memory pipes with real framing, as between two processes. */
function pair(handlers: Handlers = {}, options: { maxFrame?: number; maxMessage?: number; serverMaxMessage?: number; handlerErrors?: [string, unknown][] } = {}) {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const sideA = Duplex.from({ readable: bToA, writable: aToB });
  const sideB = Duplex.from({ readable: aToB, writable: bToA });
  const errors: ParleyError[] = [];
  const limit = options.maxFrame !== undefined ? { maxFrame: options.maxFrame } : {};
  const serverMaxMessage = options.serverMaxMessage ?? options.maxMessage;
  const client = new Peer(streamTransport(sideA, options.maxFrame), { role: 'client', validate: validateCompiled, ...limit, ...(options.maxMessage ? { maxMessage: options.maxMessage } : {}) });
  const server = new Peer(streamTransport(sideB, options.maxFrame), {
    ...limit,
    ...(serverMaxMessage ? { maxMessage: serverMaxMessage } : {}),
    role: 'server',
    validate: validateCompiled,
    handlers,
    onProtocolError: (err) => errors.push(err),
    onHandlerError: (type, err) => options.handlerErrors?.push([type, err]),
  });
  return { client, server, errors, rawToServer: aToB };
}

describe('Peer', () => {
  it('fails a call too large for the other side to read at once, and an answer too large as an error; the bus goes on', async () => {
    const { client } = pair({ 'sys.ping': ({ t }) => (t === 2 ? ({ t, pid: 1, pad: 'x'.repeat(4_000) } as never) : { t, pid: 1 }) }, { maxFrame: 1024 });
    // Before, the reader dropped the frame and the call waited for an answer that could not come.
    await expect(client.call('importer.readCurl', { command: `curl ${'x'.repeat(4_000)}`, id: 'r1' })).rejects.toMatchObject({
      code: 'frame-too-large',
      message: expect.stringMatching(/message importer\.readCurl is 4 KB, over the 1 KB/),
    });
    expect(client.pending).toBe(0);
    await expect(client.call('sys.ping', { t: 2 })).rejects.toMatchObject({ code: 'frame-too-large', message: expect.stringContaining('answer to sys.ping') });
    await expect(client.call('sys.ping', { t: 1 })).resolves.toEqual({ t: 1, pid: 1 });
  });

  it('round-trips a call with a correlation id and validates the reply', async () => {
    const { client } = pair({ 'sys.ping': ({ t }) => ({ t, pid: 42 }) });
    await expect(client.call('sys.ping', { t: 7 })).resolves.toEqual({ t: 7, pid: 42 });
    const many = await Promise.all(Array.from({ length: 200 }, (_, i) => client.call('sys.ping', { t: i })));
    expect(many.map((r) => r.t)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('refuses a payload that does not match the catalog, naming the field', async () => {
    const { client } = pair({ 'sys.ping': ({ t }) => ({ t, pid: 1 }) });
    await expect(client.call('sys.ping', { t: 'soon' } as never)).rejects.toMatchObject({ code: 'invalid-payload', message: expect.stringContaining('/t') });
  });

  it('answers unknown-method for a method the other side does not serve', async () => {
    const { client } = pair({});
    await expect(client.call('sys.ping', { t: 1 })).rejects.toMatchObject({ code: 'unknown-method' });
  });

  it('carries handler errors as typed values', async () => {
    const { client } = pair({
      'sys.ping': () => {
        throw Object.assign(new Error('boom'), {});
      },
    });
    await expect(client.call('sys.ping', { t: 1 })).rejects.toMatchObject({ code: 'internal', message: 'boom' });
  });

  it('streams chunks before the final reply', async () => {
    const transportCatalog = await import('./messages.js');
    // Streaming is exercised through a method whose spec has a chunk schema; add one for the test.
    const spec = transportCatalog.methods as Record<string, { req: unknown; res: unknown; chunk?: unknown }>;
    const { Type } = await import('@sinclair/typebox');
    spec['test.count'] = { req: Type.Object({ n: Type.Integer() }), res: Type.Object({ total: Type.Integer() }), chunk: Type.Object({ i: Type.Integer() }) };
    try {
      const { client } = pair({
        ['test.count' as 'sys.ping']: (async ({ n }: { n: number }, ctx: { chunk(c: unknown): void }) => {
          for (let i = 0; i < n; i++) ctx.chunk({ i });
          return { total: n };
        }) as never,
      });
      const seen: number[] = [];
      const result = await client.call('test.count' as 'sys.ping', { n: 5 } as never, { onChunk: ((c: { i: number }) => seen.push(c.i)) as never });
      expect(seen).toEqual([0, 1, 2, 3, 4]);
      expect(result).toEqual({ total: 5 });
    } finally {
      delete spec['test.count'];
    }
  });

  it('cancels: the caller rejects at once and the handler sees its signal abort', async () => {
    let sawAbort!: () => void;
    const aborted = new Promise<void>((resolve) => (sawAbort = resolve));
    const { client } = pair({
      'sys.ping': (_p, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort();
            reject(new Error('stopped'));
          });
        }),
    });
    const controller = new AbortController();
    const pending = client.call('sys.ping', { t: 1 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    await aborted;
    expect(client.pending).toBe(0);
  });

  it('survives malformed and oversized frames and keeps serving', async () => {
    const { client, errors, rawToServer } = pair({ 'sys.ping': ({ t }) => ({ t, pid: 1 }) }, { maxFrame: 1024 });
    await client.call('sys.ping', { t: 1 });
    rawToServer.write(encodeFrame(new Uint8Array([0xc1, 0xc1, 0xc1]))); // 0xc1 is never valid msgpack
    rawToServer.write(encodeFrame(encode({ v: 1, kind: 'nonsense', id: 5, type: 'x' })));
    rawToServer.write(encodeFrame(new Uint8Array(4096)));
    await expect(client.call('sys.ping', { t: 2 })).resolves.toEqual({ t: 2, pid: 1 });
    expect(errors.map((e) => e.code)).toEqual(['bad-frame', 'bad-message', 'frame-too-large']);
  });

  it('refuses a peer that speaks another protocol version', async () => {
    const aToB = new PassThrough();
    const bToA = new PassThrough();
    const errors: ParleyError[] = [];
    const server = new Peer(streamTransport(Duplex.from({ readable: aToB, writable: bToA })), {
      role: 'server',
      validate: validateCompiled,
      onProtocolError: (err) => errors.push(err),
    });
    aToB.write(encodeFrame(encode({ v: 99, id: 0, kind: 'hello', type: 'hello', payload: { protocol: 99, role: 'future', pid: 1 } })));
    await expect(server.ready).rejects.toMatchObject({ code: 'version-mismatch' });
    expect(errors[0]?.message).toContain('protocol 99');
  });

  it('fails every pending call when the other side goes away', async () => {
    const { client, server } = pair({ 'sys.ping': () => new Promise(() => {}) });
    const pending = client.call('sys.ping', { t: 1 });
    await new Promise((r) => setTimeout(r, 10));
    server.close();
    await expect(pending).rejects.toMatchObject({ code: 'peer-closed' });
  });

  it('delivers events to listeners, validated', async () => {
    const { client, server } = pair();
    await client.ready;
    const got = new Promise((resolve) => server.on('notice', resolve));
    client.emit('notice', { level: 'info', message: 'hello' });
    await expect(got).resolves.toEqual({ level: 'info', message: 'hello' });
  });

  it('finds no method or event by an Object.prototype name, and keeps serving', async () => {
    const handlerErrors: [string, unknown][] = [];
    const { client, errors } = pair({ 'sys.ping': ({ t }) => ({ t, pid: 1 }) }, { handlerErrors });
    await client.ready;
    for (const name of PROTOTYPE_NAMES) {
      await expect(client.call(name as 'sys.ping', { t: 1 }), name).rejects.toMatchObject({ code: 'unknown-method', message: `The server does not answer ${name}.` });
      client.emit(name as 'notice', { level: 'info', message: 'x' });
    }
    await expect(client.call('sys.ping', { t: 2 })).resolves.toEqual({ t: 2, pid: 1 });
    expect(errors.map((e) => e.message)).toEqual(PROTOTYPE_NAMES.map((name) => `Unknown event ${name}.`));
    expect(handlerErrors).toEqual([]);
  });

  it('answers a handler bug with an internal error, reports it with the message type, and goes on', async () => {
    const handlerErrors: [string, unknown][] = [];
    const { client, server } = pair(
      {
        'sys.ping': ({ t }) => {
          if (t === 1) throw new TypeError('a bug');
          return { t, pid: 1 };
        },
      },
      { handlerErrors },
    );
    await expect(client.call('sys.ping', { t: 1 })).rejects.toMatchObject({ code: 'internal', message: 'a bug' });
    expect(handlerErrors).toEqual([['sys.ping', expect.objectContaining({ message: 'a bug' })]]);

    // A listener that throws neither stops the next one nor the peer.
    const got: string[] = [];
    server.on('notice', () => {
      throw new Error('listener bug');
    });
    const delivered = new Promise((resolve) => server.on('notice', (n) => resolve(got.push(n.message))));
    client.emit('notice', { level: 'info', message: 'still heard' });
    await delivered;
    expect(got).toEqual(['still heard']);
    expect(handlerErrors.at(-1)).toEqual(['notice', expect.objectContaining({ message: 'listener bug' })]);
    await expect(client.call('sys.ping', { t: 3 })).resolves.toEqual({ t: 3, pid: 1 });
  });

  it('never carries a whole value from outside in an error: messages are cut short', async () => {
    const huge = 'x'.repeat(1_000_000);
    const { client } = pair({
      'sys.ping': () => {
        throw new ParleyError('not-found', `Nothing is called ${huge}.`);
      },
    });
    const error = (await client.call('sys.ping', { t: 1 }).catch((e: unknown) => e)) as ParleyError;
    expect(error.code).toBe('not-found');
    expect(error.message.length).toBe(2_000);
    expect(error.message.endsWith('x…')).toBe(true);
    expect(quote(huge)).toBe(`"${'x'.repeat(79)}…" (1,000,000 characters)`);
  });
});

/** A method for these tests: echoes `text`, first as a chunk when `chunk` is set. */
async function withEcho(run: () => Promise<void>): Promise<void> {
  const catalog = (await import('./messages.js')).methods as Record<string, { req: unknown; res: unknown; chunk?: unknown }>;
  const { Type } = await import('@sinclair/typebox');
  catalog['test.echo'] = { req: Type.Object({ text: Type.String(), chunk: Type.Optional(Type.Boolean()) }), res: Type.Object({ text: Type.String() }), chunk: Type.Object({ text: Type.String() }) };
  try {
    await run();
  } finally {
    delete catalog['test.echo'];
  }
}

const echo = {
  'test.echo': (async ({ text, chunk }: { text: string; chunk?: boolean }, ctx: { chunk(c: unknown): void }) => {
    if (!chunk) return { text };
    ctx.chunk({ text });
    return { text: 'done' };
  }) as never,
  'sys.ping': ({ t }: { t: number }) => ({ t, pid: 1 }),
} as Handlers;
const callEcho = (peer: Peer, text: string, options: { chunk?: boolean; onChunk?: (c: { text: string }) => void } = {}) =>
  peer.call('test.echo' as 'sys.ping', { text, ...(options.chunk ? { chunk: true } : {}) } as never, options.onChunk ? { onChunk: options.onChunk as never } : {}) as unknown as Promise<{ text: string }>;

describe('Peer: messages larger than a frame', () => {
  const FRAME = 4096;

  it('carries one in parts, both ways, whole, while small messages pass between its parts', () =>
    withEcho(async () => {
      const { client, server, errors } = pair(echo, { maxFrame: FRAME, maxMessage: 1024 * 1024 });
      await client.ready;
      const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n'); // about 200 KB: 50-odd parts each way
      const order: string[] = [];
      const echoed = callEcho(client, big).then((r) => {
        order.push('echo');
        return r;
      });
      const pings = Array.from({ length: 5 }, (_, t) => client.call('sys.ping', { t }).then(() => order.push(`ping ${t}`)));
      const [answer] = await Promise.all([echoed, ...pings]);
      expect(answer.text).toBe(big);
      // Every ping was sent after the big call, and answered before it: nothing waited behind its parts.
      expect(order).toEqual(['ping 0', 'ping 1', 'ping 2', 'ping 3', 'ping 4', 'echo']);
      // A big chunk and the small answer after it stay in order.
      const chunks: string[] = [];
      await expect(callEcho(client, big, { chunk: true, onChunk: (c) => chunks.push(c.text) })).resolves.toEqual({ text: 'done' });
      expect(chunks).toEqual([big]);
      // A big event, then a small one: in order too.
      const notices: string[] = [];
      const both = new Promise<void>((resolve) => server.on('notice', (n) => notices.push(n.message) === 2 && resolve()));
      client.emit('notice', { level: 'info', message: big });
      client.emit('notice', { level: 'info', message: 'after' });
      await both;
      expect(notices).toEqual([big, 'after']);
      expect(server.arriving).toBe(0);
      expect(errors).toEqual([]);
    }));

  it('refuses one over the link\'s limit, at the sender and at a receiver with a lower limit, and the link goes on', () =>
    withEcho(async () => {
      const { client, server, errors } = pair(echo, { maxFrame: FRAME, maxMessage: 4 * 1024 * 1024, serverMaxMessage: 256 * 1024 });
      const big = 'x'.repeat(5 * 1024 * 1024);
      await expect(callEcho(client, big)).rejects.toMatchObject({ code: 'message-too-large', message: expect.stringMatching(/message test\.echo is 5\.0 MB, over the 4\.0 MB/) });
      // Within the sender's limit, over the receiver's: refused on its first part, the rest dropped unread.
      await expect(callEcho(client, 'y'.repeat(1024 * 1024))).rejects.toMatchObject({ code: 'message-too-large', message: expect.stringMatching(/message test\.echo is 1\.0 MB, over the 256 KB/) });
      expect(errors.map((e) => e.code)).toEqual(['message-too-large']);
      expect(server.arriving).toBe(0);
      await expect(client.call('sys.ping', { t: 1 })).resolves.toEqual({ t: 1, pid: 1 });
      const fits = 'z'.repeat(100_000);
      await expect(callEcho(client, fits)).resolves.toEqual({ text: fits });
    }));

  it('on a link that did not opt in, refuses one over a frame as before, and takes no parts', () =>
    withEcho(async () => {
      const { client, errors, rawToServer } = pair(echo, { maxFrame: FRAME });
      await expect(callEcho(client, 'x'.repeat(10_000))).rejects.toMatchObject({ code: 'frame-too-large', message: expect.stringMatching(/over the 4 KB/) });
      await client.ready;
      const part = (n: number, bytes: Uint8Array) => encodeFrame(encode({ v: PROTOCOL_VERSION, id: 1, kind: 'part', type: 'test.echo', payload: { n, total: 10_000, of: 'event', ref: 0, bytes } }));
      rawToServer.write(part(0, new Uint8Array(3000)));
      rawToServer.write(part(1, new Uint8Array(3000)));
      await expect(client.call('sys.ping', { t: 1 })).resolves.toEqual({ t: 1, pid: 1 });
      expect(errors.map((e) => e.code)).toEqual(['message-too-large']);
    }));

  it('releases the parts of a message whose sender went away', () =>
    withEcho(async () => {
      const { client, server, rawToServer } = pair(echo, { maxFrame: FRAME, maxMessage: 1024 * 1024 });
      await client.ready;
      await server.ready;
      rawToServer.write(encodeFrame(encode({ v: PROTOCOL_VERSION, id: 7, kind: 'part', type: 'test.echo', payload: { n: 0, total: 500_000, of: 'req', ref: 99, bytes: new Uint8Array(3000) } })));
      await until(() => server.arriving === 500_000);
      client.close();
      await until(() => server.isClosed);
      expect(server.arriving).toBe(0);
    }));
});

export type { Transport };

