/**
 * Which rows of an event stream a holder keeps (SPEC "Limits"): the first `first` rows and the
 * last `last`, within `bytes` of event data (a row's data, name and id in UTF-8). Fed every row
 * as it arrives, it holds only what it keeps, so a stream of any length costs at most its limits.
 *
 * When the kept rows' data passes the budget, rows go from the middle: the newest of the first
 * rows while they use more than their share of the budget (bytes x first / (first + last)),
 * otherwise the oldest of the last rows; the newest row stays. Once a row has gone, later rows
 * only join the last ones, so the first rows stay the stream's beginning. A single row larger
 * than the whole budget is not kept. docs/events.md gives the rules with examples.
 */
import { isMessageRow, type StreamRecord, type StreamRow, type StreamState } from '../../../protocol/model/stream.js';

export interface RetentionLimits {
  first: number;
  last: number;
  bytes: number;
}

export function rowBytes(row: StreamRow): number {
  return Buffer.byteLength(row.data) + (row.name === undefined ? 0 : Buffer.byteLength(row.name)) + (row.id === undefined ? 0 : Buffer.byteLength(row.id));
}

export class RowRetention {
  total = 0;
  events = 0;
  private readonly head: StreamRow[] = [];
  private readonly headSizes: number[] = [];
  private headBytes = 0;
  /** Only rows arriving before any was let go join the first ones. */
  private headClosed = false;
  // Rows and their sizes side by side: no wrapper object per row (a stream's rows pass through here at full speed).
  private readonly tail = new Deque<StreamRow>();
  private readonly tailSizes = new Deque<number>();
  private tailBytes = 0;
  private readonly headShare: number;

  constructor(readonly limits: RetentionLimits) {
    this.headShare = (limits.bytes * limits.first) / (limits.first + limits.last);
  }

  get kept(): number {
    return this.head.length + this.tail.length;
  }

  get keptBytes(): number {
    return this.headBytes + this.tailBytes;
  }

  /** Takes the next row; `size` is its rowBytes when the caller has it already (two holders, one count). */
  add(row: StreamRow, size = rowBytes(row)): void {
    this.total++;
    if (isMessageRow(row.kind)) this.events++;
    if (size > this.limits.bytes) {
      this.headClosed = true;
      return;
    }
    if (!this.headClosed && this.head.length < this.limits.first && this.keptBytes + size <= this.limits.bytes) {
      this.head.push(row);
      this.headSizes.push(size);
      this.headBytes += size;
      return;
    }
    this.headClosed = true;
    this.tail.push(row);
    this.tailSizes.push(size);
    this.tailBytes += size;
    if (this.tail.length > this.limits.last) this.dropOldestLast();
    while (this.keptBytes > this.limits.bytes) {
      if (this.head.length > 0 && (this.headBytes > this.headShare || this.tail.length <= 1)) {
        this.head.pop();
        this.headBytes -= this.headSizes.pop()!;
      } else this.dropOldestLast();
    }
  }

  /** The row was just taken as one of the first rows (not as one of the last). */
  tookFirst(row: StreamRow): boolean {
    return this.head[this.head.length - 1] === row;
  }

  /** The kept rows, oldest first. */
  rows(): StreamRow[] {
    return [...this.head, ...this.tail.values()];
  }

  record(state: StreamState, error?: { code: string; message: string }): StreamRecord {
    const rows = this.rows();
    return { state, ...(error ? { error } : {}), total: this.total, events: this.events, rows, notKept: this.total - rows.length };
  }

  private dropOldestLast(): void {
    this.tail.shift();
    const size = this.tailSizes.shift();
    if (size !== undefined) this.tailBytes -= size;
  }
}

/** A queue with O(1) push and shift (the last rows turn over at stream speed). */
export class Deque<T> {
  private items: T[] = [];
  private start = 0;

  get length(): number {
    return this.items.length - this.start;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.start >= this.items.length) return undefined;
    const item = this.items[this.start++];
    // Compact once the dead front is as long as the live part.
    if (this.start > 1024 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
    return item;
  }

  values(): T[] {
    return this.items.slice(this.start);
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}
