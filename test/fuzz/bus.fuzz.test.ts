/**
 * Fuzzing the bus (issue 26 item 16, RELIABILITY.md): frames of noise, msgpack of any shape, and
 * envelopes naming real and made-up methods with payloads of any shape (prototype names among the
 * keys), parts with wild counts, written straight into a Peer's pipe. The peer reports each as a
 * typed protocol error or answers it with a typed error, and a call after each case is answered.
 */
import { Duplex, PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '../../protocol/codec.js';
import { ParleyError } from '../../protocol/errors.js';
import { encodeFrame } from '../../protocol/framing.js';
import { methods } from '../../protocol/messages.js';
import { Peer } from '../../protocol/peer.js';
import { streamTransport } from '../../protocol/transport-stream.js';
import { validateCompiled } from '../../protocol/validate-node.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { PROTOTYPE_NAMES } from '../support/prototype-names.js';
import { FUZZ, expectTyped, fuzzTimeout } from './fuzz-support.js';

const MAX_FRAME = 64 * 1024;

function pair() {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const errors: unknown[] = [];
  const handlerErrors: unknown[] = [];
  const client = new Peer(streamTransport(Duplex.from({ readable: bToA, writable: aToB }), MAX_FRAME), { role: 'client', validate: validateCompiled, maxFrame: MAX_FRAME });
  const server = new Peer(streamTransport(Duplex.from({ readable: aToB, writable: bToA }), MAX_FRAME), {
    role: 'server',
    validate: validateCompiled,
    maxFrame: MAX_FRAME,
    handlers: {
      'sys.ping': ({ t }) => ({ t, pid: 1 }),
      // A real handler reached by a fuzzed call: it must only ever see a payload its schema allows.
      'importer.readCurl': (payload) => {
        if (typeof payload.command !== 'string') throw new Error('a payload the schema refuses reached the handler');
        throw new ParleyError('curl-parse', 'not parsed here');
      },
    },
    onProtocolError: (err) => errors.push(err),
    onHandlerError: (_type, err) => handlerErrors.push(err),
  });
  return { client, server, errors, handlerErrors, raw: aToB };
}

const key = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) });
const anything = fc.anything({ key, maxDepth: 4, maxKeys: 6, withMap: false, withSet: false, withBigInt: false, withNullPrototype: true, withTypedArray: true });
const methodNames = Object.keys(methods);

const envelope = fc.record(
  {
    v: fc.oneof(fc.constant(1), fc.integer(), fc.double()),
    // Never an id the real client's own calls take (1, 2, 3, ...): the server rightly answers a
    // fuzzed request by its id, and the client would take that answer for its own call of that id
    // (10,000 cases at seed 951908465 found one). The frames impersonate the client; its ids are its own.
    id: fc.oneof(fc.integer({ min: -(2 ** 31), max: 0 }), fc.integer({ min: 1_000_000 }), fc.constant(Number.MAX_SAFE_INTEGER)),
    kind: fc.constantFrom('hello', 'req', 'chunk', 'res', 'event', 'cancel', 'part', 'nonsense'),
    type: fc.oneof(fc.constantFrom(...methodNames), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 200 })),
    payload: fc.oneof(
      anything,
      fc.record({ n: fc.integer(), total: fc.integer(), ref: fc.integer(), of: fc.constantFrom('req', 'res', 'event', 'x'), bytes: fc.uint8Array({ maxLength: 256 }) }),
      fc.record({ protocol: fc.constantFrom(PROTOCOL_VERSION, 0, 99), role: fc.string({ maxLength: 8 }), pid: fc.integer() }),
    ),
    error: fc.oneof(anything, fc.record({ code: fc.string({ maxLength: 20 }), message: fc.string({ maxLength: 40 }) })),
  },
  { requiredKeys: ['kind'] },
);

const frame = fc.oneof(
  { weight: 4, arbitrary: envelope.map((e) => encodeFrame(encode(e))) },
  { weight: 1, arbitrary: anything.map((v) => encodeFrame(encode(v))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => encodeFrame(bytes)) },
);

describe('the bus under hostile frames', () => {
  it('reports or answers every frame as a typed error and goes on serving', async () => {
    const { client, errors, handlerErrors, raw } = pair();
    let t = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 5 }), async (frames) => {
        for (const f of frames) raw.write(f);
        // Answered after everything written before it: the frames were all read by then.
        await expect(client.call('sys.ping', { t: ++t })).resolves.toEqual({ t, pid: 1 });
      }),
      FUZZ,
    );
    for (const err of [...errors, ...handlerErrors]) expectTyped(err, 'the peer');
    expect(client.pending).toBe(0);
  }, fuzzTimeout(600_000));
});
