/**
 * An event stream in the response pane while it runs (SPEC "Events"): the newest
 * STREAM_LIMITS.liveRows rows, the true counts the supervisor sends with every batch, and how it
 * ended. A batch costs time in proportion to its own rows, never to the pane's: rows and the two
 * lists the Events tab shows (every row, or events only, with a mark where rows were let go) are
 * appended at the end and let go from the front. `version` changes once per batch so the pane
 * redraws once per batch, never once per row.
 */
import { signal, type Signal } from '@preact/signals';
import type { ResponseHead, SendProgress } from '../../../../protocol/model/exchange.js';
import { isAsideRow, STREAM_LIMITS, unpackRows, type StreamRecord, type StreamRow } from '../../../../protocol/model/stream.js';

export type LiveState = 'open' | 'ended' | 'stopped';

/** A row as the Events list shows it, or the mark where rows were let go (their `n` jumps). */
export type ShownRow = { kind: 'row'; row: StreamRow } | { kind: 'gap'; missing: number };

export class LiveStream {
  /** The stream's id, which `request.stopStream` takes. */
  readonly id: string;
  readonly head: ResponseHead;
  readonly startedAt = Date.now();
  readonly version = signal(0);
  readonly total = signal(0);
  readonly events = signal(0);
  readonly state: Signal<LiveState> = signal('open');
  readonly error = signal<{ code: string; message: string } | null>(null);
  /** Stop was asked for and the answer is on its way. */
  readonly stopping = signal(false);
  private held = new Window<StreamRow>();
  private everyRow = new ShownList();
  private eventsOnly = new ShownList();
  private finishedRows: StreamRow[] | undefined;

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

  /** The rows the pane holds, oldest first (a finished stream's: its record's own array). */
  get rows(): readonly StreamRow[] {
    return this.finishedRows ?? this.held.values();
  }

  /** How many rows the pane holds. */
  get heldCount(): number {
    return this.held.length;
  }

  /** The row numbered `n`, if the pane holds it (rows are in order: a binary search). */
  rowNumbered(n: number): StreamRow | undefined {
    let low = 0;
    let high = this.held.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const row = this.held.at(mid)!;
      if (row.n === n) return row;
      if (row.n < n) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  /** The list the Events tab shows: every row, or only events; with marks where rows were let go. */
  shown(showOthers: boolean): ShownList {
    return showOthers ? this.everyRow : this.eventsOnly;
  }

  /** Takes a batch of rows with the counts so far. */
  add(rows: readonly StreamRow[], total: number, events: number): void {
    const from = Math.max(0, rows.length - this.limit);
    for (let i = from; i < rows.length; i++) this.append(rows[i]!);
    const excess = this.held.length - this.limit;
    if (excess > 0) {
      this.held.dropFront(excess);
      const first = this.held.at(0)!.n;
      this.everyRow.dropBefore(first);
      this.eventsOnly.dropBefore(first);
    }
    this.total.value = total;
    this.events.value = events;
    this.version.value++;
  }

  /** The stream is over: the finished record (the first 400 and last 4,600 rows) replaces the live rows. */
  finish(record: StreamRecord): void {
    this.held = new Window();
    this.everyRow = new ShownList();
    this.eventsOnly = new ShownList();
    for (const row of record.rows) this.append(row);
    this.finishedRows = record.rows;
    this.total.value = record.total;
    this.events.value = record.events;
    this.error.value = record.error ?? null;
    this.state.value = record.state;
    this.version.value++;
  }

  private append(row: StreamRow): void {
    const previous = this.held.length === 0 ? undefined : this.held.at(this.held.length - 1)!.n;
    if (previous === undefined) for (const list of [this.everyRow, this.eventsOnly]) list.startAt(row.n);
    this.held.push(row);
    // A jump inside the pane (rows let go between two batches) gets its mark; the mark before the
    // first row is made by ShownList from that row's number.
    const missing = previous === undefined ? 0 : row.n - previous - 1;
    for (const list of [this.everyRow, this.eventsOnly]) if (missing > 0) list.pushGap(missing, row.n);
    this.everyRow.pushRow(row);
    if (!isAsideRow(row.kind)) this.eventsOnly.pushRow(row);
  }
}

/** Feeds `request.send`'s progress into a LiveStream, made when the head arrives. */
export function onStreamProgress(current: LiveStream | null, progress: SendProgress, made: (stream: LiveStream) => void): void {
  if (progress.kind === 'head') {
    made(new LiveStream(progress.stream, progress.head));
    return;
  }
  current?.add(unpackRows(progress.batch), progress.batch.total, progress.batch.events);
}

/**
 * One of the Events tab's lists: items appended at the end and let go from the front, read by
 * window (the virtualized list draws only what is visible). The mark for the rows before the
 * first one held is not stored: it follows from that row's number.
 */
export class ShownList {
  private readonly items = new Window<ShownRow>();
  /** Per item: the number of its row, or of the row after its gap. */
  private readonly numbers = new Window<number>();
  /** The number of the first row the pane holds (0: none yet). */
  private first = 0;

  /** Items to list, the leading mark included. */
  get length(): number {
    return this.items.length + (this.leading() > 0 ? 1 : 0);
  }

  /** Items `from` to `to` (exclusive), the leading mark first when there is one. */
  slice(from: number, to: number): ShownRow[] {
    const lead = this.leading();
    const out: ShownRow[] = [];
    const offset = lead > 0 ? 1 : 0;
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(i < offset ? { kind: 'gap', missing: lead } : this.items.at(i - offset)!);
    return out;
  }

  /** The pane's first row is numbered `n` (before anything else is pushed). */
  startAt(n: number): void {
    this.first = n;
  }

  pushRow(row: StreamRow): void {
    this.items.push({ kind: 'row', row });
    this.numbers.push(row.n);
  }

  pushGap(missing: number, before: number): void {
    this.items.push({ kind: 'gap', missing });
    this.numbers.push(before);
  }

  /** Lets go of the items before the row numbered `n` (and the marks up to it). */
  dropBefore(n: number): void {
    this.first = n;
    let count = 0;
    while (count < this.numbers.length) {
      const item = this.items.at(count)!;
      const at = this.numbers.at(count)!;
      if (item.kind === 'row' ? at < n : at <= n) count++;
      else break;
    }
    this.items.dropFront(count);
    this.numbers.dropFront(count);
  }

  /** Rows let go before the pane's first row. */
  private leading(): number {
    return this.first > 1 ? this.first - 1 : 0;
  }
}

/** An array appended at the end and let go from the front in O(1) (compacted now and then). */
class Window<T> {
  private items: T[] = [];
  private start = 0;

  get length(): number {
    return this.items.length - this.start;
  }

  at(i: number): T | undefined {
    return this.items[this.start + i];
  }

  push(item: T): void {
    this.items.push(item);
  }

  dropFront(count: number): void {
    this.start = Math.min(this.items.length, this.start + count);
    if (this.start > 1024 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  values(): T[] {
    return this.items.slice(this.start);
  }
}

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
    if (showOthers || !isAsideRow(row.kind)) shown.push({ kind: 'row', row });
  }
  return shown;
}
