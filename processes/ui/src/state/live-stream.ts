/**
 * An event stream in the response pane while it runs (SPEC "Events"): the newest
 * STREAM_LIMITS.liveRows rows, the true counts the supervisor sends with every batch, and how it
 * ended. Rows are kept in a plain array that is trimmed from the front; `version` changes once
 * per batch so the pane redraws once per batch (every 30 ms at most), never once per row.
 */
import { signal, type Signal } from '@preact/signals';
import type { ResponseHead, SendProgress } from '../../../../protocol/model/exchange.js';
import { STREAM_LIMITS, type StreamRecord, type StreamRow } from '../../../../protocol/model/stream.js';

export type LiveState = 'open' | 'ended' | 'stopped';

export class LiveStream {
  /** The stream's id, which `request.stopStream` takes. */
  readonly id: string;
  readonly head: ResponseHead;
  readonly startedAt = Date.now();
  /** The rows the pane holds, oldest first. */
  rows: StreamRow[] = [];
  readonly version = signal(0);
  readonly total = signal(0);
  readonly events = signal(0);
  readonly state: Signal<LiveState> = signal('open');
  readonly error = signal<{ code: string; message: string } | null>(null);
  /** Stop was asked for and the answer is on its way. */
  readonly stopping = signal(false);

  constructor(id: string, head: ResponseHead, private readonly limit = STREAM_LIMITS.liveRows) {
    this.id = id;
    this.head = head;
  }

  /** A finished stream as its holder kept it (a response that arrived whole, a re-send's). */
  static ofRecord(head: ResponseHead, record: StreamRecord): LiveStream {
    const stream = new LiveStream('', head);
    stream.finish(record);
    return stream;
  }

  /** Takes a batch of rows with the counts so far. */
  add(rows: readonly StreamRow[], total: number, events: number): void {
    if (rows.length >= this.limit) this.rows = rows.slice(-this.limit);
    else {
      for (const row of rows) this.rows.push(row);
      const excess = this.rows.length - this.limit;
      if (excess > 0) this.rows.splice(0, excess);
    }
    this.total.value = total;
    this.events.value = events;
    this.version.value++;
  }

  /** The stream is over: the finished record (the first 400 and last 4,600 rows) replaces the live rows. */
  finish(record: StreamRecord): void {
    this.rows = record.rows;
    this.total.value = record.total;
    this.events.value = record.events;
    this.error.value = record.error ?? null;
    this.state.value = record.state;
    this.version.value++;
  }
}

/** Feeds `request.send`'s progress into a LiveStream, made when the head arrives. */
export function onStreamProgress(current: LiveStream | null, progress: SendProgress, made: (stream: LiveStream) => void): void {
  if (progress.kind === 'head') {
    made(new LiveStream(progress.stream, progress.head));
    return;
  }
  current?.add(progress.rows, progress.total, progress.events);
}

/** A row as the Events list shows it, or the mark where rows were let go (their `n` jumps). */
export type ShownRow = { kind: 'row'; row: StreamRow } | { kind: 'gap'; missing: number };

/**
 * The rows to list: with `showOthers` off only events; a gap mark wherever the numbering jumps
 * (a finished stream keeps its first and last rows; the live pane only the newest).
 */
export function shownRows(rows: readonly StreamRow[], showOthers: boolean): ShownRow[] {
  const shown: ShownRow[] = [];
  let previous = 0;
  for (const row of rows) {
    if (row.n > previous + 1) shown.push({ kind: 'gap', missing: row.n - previous - 1 });
    previous = row.n;
    if (showOthers || row.kind === 'event') shown.push({ kind: 'row', row });
  }
  return shown;
}
