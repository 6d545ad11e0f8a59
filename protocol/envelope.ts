/**
 * The one envelope every message travels in:
 * `{ v, id, kind, type, payload }` plus `error` on a failed reply.
 *
 * kinds: `hello` (version handshake, first message each way), `req` (a call), `chunk` (one item
 * of a streamed reply, before its `res`), `res` (the final reply: payload or error),
 * `event` (one-way notice), `cancel` (the caller gave up on call `id`), `part` (one frame of a
 * message larger than a frame, on a link that carries those: see Peer's `maxMessage`).
 */
import { PROTOCOL_VERSION } from './version.js';
import type { WireError } from './errors.js';
import { isWireError } from './errors.js';

export type Kind = 'hello' | 'req' | 'chunk' | 'res' | 'event' | 'cancel' | 'part';

/**
 * One part of a message sent in several frames: `id` numbers the message among the sender's
 * multi-part ones, `type` is the message's own; `n` counts from 0, `total` is the whole
 * encoding's byte length (announced up front, so a receiver refuses it before buffering any),
 * `of` and `ref` the message's kind and id (a refused call or answer is failed by its id).
 */
export interface PartPayload {
  n: number;
  total: number;
  of: 'req' | 'chunk' | 'res' | 'event';
  ref: number;
  bytes: Uint8Array;
}

export interface Hello {
  protocol: number;
  role: string;
  pid: number;
}

export type Envelope =
  | { v: number; id: 0; kind: 'hello'; type: 'hello'; payload: Hello }
  | { v: number; id: number; kind: 'req'; type: string; payload: unknown }
  | { v: number; id: number; kind: 'chunk'; type: string; payload: unknown }
  | { v: number; id: number; kind: 'res'; type: string; payload?: unknown; error?: WireError }
  | { v: number; id: 0; kind: 'event'; type: string; payload: unknown }
  | { v: number; id: number; kind: 'cancel'; type: string }
  | { v: number; id: number; kind: 'part'; type: string; payload: PartPayload };

const KINDS = new Set<string>(['hello', 'req', 'chunk', 'res', 'event', 'cancel', 'part']);
const PART_OF = new Set<string>(['req', 'chunk', 'res', 'event']);
const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** Checks the envelope's own shape; payloads are checked against the message catalog later. */
export function readEnvelope(value: unknown): Envelope | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const e = value as Record<string, unknown>;
  if (typeof e.v !== 'number') return 'missing protocol version `v`';
  if (typeof e.kind !== 'string' || !KINDS.has(e.kind)) return `unknown kind ${JSON.stringify(e.kind)}`;
  if (typeof e.type !== 'string' || e.type.length === 0 || e.type.length > 128) return 'missing or oversized `type`';
  if (typeof e.id !== 'number' || !Number.isSafeInteger(e.id) || e.id < 0) return 'bad `id`';
  if (e.kind === 'res' && e.error !== undefined && !isWireError(e.error)) return 'bad `error`';
  if (e.kind === 'hello') {
    const h = e.payload as Partial<Hello> | undefined;
    if (!h || typeof h.protocol !== 'number' || typeof h.role !== 'string') return 'bad hello';
  }
  if (e.kind === 'part') {
    const p = e.payload as Partial<PartPayload> | null | undefined;
    if (typeof p !== 'object' || p === null || !count(p.n) || !count(p.total) || !count(p.ref) || typeof p.of !== 'string' || !PART_OF.has(p.of) || !(p.bytes instanceof Uint8Array)) return 'bad part';
  }
  return value as Envelope;
}

export function hello(role: string, pid: number): Envelope {
  return { v: PROTOCOL_VERSION, id: 0, kind: 'hello', type: 'hello', payload: { protocol: PROTOCOL_VERSION, role, pid } };
}
