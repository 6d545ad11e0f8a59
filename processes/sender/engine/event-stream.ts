/**
 * A text/event-stream response read event by event (SPEC "Events"): the decoded body goes
 * through eventsource-parser, and every event, comment line and `retry:` field becomes a row,
 * handed on in batches (the rows parsed in one turn of the event loop, at most BATCH_ROWS).
 * Nothing times out once the headers are in: the stream runs until the server ends it, the
 * connection drops, or the send is cancelled (Stop). A stopped or dropped stream is not a
 * failure: it ends as `stopped`, a dropped one with its error.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createParser, type ParseError } from 'eventsource-parser';
import { ParleyError } from '../../../protocol/errors.js';
import { bytesText } from './send-errors.js';
import { isMessageRow, STREAM_LIMITS, type StreamRow, type StreamState } from '../../../protocol/model/stream.js';

/** Rows handed on at once at most; a burst is cut into batches of this size. */
export const BATCH_ROWS = 1_000;

/**
 * Characters the parser may hold for one unfinished line or event: as much as the largest
 * holder keeps of a whole stream (SPEC Limits, 32 MB). A longer event ends the stream.
 */
export const MAX_EVENT_CHARS = STREAM_LIMITS.finished.bytes;

export interface StreamEnd {
  state: StreamState;
  /** The dropped connection's (or oversized event's) error; absent after Stop or a normal end. */
  error?: { code: string; message: string };
  total: number;
  events: number;
  /** Decoded bytes read. */
  bytes: number;
}

export interface ReadStreamOptions {
  /** Fires on Stop: the stream ends as stopped. */
  signal: AbortSignal;
  /** Receives the rows in order, in batches. */
  onRows: (rows: StreamRow[]) => void;
  /** Turns a transport failure into the error recorded with the stream. */
  describe: (err: unknown) => ParleyError;
}

/** Reads `stages` (the body, then its decoders) to the end as an event stream. */
export async function readEventStream(stages: [Readable, ...NodeJS.ReadWriteStream[]], options: ReadStreamOptions): Promise<StreamEnd> {
  const rows = new RowBatcher(options.onRows);
  let tooLarge: ParleyError | undefined;
  const parser = createParser({
    onEvent: (event) => rows.add('event', event.data, event.event, event.id),
    onComment: (comment) => rows.add('comment', comment),
    onRetry: (ms) => rows.add('retry', String(ms)),
    onError: (err: ParseError) => {
      // Unknown fields and unreadable retry values are ignored, as the standard says; only an
      // event that would not fit ends the stream.
      if (err.type === 'max-buffer-size-exceeded') {
        tooLarge = new ParleyError('event-too-large', `An event-stream line is over ${bytesText(MAX_EVENT_CHARS)} (the most one event may hold); the stream was stopped there.`, { limit: MAX_EVENT_CHARS });
      }
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  const consume = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      bytes += chunk.length;
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (tooLarge) throw tooLarge;
    }
    parser.feed(decoder.decode());
  };
  let end: Pick<StreamEnd, 'state' | 'error'>;
  try {
    // The consumer is an async function stage, which the typings of the array form do not list.
    await pipeline([...stages, consume] as unknown as NodeJS.ReadWriteStream[], { signal: options.signal });
    end = { state: 'ended' };
  } catch (err) {
    if (options.signal.aborted) end = { state: 'stopped' };
    else {
      // An oversized event is thrown from inside the pipeline, which ends with its own AbortError: the event is why.
      const e = tooLarge ?? (err instanceof ParleyError ? err : options.describe(err));
      end = { state: 'stopped', error: { code: e.code, message: e.message } };
    }
  } finally {
    rows.flush();
  }
  return { ...end, total: rows.total, events: rows.events, bytes };
}

/** Numbers rows as they are parsed and hands them on once per loop turn (or every BATCH_ROWS); a GraphQL subscription's messages too. */
export class RowBatcher {
  total = 0;
  events = 0;
  private pending: StreamRow[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(private readonly onRows: (rows: StreamRow[]) => void) {}

  add(kind: StreamRow['kind'], data: string, name?: string, id?: string): void {
    const row: StreamRow = { n: ++this.total, at: Date.now(), kind, data };
    if (name !== undefined) row.name = name;
    if (id !== undefined) row.id = id;
    if (isMessageRow(kind)) this.events++;
    this.pending.push(row);
    if (this.pending.length >= BATCH_ROWS) this.flush();
    else this.scheduled ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.onRows(batch);
  }
}
