/**
 * A WebSocket request (issue 29, docs/websocket.md): a handshake to a ws: or wss: URL with its
 * headers, subprotocols and auth, the messages saved to send over it, and what `parley run` waits
 * for. Its session runs in the sender; its messages are a stream's rows (protocol/model/stream.ts).
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Id, Row } from './common.js';
import { Auth } from './auth.js';
import { Assertion } from './assertion.js';

/** Text as typed; JSON (checked, sent as text); binary: a file's bytes. */
export const SocketMessageFormat = T.Union([T.Literal('text'), T.Literal('json'), T.Literal('binary')]);
export type SocketMessageFormat = Static<typeof SocketMessageFormat>;

/** A message to send: `${...}` expands in text and JSON; a binary message is a file in the project. */
export const SocketMessage = T.Object({
  format: SocketMessageFormat,
  /** The text or JSON (ignored for binary). */
  text: T.String({ maxLength: 32 * 1024 * 1024 }),
  /** The file of a binary message, relative to the project folder. */
  file: T.String(),
});
export type SocketMessage = Static<typeof SocketMessage>;

export const SavedMessage = T.Object({ name: T.String(), ...SocketMessage.properties });
export type SavedMessage = Static<typeof SavedMessage>;

export const WebSocketSettings = T.Object({
  sendCookies: T.Boolean(),
  /** Milliseconds until the handshake's answer; 0 waits forever. */
  timeoutMs: T.Integer({ minimum: 0 }),
});
export type WebSocketSettings = Static<typeof WebSocketSettings>;

/** What `parley run` does once the saved messages are sent: wait for this many messages received, or this long. */
export const WebSocketRun = T.Object({
  /** Messages to receive before closing; 0: wait the whole time. */
  messages: T.Integer({ minimum: 0, maximum: 1_000_000 }),
  waitMs: T.Integer({ minimum: 0, maximum: 3_600_000 }),
});
export type WebSocketRun = Static<typeof WebSocketRun>;

export const WebSocketRequest = T.Object({
  kind: T.Literal('websocket'),
  version: T.Literal(1),
  id: Id,
  name: T.String({ minLength: 1 }),
  /** ws: or wss: (`${...}` expands); a path is joined to the API's base URL, http: read as ws:, https: as wss:. */
  url: T.String(),
  headers: T.Array(Row),
  /** Asked for in order of preference (Sec-WebSocket-Protocol); the server picks one or none. */
  subprotocols: T.Array(T.String()),
  auth: Auth,
  settings: WebSocketSettings,
  messages: T.Array(SavedMessage, { maxItems: 1_000 }),
  run: WebSocketRun,
  /** Checked by `parley run` over the messages received (docs/websocket.md). */
  assertions: T.Optional(T.Array(Assertion, { maxItems: 200 })),
  description: T.Optional(T.String()),
  order: T.Optional(T.String()),
  /** Never set for WebSocket requests (no definition links them); kept so every kind reads alike. */
  orphaned: T.Optional(T.Boolean()),
});
export type WebSocketRequest = Static<typeof WebSocketRequest>;

export function blankWebSocketRequest(fields: { id: string; name: string; url: string }): WebSocketRequest {
  return {
    kind: 'websocket',
    version: 1,
    ...fields,
    headers: [],
    subprotocols: [],
    auth: { type: 'inherit' },
    settings: { sendCookies: false, timeoutMs: 30_000 },
    messages: [],
    run: { messages: 1, waitMs: 5_000 },
  };
}

/** A message as the sender puts it on the socket: text, or binary bytes (what the supervisor made of a SocketMessage). */
export const OutgoingSocketMessage = T.Object({
  text: T.Optional(T.String()),
  binary: T.Optional(T.Uint8Array()),
});
export type OutgoingSocketMessage = Static<typeof OutgoingSocketMessage>;
