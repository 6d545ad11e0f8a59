/**
 * A typed RPC endpoint over any message transport: request/reply with correlation ids,
 * streamed replies, cancellation, one-way events and a version handshake. Both ends of every
 * process boundary (pipe or WebSocket) are a Peer; what arrives is validated against the
 * catalog before a handler or caller sees it.
 */
import type { TSchema } from '@sinclair/typebox';
import { decode, encode } from './codec.js';
import { type Envelope, type Hello, type PartPayload, hello, readEnvelope } from './envelope.js';
import { ParleyError, type WireError, boundText, isWireError, toWireError } from './errors.js';
import {
  type ChunkOf,
  type EventName,
  type EventOf,
  type MethodName,
  type MethodSpec,
  type ReqOf,
  type ResOf,
  events as eventCatalog,
  methods as methodCatalog,
} from './messages.js';
import { PROTOCOL_VERSION } from './version.js';
import { DEFAULT_MAX_FRAME } from './framing.js';

export interface Transport {
  send(bytes: Uint8Array): void;
  close(): void;
  onMessage: ((bytes: Uint8Array) => void) | null;
  /** A frame that could not be read (too large, cut short); the transport goes on. */
  onFrameError: ((err: ParleyError) => void) | null;
  onClose: ((reason: string) => void) | null;
  /** Bytes given to `send` and not yet written out (a slow reader makes them pile up), when the transport knows. */
  backlog?(): number;
}

/** Returns null when `value` fits `schema`, else a short description of the first mismatch. */
export type Validator = (schema: TSchema, value: unknown) => string | null;

export interface CallContext<M extends MethodName> {
  signal: AbortSignal;
  /** Sends one item of a streamed reply. */
  chunk(item: ChunkOf<M>): void;
  /** Bytes waiting to reach the caller (0 when the transport cannot tell): a producer may hold items while they pile up. */
  backlog?(): number;
}

export type Handler<M extends MethodName> = (payload: ReqOf<M>, ctx: CallContext<M>) => Promise<ResOf<M>> | ResOf<M>;
export type Handlers = { [M in MethodName]?: Handler<M> };

export interface CallOptions<M extends MethodName> {
  signal?: AbortSignal;
  onChunk?: (item: ChunkOf<M>) => void;
}

export interface PeerOptions {
  role: string;
  validate: Validator;
  handlers?: Handlers;
  /** Bus problems that have no caller to reject (bad frames, unknown events). For logs. */
  onProtocolError?: (err: ParleyError) => void;
  /**
   * A handler or listener failed in a way no caller was meant to see (a programming error, not a
   * ParleyError): the caller gets an `internal` error, the process goes on, and this logs it with
   * the message type. Default: the console.
   */
  onHandlerError?: (type: string, err: unknown) => void;
  /**
   * Runs the handling of one arriving message (its handler or listeners). Node processes pass
   * `messageScope` (processes/runtime/crash-policy.ts) so that a failure left behind by it, even
   * in a timer, is known to come from that message.
   */
  scope?: <T>(type: string, work: () => T) => T;
  pid?: number;
  /** The largest frame the other side reads (its FrameDecoder's limit); default DEFAULT_MAX_FRAME. */
  maxFrame?: number;
  /**
   * The largest message this link carries whole, each way; default maxFrame (one frame, as on the
   * UI's WebSocket). A message whose encoding is over maxFrame goes as `part` frames of at most
   * MAX_PART_BYTES and is put back together by the other side, which refuses one announced or
   * grown past this before buffering it. Both ends of a link set the same value: the links that
   * carry definitions and mocks opt in with LARGE_MESSAGE_LIMIT (protocol/framing.ts).
   */
  maxMessage?: number;
}

/**
 * A part's bytes: small enough that a heartbeat's answer written meanwhile waits behind one part,
 * not the whole message (4 MiB is a few ms on a pipe), large enough that a 100 MB message is 25 frames.
 */
export const MAX_PART_BYTES = 4 * 1024 * 1024;
/** Room in a part's frame for its envelope around the bytes (a type name is at most 128 characters). */
const PART_OVERHEAD = 512;
/** While this many bytes wait to be written, the next part waits too (polled on this period). */
const PART_WAIT_MS = 2;

/** A message on its way out after a multi-part one of its lane (same call, or an event): sent in order. */
interface Outgoing {
  lane: string;
  type: string;
  bytes: Uint8Array;
  /** Set for a multi-part message: its part id, kind, id, and how far it has been sent. */
  parts?: { id: number; of: PartPayload['of']; ref: number; n: number; offset: number };
}

/** A multi-part message being received. */
interface Assembly {
  type: string;
  of: PartPayload['of'];
  ref: number;
  total: number;
  received: number;
  next: number;
  /** The message's bytes, filled part by part (one copy: no list of parts joined at the end). */
  whole: Uint8Array;
}

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

/**
 * The catalog's entry for a name from outside, or undefined: own properties only, so
 * `constructor`, `__proto__` or `toString` name nothing rather than Object.prototype's members.
 */
function catalogEntry<T>(catalog: object, name: string): T | undefined {
  return Object.hasOwn(catalog, name) ? ((catalog as Record<string, T>)[name] as T) : undefined;
}

const defaultHandlerError = (type: string, err: unknown) => console.error(`bus: ${type} failed:`, err);
const unscoped = <T>(_type: string, work: () => T): T => work();

interface Pending {
  type: MethodName;
  resolve(value: unknown): void;
  reject(err: ParleyError): void;
  onChunk?: (item: never) => void;
  cleanup(): void;
}

export class Peer {
  readonly role: string;
  readonly ready: Promise<Hello>;
  private readonly transport: Transport;
  private readonly validate: Validator;
  /** Handlers by method name: a Map, so a name from outside can only find what was served. */
  private readonly handlers = new Map<string, Handler<MethodName>>();
  private readonly onProtocolError: (err: ParleyError) => void;
  private readonly onHandlerError: (type: string, err: unknown) => void;
  private readonly scope: <T>(type: string, work: () => T) => T;
  private readonly pendingCalls = new Map<number, Pending>();
  private readonly running = new Map<number, AbortController>();
  private readonly listeners = new Map<string, Set<(payload: never) => void>>();
  private readonly closeListeners = new Set<(err: ParleyError) => void>();
  private nextId = 1;
  private readonly pid: number;
  private readonly maxFrame: number;
  private readonly maxMessage: number;
  private readonly partBytes: number;
  /** Messages waiting behind a multi-part one (the first is being sent), and how many per lane. */
  private outgoing: Outgoing[] = [];
  private readonly lanes = new Map<string, number>();
  private pumpTimer: ReturnType<typeof setTimeout> | null = null;
  private nextPartId = 1;
  /** Multi-part messages arriving, by the sender's part id; `assembling` is their announced bytes. */
  private readonly assemblies = new Map<number, Assembly>();
  private assembling = 0;
  /** Refused multi-part messages: bytes of their parts still to drop unread. */
  private readonly refusedParts = new Map<number, number>();
  private remote: Hello | null = null;
  private closedWith: ParleyError | null = null;
  private settleReady!: { resolve(h: Hello): void; reject(e: ParleyError): void };

  constructor(transport: Transport, options: PeerOptions) {
    this.role = options.role;
    this.transport = transport;
    this.validate = options.validate;
    this.serve(options.handlers ?? {});
    this.onProtocolError = options.onProtocolError ?? (() => {});
    this.onHandlerError = options.onHandlerError ?? defaultHandlerError;
    this.scope = options.scope ?? unscoped;
    this.ready = new Promise<Hello>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {});
    transport.onMessage = (bytes) => this.receive(bytes);
    transport.onFrameError = (err) => this.onProtocolError(err);
    transport.onClose = (reason) => this.closed(new ParleyError('peer-closed', reason || `The ${this.remoteRole} closed the connection.`));
    this.pid = options.pid ?? 0;
    this.maxFrame = options.maxFrame ?? DEFAULT_MAX_FRAME;
    this.maxMessage = Math.max(this.maxFrame, options.maxMessage ?? this.maxFrame);
    this.partBytes = Math.max(1, Math.min(MAX_PART_BYTES, this.maxFrame - PART_OVERHEAD));
    this.write(hello(this.role, this.pid));
  }

  get remoteRole(): string {
    return this.remote?.role ?? 'other side';
  }

  get pending(): number {
    return this.pendingCalls.size;
  }

  /** Bytes of multi-part messages not yet sent (0 when none is on its way out). */
  get sending(): number {
    let bytes = 0;
    for (const entry of this.outgoing) if (entry.parts) bytes += entry.bytes.byteLength - entry.parts.offset;
    return bytes;
  }

  /** Bytes announced by the multi-part messages arriving now (what they may hold). */
  get arriving(): number {
    return this.assembling;
  }

  get isClosed(): boolean {
    return this.closedWith !== null;
  }

  serve(handlers: Handlers): void {
    for (const [type, handler] of Object.entries(handlers)) if (handler) this.handlers.set(type, handler as Handler<MethodName>);
  }

  call<M extends MethodName>(type: M, payload: ReqOf<M>, options: CallOptions<M> = {}): Promise<ResOf<M>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const id = this.nextId++;
    return new Promise<ResOf<M>>((resolve, reject) => {
      const onAbort = () => {
        this.pendingCalls.delete(id);
        this.write({ v: PROTOCOL_VERSION, id, kind: 'cancel', type });
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pendingCalls.set(id, {
        type,
        resolve: resolve as (value: unknown) => void,
        reject,
        onChunk: options.onChunk as ((item: never) => void) | undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      try {
        this.write({ v: PROTOCOL_VERSION, id, kind: 'req', type, payload });
      } catch (err) {
        // Too large to send: the call fails here rather than wait for an answer that cannot come.
        this.pendingCalls.delete(id);
        signal?.removeEventListener('abort', onAbort);
        reject(err as ParleyError);
      }
    });
  }

  emit<E extends EventName>(type: E, payload: EventOf<E>): void {
    if (this.closedWith) return;
    try {
      this.write({ v: PROTOCOL_VERSION, id: 0, kind: 'event', type, payload });
    } catch (err) {
      this.onProtocolError(err as ParleyError);
    }
  }

  on<E extends EventName>(type: E, listener: (payload: EventOf<E>) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  onClose(listener: (err: ParleyError) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Closes the connection; every call still waiting fails with `err`. */
  close(err: ParleyError = new ParleyError('peer-closed', 'Connection closed.')): void {
    if (this.closedWith) return;
    this.closed(err);
    this.transport.close();
  }

  private closed(err: ParleyError): void {
    if (this.closedWith) return;
    this.closedWith = err;
    this.settleReady.reject(err);
    for (const pending of this.pendingCalls.values()) {
      pending.cleanup();
      pending.reject(err);
    }
    this.pendingCalls.clear();
    for (const controller of this.running.values()) controller.abort(err);
    this.running.clear();
    // What was on its way in or out in parts goes with the link.
    this.outgoing = [];
    this.lanes.clear();
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    this.pumpTimer = null;
    this.assemblies.clear();
    this.assembling = 0;
    this.refusedParts.clear();
    for (const listener of this.closeListeners) listener(err);
  }

  /**
   * Sends one message. One larger than the link carries is refused here with `frame-too-large`
   * (`message-too-large` on a link that opted into multi-part messages), as its reader would drop
   * it and a call would wait for ever: a call fails at once, a handler's answer or chunk becomes
   * the caller's error, an event is reported as a protocol error. One over a frame (on a link
   * that carries those) goes in parts, between which other messages still go out; a message of
   * the same call, or an event after an event, waits behind it so that order holds.
   */
  private write(envelope: Envelope): void {
    if (this.closedWith && envelope.kind !== 'hello') return;
    const bytes = encode(envelope);
    if (bytes.byteLength > this.maxMessage) {
      const code = this.maxMessage > this.maxFrame ? 'message-too-large' : 'frame-too-large';
      throw new ParleyError(code, `The ${envelope.kind === 'res' ? 'answer to' : 'message'} ${envelope.type} is ${size(bytes.byteLength)}, over the ${size(this.maxMessage)} one message between Parley's processes may carry.`, {
        length: bytes.byteLength,
        limit: this.maxMessage,
      });
    }
    const lane = laneOf(envelope);
    const big = bytes.byteLength > this.maxFrame && envelope.kind !== 'hello' && envelope.kind !== 'cancel' && envelope.kind !== 'part';
    if (!big && (lane === null || !this.lanes.has(lane))) {
      this.transport.send(bytes);
      return;
    }
    const entry: Outgoing = { lane: lane!, type: envelope.type, bytes };
    if (big) entry.parts = { id: this.nextPartId++, of: envelope.kind as PartPayload['of'], ref: envelope.id, n: 0, offset: 0 };
    this.outgoing.push(entry);
    this.lanes.set(entry.lane, (this.lanes.get(entry.lane) ?? 0) + 1);
    if (this.outgoing.length === 1) this.pump();
  }

  /** Sends the head of `outgoing`: one part per turn, while the transport is not behind. */
  private pump(): void {
    this.pumpTimer = null;
    while (this.outgoing.length > 0 && !this.closedWith) {
      const head = this.outgoing[0]!;
      const parts = head.parts;
      if (parts) {
        if ((this.transport.backlog?.() ?? 0) >= this.partBytes) {
          this.pumpTimer = setTimeout(() => this.pump(), PART_WAIT_MS);
          return;
        }
        const end = Math.min(parts.offset + this.partBytes, head.bytes.byteLength);
        const payload: PartPayload = { n: parts.n, total: head.bytes.byteLength, of: parts.of, ref: parts.ref, bytes: head.bytes.subarray(parts.offset, end) };
        this.transport.send(encode({ v: PROTOCOL_VERSION, id: parts.id, kind: 'part', type: head.type, payload }));
        parts.n++;
        parts.offset = end;
        if (end < head.bytes.byteLength) {
          // A turn between parts: what arrived meanwhile (a ping) is answered, and its answer goes out.
          this.pumpTimer = setTimeout(() => this.pump(), 0);
          return;
        }
      } else {
        this.transport.send(head.bytes);
      }
      this.outgoing.shift();
      const left = (this.lanes.get(head.lane) ?? 1) - 1;
      if (left > 0) this.lanes.set(head.lane, left);
      else this.lanes.delete(head.lane);
    }
  }

  /**
   * One part of a multi-part message. Its announced size is checked before any of it is kept, and
   * the parts received are checked against it; a refused message's other parts are dropped unread.
   */
  private receivePart(id: number, type: string, part: PartPayload): void {
    const skip = this.refusedParts.get(id);
    if (skip !== undefined) {
      if (skip - part.bytes.byteLength > 0) this.refusedParts.set(id, skip - part.bytes.byteLength);
      else this.refusedParts.delete(id);
      return;
    }
    let assembly = this.assemblies.get(id);
    if (!assembly) {
      if (part.n !== 0) {
        this.onProtocolError(new ParleyError('bad-message', `Part ${part.n} of ${type} arrived without its first part.`));
        return;
      }
      if (part.total > this.maxMessage || this.assembling + part.total > this.maxMessage) {
        const what = `${part.of === 'res' ? 'answer to' : 'message'} ${type}`;
        const why = part.total > this.maxMessage ? '' : ` with ${size(this.assembling)} of other messages still arriving`;
        this.refusePart(id, part, part.total - part.bytes.byteLength, new ParleyError('message-too-large', `The ${what} is ${size(part.total)}${why}, over the ${size(this.maxMessage)} one message between Parley's processes may carry.`, { length: part.total, limit: this.maxMessage }));
        return;
      }
      assembly = { type, of: part.of, ref: part.ref, total: part.total, received: 0, next: 0, whole: new Uint8Array(part.total) };
      this.assemblies.set(id, assembly);
      this.assembling += part.total;
    }
    if (part.n !== assembly.next || assembly.received + part.bytes.byteLength > assembly.total) {
      this.releaseAssembly(id, assembly);
      const err = part.n !== assembly.next
        ? new ParleyError('bad-message', `Part ${part.n} of ${type} arrived when part ${assembly.next} was due.`)
        : new ParleyError('message-too-large', `The parts of ${type} grew past the ${size(assembly.total)} it announced.`, { length: assembly.received + part.bytes.byteLength, limit: assembly.total });
      this.refusePart(id, part, assembly.total - assembly.received - part.bytes.byteLength, err);
      return;
    }
    assembly.whole.set(part.bytes, assembly.received);
    assembly.received += part.bytes.byteLength;
    assembly.next++;
    if (assembly.received < assembly.total) return;
    this.releaseAssembly(id, assembly);
    this.receive(assembly.whole, true);
  }

  private releaseAssembly(id: number, assembly: Assembly): void {
    if (this.assemblies.delete(id)) this.assembling -= assembly.total;
  }

  /** Drops a multi-part message and fails what waited on it: the caller of a refused call or answer gets the error. */
  private refusePart(id: number, part: PartPayload, left: number, err: ParleyError): void {
    if (left > 0) this.refusedParts.set(id, left);
    this.onProtocolError(err);
    if (part.of === 'req' && part.ref > 0) {
      this.write({ v: PROTOCOL_VERSION, id: part.ref, kind: 'res', type: 'error', error: err.toWire() });
    } else if (part.of === 'res' || part.of === 'chunk') {
      const pending = this.pendingCalls.get(part.ref);
      if (!pending) return;
      this.pendingCalls.delete(part.ref);
      pending.cleanup();
      pending.reject(err);
    }
  }

  private receive(bytes: Uint8Array, whole = false): void {
    let value: unknown;
    try {
      value = decode(bytes);
    } catch (err) {
      this.onProtocolError(err as ParleyError);
      return;
    }
    const envelope = readEnvelope(value);
    if (typeof envelope === 'string') {
      this.rejectMalformed(value, envelope);
      return;
    }
    if (whole && (envelope.kind === 'hello' || envelope.kind === 'part' || envelope.kind === 'cancel')) {
      this.onProtocolError(new ParleyError('bad-message', `A ${envelope.kind} cannot travel in parts.`));
      return;
    }
    if (envelope.kind === 'hello') {
      this.receiveHello(envelope.payload);
      return;
    }
    if (!this.remote) {
      this.onProtocolError(new ParleyError('bad-message', `A ${envelope.kind} arrived before the version handshake.`));
      return;
    }
    switch (envelope.kind) {
      case 'req':
        this.scope(envelope.type, () => this.receiveCall(envelope.id, envelope.type, envelope.payload));
        return;
      case 'chunk':
        this.receiveChunk(envelope.id, envelope.payload);
        return;
      case 'res':
        this.receiveReply(envelope.id, envelope.payload, envelope.error);
        return;
      case 'event':
        this.scope(envelope.type, () => this.receiveEvent(envelope.type, envelope.payload));
        return;
      case 'cancel':
        this.running.get(envelope.id)?.abort(new ParleyError('cancelled', 'Cancelled by the caller.'));
        return;
      case 'part':
        this.receivePart(envelope.id, envelope.type, envelope.payload);
        return;
    }
  }

  private receiveHello(remote: Hello): void {
    if (this.remote) return; // the answer to our repeated hello below
    if (remote.protocol !== PROTOCOL_VERSION) {
      const err = new ParleyError(
        'version-mismatch',
        `The ${remote.role} speaks bus protocol ${remote.protocol}, this ${this.role} speaks ${PROTOCOL_VERSION}: restart Parley so both come from the same release.`,
        { local: PROTOCOL_VERSION, remote: remote.protocol },
      );
      this.onProtocolError(err);
      this.close(err);
      return;
    }
    this.remote = remote;
    // Our own hello may have gone out before the other side listened (a window still loading):
    // say it again now that it certainly listens. A second hello is ignored.
    this.write(hello(this.role, this.pid));
    this.settleReady.resolve(remote);
  }

  private rejectMalformed(value: unknown, why: string): void {
    const err = new ParleyError('bad-message', `Malformed message refused: ${why}.`);
    this.onProtocolError(err);
    const id = (value as { id?: unknown } | null)?.id;
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (kind === 'req' && typeof id === 'number' && Number.isSafeInteger(id) && id > 0) {
      this.write({ v: PROTOCOL_VERSION, id, kind: 'res', type: 'error', error: err.toWire() });
    }
  }

  /** Never rejects: whatever goes wrong with one call is that call's error reply, and is logged when it is ours. */
  private async receiveCall(id: number, type: string, payload: unknown): Promise<void> {
    try {
      const spec = catalogEntry<MethodSpec>(methodCatalog, type);
      const handler = this.handlers.get(type);
      if (!spec || !handler) {
        this.reply(id, type, undefined, { code: 'unknown-method', message: `The ${this.role} does not answer ${type}.` });
        return;
      }
      const problem = this.validate(spec.req, payload);
      if (problem) {
        this.reply(id, type, undefined, { code: 'invalid-payload', message: `${type}: ${problem}` });
        return;
      }
      await this.runHandler(id, type, handler, payload);
    } catch (err) {
      this.onHandlerError(type, err);
      this.reply(id, type, undefined, { code: 'internal', message: `The ${this.role} failed on ${type}.` });
    }
  }

  private async runHandler(id: number, type: string, handler: Handler<MethodName>, payload: unknown): Promise<void> {
    const controller = new AbortController();
    this.running.set(id, controller);
    const ctx: CallContext<MethodName> = {
      signal: controller.signal,
      chunk: (item) => {
        if (!controller.signal.aborted) this.write({ v: PROTOCOL_VERSION, id, kind: 'chunk', type, payload: item });
      },
      backlog: () => this.transport.backlog?.() ?? 0,
    };
    try {
      const result = await handler(payload as never, ctx);
      if (!controller.signal.aborted) this.reply(id, type, result);
    } catch (err) {
      // A ParleyError (or wire error) is an answer; anything else is a bug worth a log line.
      if (!(err instanceof ParleyError) && !isWireError(err) && !controller.signal.aborted) this.onHandlerError(type, err);
      if (!controller.signal.aborted) this.reply(id, type, undefined, toWireError(err));
    } finally {
      this.running.delete(id);
    }
  }

  private reply(id: number, type: string, payload: unknown, error?: WireError): void {
    if (!error) {
      try {
        this.write({ v: PROTOCOL_VERSION, id, kind: 'res', type, payload });
        return;
      } catch (err) {
        error = toWireError(err);
      }
    }
    this.write({ v: PROTOCOL_VERSION, id, kind: 'res', type, error: { ...error, message: boundText(error.message) } });
  }

  private receiveChunk(id: number, payload: unknown): void {
    const pending = this.pendingCalls.get(id);
    if (!pending?.onChunk) return;
    const schema = catalogEntry<MethodSpec>(methodCatalog, pending.type)?.chunk;
    const problem = schema ? this.validate(schema, payload) : 'this call does not stream';
    if (problem) {
      this.onProtocolError(new ParleyError('invalid-payload', `${pending.type} chunk: ${problem}`));
      return;
    }
    try {
      pending.onChunk(payload as never);
    } catch (err) {
      this.onHandlerError(pending.type, err);
    }
  }

  private receiveReply(id: number, payload: unknown, error: WireError | undefined): void {
    const pending = this.pendingCalls.get(id);
    if (!pending) return; // cancelled or timed out already
    this.pendingCalls.delete(id);
    pending.cleanup();
    if (error) {
      pending.reject(ParleyError.fromWire(error));
      return;
    }
    const spec = catalogEntry<MethodSpec>(methodCatalog, pending.type)!;
    const problem = this.validate(spec.res, payload);
    if (problem) pending.reject(new ParleyError('invalid-payload', `${pending.type} reply: ${problem}`));
    else pending.resolve(payload);
  }

  private receiveEvent(type: string, payload: unknown): void {
    const schema = catalogEntry<TSchema>(eventCatalog, type);
    if (!schema) {
      this.onProtocolError(new ParleyError('unknown-method', `Unknown event ${type}.`));
      return;
    }
    let problem: string | null;
    try {
      problem = this.validate(schema, payload);
    } catch (err) {
      this.onHandlerError(type, err);
      return;
    }
    if (problem) {
      this.onProtocolError(new ParleyError('invalid-payload', `${type}: ${problem}`));
      return;
    }
    for (const listener of this.listeners.get(type) ?? []) {
      // One listener's bug neither stops the others nor escapes into the transport.
      try {
        listener(payload as never);
      } catch (err) {
        this.onHandlerError(type, err);
      }
    }
  }
}

/**
 * Messages of one lane keep their order when one of them goes in parts: a call's request and its
 * cancel; a call's chunks and its answer; events. A hello is never held.
 */
function laneOf(envelope: Envelope): string | null {
  switch (envelope.kind) {
    case 'req':
    case 'cancel':
      return `call ${envelope.id}`;
    case 'chunk':
    case 'res':
      return `answer ${envelope.id}`;
    case 'event':
      return 'events';
    default:
      return null;
  }
}

function abortError(signal: AbortSignal): ParleyError {
  const reason: unknown = signal.reason;
  if (reason instanceof ParleyError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return new ParleyError('timeout', 'Timed out.');
  return new ParleyError('cancelled', 'Cancelled.');
}
