/**
 * What a request kind is (ARCHITECTURE.md, "Request kinds"): its model, the file it is saved in,
 * and what History and the HTTP Log record of one of its sends. The list of kinds is
 * `REQUEST_KINDS` (index.ts); each process that serves a kind keeps its part in a folder named
 * after the kind (the sender's engine, the supervisor's send, the page's editor and response).
 */
import type { TSchema } from '@sinclair/typebox';
import type { FileKind } from '../project/yaml-file.js';

export interface RequestKind<R extends { id: string; name: string }> {
  /** The `kind` a request of this kind carries (HTTP's is absent in its files: every file before kinds is HTTP). */
  id: string;
  /** For people: "HTTP", "WebSocket". */
  label: string;
  /** The kind of API that holds requests of this kind (SPEC's import rows: a REST API, a WebSocket API). */
  api: ApiKindId;
  /** The model, checked on the bus and on load. */
  schema: TSchema;
  /** Its files: `<name><suffix>` in an API's requests/ folder, read and written as `file`. */
  suffix: string;
  file: FileKind<R>;
  /** The request as written to its file (and as a file read is held in memory). */
  forFile(request: R): R;
  /** A new request of this kind with nothing set but these (`request.createOfKind`). */
  blank(fields: { id: string; name: string; url: string }): R;
  /** The short tag the sidebar and tabs show before the name (HTTP: the method). */
  badge(request: R): string;
  /**
   * What History and the HTTP Log keep of a send: an exchange (request, response) or a session
   * (the handshake, then its messages as a stream's rows, bounded as streams are).
   */
  record: 'exchange' | 'session';
}

export type ApiKindId = 'rest' | 'websocket' | 'grpc';
