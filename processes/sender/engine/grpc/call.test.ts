/**
 * gRPC calls through the sender engine against a real @grpc/grpc-js server on 127.0.0.1
 * (test/support/grpc-server.ts): the four call kinds, metadata both ways, a deadline exceeded,
 * an error status with details, TLS with a custom CA, a client certificate and `insecure`,
 * cancel, a message not of its type, the definition asked for once per hash, and a stream of
 * 100,000 messages counted exactly with memory bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrpcCallSpec, ResponseHead, SendSpec } from '../../../../protocol/model/exchange.js';
import type { StreamRow } from '../../../../protocol/model/stream.js';
import type { OutgoingSocketMessage } from '../../../../protocol/model/websocket.js';
import { greeterDescriptor, startGrpcServer, tlsFile, type GrpcTestServer } from '../../../../test/support/grpc-server.js';
import { until } from '../../../../test/support/until.js';
import { send } from '../index.js';
import { sendSpec, tempDir } from '../test-support/spec.js';
import { descriptorHash } from './definitions.js';

const spool = tempDir();
const descriptor = greeterDescriptor();
const hash = descriptorHash(descriptor);
let asked = 0;
const grpcDescriptor = async (h: string) => {
  asked++;
  if (h !== hash) throw new Error('unknown hash');
  return descriptor;
};
let plain: GrpcTestServer;

beforeAll(async () => {
  plain = await startGrpcServer();
});
afterAll(async () => {
  await plain.close();
  spool.remove();
});

function grpcSpec(server: GrpcTestServer, method: string, messages: string[], call: Partial<GrpcCallSpec> = {}, spec: Partial<SendSpec> = {}): SendSpec {
  return sendSpec(`${server.baseUrl}/parley.test.Greeter/${method}`, {
    method: 'POST',
    ...spec,
    grpc: { address: server.address, tls: server.baseUrl.startsWith('grpcs'), service: 'parley.test.Greeter', method, descriptor: hash, messages, open: false, deadlineMs: 0, certPem: '', keyPem: '', ...call },
  });
}

const bodyJson = (r: { body: { bytes: Uint8Array } }) => JSON.parse(new TextDecoder().decode(r.body.bytes)) as Record<string, unknown>;

describe('unary', () => {
  it('calls with metadata and reads the reply, its headers and trailers, the well-known types as JSON', async () => {
    const message = JSON.stringify({ name: 'Ada', times: '9007199254740993', mood: 'HAPPY', at: '2024-01-31T12:00:00.5Z', tags: ['a'], counts: { x: 1 } });
    const r = await send(grpcSpec(plain, 'SayHello', [message], {}, { headers: [['x-echo', 'ping'], ['x-token', 'abc']] }), { spoolDir: spool.path, grpcDescriptor });
    expect(r.status).toBe(0);
    expect(r.statusText).toBe('OK');
    expect(bodyJson(r)).toEqual({ message: 'Hello Ada', times: '9007199254740993', mood: 'HAPPY', at: '2024-01-31T12:00:00.500Z'.replace('.500Z', '.5Z'), metadata: expect.arrayContaining(['x-echo', 'x-token']) });
    expect(r.headers).toContainEqual(['x-echo', 'ping']);
    expect(r.grpc?.trailers).toContainEqual(['x-echo-trailer', 'ping']);
    expect(plain.lastMetadata()['x-token']).toBe('abc');
  });

  it('an error status is an answer with its name, message and decoded details', async () => {
    const r = await send(grpcSpec(plain, 'Fail', ['{}']), { spoolDir: spool.path, grpcDescriptor });
    expect(r.status).toBe(3);
    expect(r.statusText).toBe('INVALID_ARGUMENT');
    expect(r.grpc?.message).toBe('name must not be empty');
    expect(JSON.parse(r.grpc!.details!)).toEqual({
      code: 3,
      message: 'name must not be empty',
      details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', field_violations: [{ field: 'name', description: 'must not be empty', reason: '' }] }],
    });
    expect(r.body.size).toBe(0);
  });

  it('a deadline ends the call as DEADLINE_EXCEEDED', async () => {
    const r = await send(grpcSpec(plain, 'Slow', ['{"times":"20000"}'], { deadlineMs: 100 }), { spoolDir: spool.path, grpcDescriptor });
    expect(r.statusText).toBe('DEADLINE_EXCEEDED');
  });

  it('cancel ends the call at once and the server sees it cancelled', async () => {
    const before = plain.cancelled();
    const abort = new AbortController();
    const call = send(grpcSpec(plain, 'Slow', ['{"times":"20000"}']), { spoolDir: spool.path, grpcDescriptor, signal: abort.signal });
    await until(() => plain.lastMetadata() !== undefined);
    setTimeout(() => abort.abort(), 50);
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    await until(() => plain.cancelled() > before);
  });

  it('a message not of its type is refused naming the field, before anything is sent', async () => {
    await expect(send(grpcSpec(plain, 'SayHello', ['{"name": "x", "mood": "SLEEPY"}']), { spoolDir: spool.path, grpcDescriptor })).rejects.toMatchObject({
      code: 'grpc-message-invalid',
      message: expect.stringContaining('$.mood: "SLEEPY" is not a value of the enum parley.test.Mood'),
    });
    await expect(send(grpcSpec(plain, 'SayHello', ['{"nmae": "x"}']), { spoolDir: spool.path, grpcDescriptor })).rejects.toMatchObject({ message: expect.stringContaining('$.nmae: parley.test.HelloRequest has no field "nmae"') });
    await expect(send(grpcSpec(plain, 'SayHello', ['{"word": "x", "number": 2}']), { spoolDir: spool.path, grpcDescriptor })).rejects.toMatchObject({ message: expect.stringContaining('oneof "pick"') });
    await expect(send(grpcSpec(plain, 'SayHello', ['{"inner": {"next": {"note": 5}}}']), { spoolDir: spool.path, grpcDescriptor })).rejects.toMatchObject({ message: expect.stringContaining('$.inner.next.note: string: expected a string, found 5') });
  });

  it('an unreachable server is UNAVAILABLE, not a hang', async () => {
    const r = await send(grpcSpec({ ...plain, address: '127.0.0.1:1', baseUrl: 'grpc://127.0.0.1:1' }, 'SayHello', ['{}']), { spoolDir: spool.path, grpcDescriptor });
    expect(r.statusText).toBe('UNAVAILABLE');
  });

  it('parses a definition once: the text is asked for once per hash', async () => {
    const before = asked;
    for (let i = 0; i < 5; i++) await send(grpcSpec(plain, 'SayHello', ['{"name":"again"}']), { spoolDir: spool.path, grpcDescriptor });
    expect(asked).toBe(before);
  });
});

describe('TLS', () => {
  it('a server certificate signed by a custom CA, and a server requiring a client certificate', async () => {
    const server = await startGrpcServer('server');
    const mutual = await startGrpcServer('mutual');
    try {
      const ca = tlsFile('ca.pem').toString();
      const r = await send(grpcSpec(server, 'SayHello', ['{"name":"tls"}'], {}, { caPem: ca }), { spoolDir: spool.path, grpcDescriptor });
      expect(bodyJson(r).message).toBe('Hello tls');
      // Without the CA the certificate does not verify.
      const unverified = await send(grpcSpec(server, 'SayHello', ['{}']), { spoolDir: spool.path, grpcDescriptor });
      expect(unverified.statusText).toBe('UNAVAILABLE');

      const withoutCert = await send(grpcSpec(mutual, 'SayHello', ['{}'], {}, { caPem: ca }), { spoolDir: spool.path, grpcDescriptor });
      expect(withoutCert.statusText).toBe('UNAVAILABLE');
      const withCert = await send(grpcSpec(mutual, 'SayHello', ['{"name":"mtls"}'], { certPem: tlsFile('client.pem').toString(), keyPem: tlsFile('client.key').toString() }, { caPem: ca }), { spoolDir: spool.path, grpcDescriptor });
      expect(bodyJson(withCert).message).toBe('Hello mtls');
    } finally {
      await server.close();
      await mutual.close();
    }
  });

  it('insecure accepts a self-signed certificate', async () => {
    const server = await startGrpcServer('self-signed');
    try {
      const refused = await send(grpcSpec(server, 'SayHello', ['{}']), { spoolDir: spool.path, grpcDescriptor });
      expect(refused.statusText).toBe('UNAVAILABLE');
      const r = await send(grpcSpec(server, 'SayHello', ['{"name":"anyway"}'], {}, { insecure: true }), { spoolDir: spool.path, grpcDescriptor });
      expect(bodyJson(r).message).toBe('Hello anyway');
    } finally {
      await server.close();
    }
  });
});

/** A streaming call: its head, rows, the composer's send and half-close, and Stop. */
function openStream(spec: SendSpec) {
  const heads: ResponseHead[] = [];
  const rows: StreamRow[] = [];
  const stop = new AbortController();
  let sender: ((message: OutgoingSocketMessage) => Promise<void>) | undefined;
  let halfClose: (() => void) | undefined;
  const result = send(spec, {
    spoolDir: spool.path,
    grpcDescriptor,
    stream: { head: (head) => heads.push(head), rows: (batch) => rows.push(...batch), stop: stop.signal, onSend: (fn) => void (sender = fn), onHalfClose: (fn) => void (halfClose = fn) },
  });
  return { heads, rows, result, stop: () => stop.abort(), send: (text: string) => sender!({ text }), halfClose: () => halfClose!(), ready: () => heads.length > 0 };
}

describe('streams', () => {
  it('a server stream: each message a received row, the status a close row', async () => {
    const s = openStream(grpcSpec(plain, 'Count', ['{"count": 5}']));
    const r = await s.result;
    expect(s.heads).toHaveLength(1);
    expect(r.statusText).toBe('OK');
    expect(r.stream?.state).toBe('ended');
    expect(r.stream?.rows.map((row) => [row.kind, row.data])).toEqual([['sent', '{"count":5}'], ...[1, 2, 3, 4, 5].map((n) => ['received', JSON.stringify({ n, pad: '' })]), ['close', 'OK']]);
  });

  it('a client stream: the saved messages, then the composer, then half-close gives the answer', async () => {
    const s = openStream(grpcSpec(plain, 'Add', ['{"value": 1}', '{"value": 2}'], { open: true }));
    await until(s.ready);
    await s.send('{"value": 39}');
    await expect(s.send('{"value": "x"}')).rejects.toMatchObject({ code: 'grpc-message-invalid' });
    s.halfClose();
    const r = await s.result;
    expect(r.statusText).toBe('OK');
    expect(r.stream?.rows.map((row) => row.kind)).toEqual(['sent', 'sent', 'sent', 'received', 'close']);
    expect(JSON.parse(r.stream!.rows[3]!.data)).toEqual({ total: 42, count: 3 });
  });

  it('a bidirectional stream answers each message; half-close ends it', async () => {
    const s = openStream(grpcSpec(plain, 'Chat', ['{"name": "one"}'], { open: true }));
    await until(() => s.rows.some((row) => row.kind === 'received'));
    await s.send('{"name": "two"}');
    await until(() => s.rows.filter((row) => row.kind === 'received').length === 2);
    s.halfClose();
    const r = await s.result;
    expect(r.stream?.rows.filter((row) => row.kind === 'received').map((row) => (JSON.parse(row.data) as { message: string }).message)).toEqual(['Hello one', 'Hello two']);
    await expect(s.send('{"name":"late"}')).rejects.toMatchObject({ code: 'socket-closed' });
  });

  it('Stop cancels an endless server stream: it ends as stopped with CANCELLED', async () => {
    const s = openStream(grpcSpec(plain, 'Count', ['{"count": 0, "every_ms": 5}']));
    await until(() => s.rows.filter((row) => row.kind === 'received').length >= 3);
    s.stop();
    const r = await s.result;
    expect(r.stream?.state).toBe('stopped');
    expect(r.stream?.rows.at(-1)).toMatchObject({ kind: 'close', name: 'client', data: expect.stringContaining('CANCELLED') });
  });

  it('100,000 messages are counted exactly, the newest kept, with memory bounded', async () => {
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
    const r = await send(grpcSpec(plain, 'Count', ['{"count": 100000, "bytes": 2000}']), { spoolDir: spool.path, grpcDescriptor, stream: { head: () => {}, batch: () => {} } });
    clearInterval(watch);
    expect(r.stream?.total).toBe(100_002);
    expect(r.stream?.events).toBe(100_001);
    expect(r.stream?.rows.at(-2)?.data).toContain('"n":100000');
    expect(r.stream!.rows.length).toBeLessThanOrEqual(5_000);
    // 100,000 rows of ~2 KB held would be over 200 MB: the retention keeps 5,000 of them (~10 MB).
    // The peak counts garbage not yet collected and the server's side, in this process too.
    expect(peak - before).toBeLessThan(180 * 1024 * 1024);
  }, 120_000);
});
