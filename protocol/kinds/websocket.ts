/** WebSocket, a request kind of its own (docs/websocket.md): a handshake, then a session of messages, kept as a stream is. */
import { WebSocketRequest, blankWebSocketRequest } from '../model/websocket.js';
import type { FileKind } from '../project/yaml-file.js';
import type { RequestKind } from './kind.js';

export const WEBSOCKET_SUFFIX = '.websocket.yaml';

const file: FileKind<WebSocketRequest> = { label: 'WebSocket request', schema: WebSocketRequest, version: 1 };

export const websocketKind: RequestKind<WebSocketRequest> = {
  id: 'websocket',
  label: 'WebSocket',
  api: 'websocket',
  schema: WebSocketRequest,
  suffix: WEBSOCKET_SUFFIX,
  file,
  // An empty assertion list is not written, as for HTTP.
  forFile: ({ assertions, ...rest }) => (assertions && assertions.length > 0 ? { ...rest, assertions } : rest),
  blank: blankWebSocketRequest,
  badge: () => 'WS',
  record: 'session',
};
