/**
 * A gRPC call in the sender (docs/grpc.md): the method looked up in its definition (definitions.ts),
 * the request messages checked and encoded from JSON (protocol/grpc/json-mapping.ts), put on a
 * kept channel (channels.ts) with the metadata, deadline and TLS of the spec. Every status the
 * call ends with is an answer (`status` its code, `statusText` its name, `grpc` its message,
 * details and trailers), never a failure: UNAVAILABLE and DEADLINE_EXCEEDED are what the user
 * asked to see. A unary call answers with the response message as a JSON body. A streaming call
 * is a session as a WebSocket's is: its head goes at once, every message sent and received is a
 * row kept by StreamKeeper (the true count, bounded retention), a close row says the status; the
 * composer's messages come through `onSend`, half-close through `onHalfClose`, Stop cancels it.
 */
import grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { callKindOf } from '../../../../protocol/grpc/definition.js';
import { decodeToJson, encodeJson } from '../../../../protocol/grpc/json-mapping.js';
import { grpcStatusName } from '../../../../protocol/grpc/status.js';
import type { GrpcCallSpec, GrpcOutcome, Header, ResponseHead, SendResult, SendSpec, Timing } from '../../../../protocol/model/exchange.js';
import type { StreamRow, StreamState } from '../../../../protocol/model/stream.js';
import type { OutgoingSocketMessage } from '../../../../protocol/model/websocket.js';
import { RowBatcher } from '../event-stream.js';
import { StreamKeeper } from '../stream-keeper.js';
import type { SendOptions } from '../send.js';
import { clientFor } from './channels.js';
import { rootFor } from './definitions.js';
import { statusDetails } from './status-details.js';

const DETAILS_KEY = 'grpc-status-details-bin';

interface Method {
  path: string;
  input: protobuf.Type;
  output: protobuf.Type;
  requestStream: boolean;
  responseStream: boolean;
}

export async function runGrpc(spec: SendSpec, options: SendOptions): Promise<SendResult> {
  const call = spec.grpc!;
  const startedAt = performance.now();
  if (options.signal?.aborted) throw new ParleyError('cancelled', 'The call was cancelled.');
  const root = await rootFor(call.descriptor, options.grpcDescriptor);
  const method = methodOf(root, call);
  const encoded = call.messages.map((text, i) => encodeMessage(method.input, text, call.messages.length > 1 ? i : undefined));
  const client = clientFor({ address: call.address, tls: call.tls, caPem: spec.caPem, certPem: call.certPem, keyPem: call.keyPem, insecure: spec.insecure === true });
  const metadata = metadataOf(spec.headers);
  const callOptions: grpc.CallOptions = call.deadlineMs > 0 ? { deadline: Date.now() + call.deadlineMs } : {};
  const serialize = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const deserialize = (bytes: Buffer) => decodeToJson(method.output, bytes);
  const raw = { request: requestText(spec, method), response: '' };

  if (!method.requestStream && !method.responseStream) {
    return new Promise<SendResult>((resolve, reject) => {
      let headers: Header[] = [];
      let answer: unknown;
      const unary = client.makeUnaryRequest(method.path, serialize, deserialize, encoded[0] ?? method.input.encode(method.input.create()).finish(), metadata, callOptions, (_err, value) => void (answer = value));
      const onAbort = () => unary.cancel();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      unary.on('metadata', (m: grpc.Metadata) => void (headers = metadataRows(m)));
      unary.on('status', (status: grpc.StatusObject) => {
        options.signal?.removeEventListener('abort', onAbort);
        if (options.signal?.aborted) {
          reject(new ParleyError('cancelled', 'The call was cancelled.'));
          return;
        }
        const body = answer === undefined ? new Uint8Array(0) : new TextEncoder().encode(JSON.stringify(answer, null, 2));
        const outcome = outcomeOf(status, root);
        resolve({
          ...headOf(spec, raw, headers, outcome, peerOf(unary)),
          body: { bytes: body, size: body.byteLength, wireSize: body.byteLength },
          timing: timingSince(startedAt),
        });
      });
    });
  }
  return runStream(spec, call, method, encoded, { client, metadata, callOptions, serialize, deserialize, raw, startedAt, root }, options);
}

interface Wire {
  client: grpc.Client;
  metadata: grpc.Metadata;
  callOptions: grpc.CallOptions;
  serialize: (bytes: Uint8Array) => Buffer;
  deserialize: (bytes: Buffer) => unknown;
  raw: { request: string; response: string };
  startedAt: number;
  root: protobuf.Root;
}

type Duplex = grpc.ClientDuplexStream<Uint8Array, unknown>;

async function runStream(spec: SendSpec, call: GrpcCallSpec, method: Method, encoded: Uint8Array[], wire: Wire, options: SendOptions): Promise<SendResult> {
  const { client, metadata, callOptions, serialize, deserialize } = wire;
  // Every kind of stream as one duplex: a side that does not stream takes or gives one message.
  let stream: Duplex;
  if (method.requestStream && method.responseStream) stream = client.makeBidiStreamRequest(method.path, serialize, deserialize, metadata, callOptions);
  else if (method.requestStream) {
    let reply: unknown;
    const writable = client.makeClientStreamRequest(method.path, serialize, deserialize, metadata, callOptions, (_err, value) => void (reply = value));
    // The one answer of a client stream is a received row like a stream's messages.
    writable.on('status', () => void (reply !== undefined && batcher.add('received', JSON.stringify(reply))));
    stream = writable as unknown as Duplex;
  } else stream = client.makeServerStreamRequest(method.path, serialize, deserialize, encoded[0] ?? method.input.encode(method.input.create()).finish(), metadata, callOptions) as unknown as Duplex;

  const keeper = new StreamKeeper(options.stream?.batch?.bind(options.stream));
  const batcher = new RowBatcher((rows: StreamRow[]) => {
    keeper.add(rows);
    options.stream?.rows?.(rows);
  });
  let headers: Header[] = [];
  let halfClosed = !method.requestStream;
  let ended = false;
  let stoppedByUs = false;
  let bytes = 0;

  stream.on('metadata', (m: grpc.Metadata) => void (headers = metadataRows(m)));
  if (method.responseStream) {
    stream.on('data', (value: unknown) => {
      const text = JSON.stringify(value);
      bytes += text.length;
      batcher.add('received', text);
    });
  }
  // Errors come again as the status; listened to so a stream's error is not thrown.
  stream.on('error', () => undefined);
  const status = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));

  const write = (bytesOut: Uint8Array, text: string) => {
    stream.write(bytesOut);
    bytes += text.length;
    batcher.add('sent', text);
  };
  const halfClose = () => {
    if (halfClosed || ended) return;
    halfClosed = true;
    stream.end();
  };
  if (method.requestStream) {
    call.messages.forEach((text, i) => write(encoded[i]!, compact(text)));
    if (!call.open) halfClose();
  } else batcher.add('sent', compact(call.messages[0] ?? '{}'));

  const head = headOf(spec, wire.raw, [], undefined, '');
  options.stream?.head(head, timingSince(wire.startedAt), { startedAt: 0, blocked: 0, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 });
  options.stream?.onTaken?.(() => keeper.taken());
  if (method.requestStream) {
    options.stream?.onSend?.(async (message: OutgoingSocketMessage) => {
      if (ended) throw new ParleyError('socket-closed', 'The call has ended: the message was not sent.');
      if (halfClosed) throw new ParleyError('socket-closed', 'The call is half-closed: no more messages can be sent on it.');
      if (message.text === undefined) throw new ParleyError('bad-input', 'A gRPC message is JSON text.');
      write(encodeMessage(method.input, message.text), compact(message.text));
    });
    options.stream?.onHalfClose?.(halfClose);
  }
  const stop = () => {
    if (ended) return;
    stoppedByUs = true;
    stream.cancel();
  };
  const stops = [options.signal, options.stream?.stop].filter((s): s is AbortSignal => s !== undefined);
  for (const s of stops) {
    if (s.aborted) stop();
    else s.addEventListener('abort', stop, { once: true });
  }
  const ending = await status;
  ended = true;
  for (const s of stops) s.removeEventListener('abort', stop);
  // A client stream's answer is added on the same status event: let it go first.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const outcome = outcomeOf(ending, wire.root);
  batcher.add('close', outcome.message === '' ? outcome.name : `${outcome.name}: ${outcome.message}`, stoppedByUs ? 'client' : 'server');
  batcher.flush();
  const state: StreamState = stoppedByUs ? 'stopped' : 'ended';
  const kept = keeper.end(state);
  const timing = timingSince(wire.startedAt);
  return {
    ...headOf(spec, wire.raw, headers, outcome, peerOf(stream)),
    body: { bytes: new Uint8Array(0), size: bytes, wireSize: bytes },
    timing: { ...timing, download: timing.total },
    stream: kept.finished,
    streamHistory: kept.history,
  };
}

function methodOf(root: protobuf.Root, call: GrpcCallSpec): Method {
  let service: protobuf.Service;
  try {
    service = root.lookupService(`.${call.service}`);
  } catch {
    throw new ParleyError('not-found', `The gRPC definition has no service ${quote(call.service)}.`);
  }
  const method = Object.hasOwn(service.methods, call.method) ? service.methods[call.method]! : undefined;
  if (!method) throw new ParleyError('not-found', `The service ${call.service} has no method ${quote(call.method)}.`);
  method.resolve();
  return {
    path: `/${call.service}/${call.method}`,
    input: method.resolvedRequestType!,
    output: method.resolvedResponseType!,
    requestStream: method.requestStream === true,
    responseStream: method.responseStream === true,
  };
}

/** The message's bytes; a message not of its type is refused naming the field (and which message, of several). */
function encodeMessage(type: protobuf.Type, text: string, index?: number): Uint8Array {
  try {
    return encodeJson(type, text);
  } catch (err) {
    if (!(err instanceof ParleyError)) throw new ParleyError('grpc-message-invalid', `The message could not be encoded as ${type.fullName.slice(1)}: ${(err as Error).message}`);
    const which = index === undefined ? 'The message' : `Message ${index + 1}`;
    throw new ParleyError(err.code, `${which} is not a ${type.fullName.slice(1)}: ${err.message}`, err.data);
  }
}

function compact(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Metadata from the spec's headers: a `-bin` key's value is base64 (as grpcurl takes it). */
function metadataOf(headers: readonly Header[]): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    try {
      if (key.endsWith('-bin')) metadata.add(key, Buffer.from(value, 'base64'));
      else metadata.add(key, value);
    } catch (err) {
      throw new ParleyError('bad-header', `The metadata ${quote(name)} cannot be sent: ${(err as Error).message}`);
    }
  }
  return metadata;
}

function metadataRows(metadata: grpc.Metadata): Header[] {
  const rows: Header[] = [];
  for (const [key, values] of Object.entries(metadata.toJSON())) {
    if (key === DETAILS_KEY) continue;
    for (const value of values) rows.push([key, typeof value === 'string' ? value : Buffer.from(value).toString('base64')]);
  }
  return rows;
}

function outcomeOf(status: grpc.StatusObject, root: protobuf.Root): GrpcOutcome {
  const detailsBin = status.metadata?.get(DETAILS_KEY)[0];
  const details = detailsBin instanceof Buffer ? statusDetails(detailsBin, root) : undefined;
  return {
    code: status.code,
    name: grpcStatusName(status.code),
    // grpc-js gives "OK" as the message of an OK status: no message of the server's.
    message: status.code === grpc.status.OK && status.details === 'OK' ? '' : (status.details ?? ''),
    ...(details !== undefined ? { details } : {}),
    trailers: status.metadata ? metadataRows(status.metadata) : [],
  };
}

function headOf(spec: SendSpec, raw: { request: string; response: string }, headers: Header[], outcome: GrpcOutcome | undefined, remoteAddress: string): ResponseHead {
  const statusLine = outcome ? `grpc-status: ${outcome.code} ${outcome.name}${outcome.message ? `\ngrpc-message: ${outcome.message}` : ''}` : '';
  const trailers = outcome ? outcome.trailers.map(([n, v]) => `${n}: ${v}`) : [];
  return {
    status: outcome?.code ?? 0,
    statusText: outcome?.name ?? '',
    httpVersion: '2',
    headers,
    hops: [],
    raw: { request: raw.request, response: [...headers.map(([n, v]) => `${n}: ${v}`), '', statusLine, ...trailers].join('\n').trim() },
    url: spec.url,
    remoteAddress,
    ...(outcome ? { grpc: outcome } : {}),
  };
}

function requestText(spec: SendSpec, method: Method): string {
  const kind = callKindOf(method);
  return [`${method.path} (${kind}) ${spec.url.replace(/\/[^/]*\/[^/]*$/, '')}`, ...spec.headers.map(([n, v]) => `${n}: ${v}`)].join('\n');
}

function peerOf(call: { getPeer(): string }): string {
  try {
    const peer = call.getPeer();
    return peer === 'unknown' ? '' : peer;
  } catch {
    return '';
  }
}

function timingSince(startedAt: number): Timing {
  const total = performance.now() - startedAt;
  return { dns: 0, connect: 0, tls: 0, send: 0, wait: total, download: 0, total };
}
