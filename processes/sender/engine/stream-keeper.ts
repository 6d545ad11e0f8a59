/**
 * An event stream's rows in the sender, where they are parsed: the two holders that outlive the
 * stream keep theirs here (the finished stream's and History's retentions, SPEC "Limits"), and
 * only the rows some holder can still keep or the live pane shows go on, coalesced into one batch
 * at most every BATCH_MS with the true counts: the first STREAM_LIMITS.finished.first rows (each
 * holder's first rows are among them) and the newest STREAM_LIMITS.liveRows (every holder's last
 * rows are among them). A row that is let go before its batch leaves never crosses the pipe,
 * so a fast stream costs the processes after this one at most one batch per BATCH_MS.
 */
import { packRows, STREAM_LIMITS, type RowBatch, type StreamRecord, type StreamRow, type StreamState } from '../../../protocol/model/stream.js';
import { Deque, RowRetention, rowBytes } from './stream-retention.js';

/** At most one batch this often: the live pane redraws no faster, and a fast stream coalesces. */
export const BATCH_MS = 50;
/**
 * Once the receiver says it took a batch (`taken`), each batch waits for that: rows a slower
 * receiver could not take are let go here, not queued. A `taken` that does not come within this
 * lets the next batch go all the same.
 */
export const TAKEN_TIMEOUT_MS = 1_000;
/** Rows up to this number may be among a holder's first rows: they always go on. */
export const FIRST_ROWS = Math.max(STREAM_LIMITS.finished.first, STREAM_LIMITS.history.first);
/**
 * Characters of data a batch carries at most: past it the oldest of the newest rows are let go
 * here (the holders' own records, kept above, are whole). A stream of large events then shows the
 * newest of them live without a message of tens of MB every 50 ms through both processes.
 */
const BATCH_CHARS = 4 * 1024 * 1024;
/**
 * At the end, rows still waiting go as a last batch only up to this many characters of data: the
 * answer carries the kept rows anyway, and a stream of large events would cross twice.
 */
const LAST_BATCH_CHARS = 1024 * 1024;

export interface KeptStream {
  /** The finished stream's record (response, HTTP Log, HAR export). */
  finished: StreamRecord;
  /** History's record. */
  history: StreamRecord;
}

export class StreamKeeper {
  readonly finished = new RowRetention(STREAM_LIMITS.finished);
  readonly history = new RowRetention(STREAM_LIMITS.history);
  /** Rows not sent yet: the first ones, then the newest (at most liveRows of them after a trim). */
  private early: StreamRow[] = [];
  private earlyChars = 0;
  private readonly late = new Deque<StreamRow>();
  private lateChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private sentAt = -Infinity;
  private ended = false;
  /** Set by the first `taken`: a batch waits until the last one was taken. */
  private paced = false;
  private waiting = false;

  /** Without `onBatch` the keeper only keeps (nothing goes on while the stream runs). */
  constructor(private readonly onBatch?: (batch: RowBatch) => void) {}

  get total(): number {
    return this.finished.total;
  }

  get events(): number {
    return this.finished.events;
  }

  add(rows: readonly StreamRow[]): void {
    if (this.ended) return;
    for (const row of rows) {
      const size = rowBytes(row);
      this.finished.add(row, size);
      this.history.add(row, size);
      if (!this.onBatch) continue;
      // A first row goes as such only while a holder keeps it among its first rows (large rows that
      // pass the byte budgets are last rows like any other).
      if (row.n <= FIRST_ROWS && (this.finished.tookFirst(row) || this.history.tookFirst(row))) {
        this.early.push(row);
        this.earlyChars += row.data.length;
      }
      else {
        this.late.push(row);
        this.lateChars += row.data.length;
      }
    }
    if (!this.onBatch) return;
    // Only the newest liveRows can be shown or kept as last rows; the rest is let go here.
    while (this.late.length > STREAM_LIMITS.liveRows || (this.lateChars > BATCH_CHARS && this.late.length > 1)) {
      this.lateChars -= this.late.shift()!.data.length;
    }
    // Checked here as well as by the timer: a body already buffered is read in microtasks alone,
    // and no timer fires until it is all parsed.
    this.schedule();
  }

  /** The receiver passed on the last batch: the next may go (BATCH_MS after the last). */
  taken(): void {
    this.paced = true;
    this.waiting = false;
    if (this.ended) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (this.early.length === 0 && this.late.length === 0) return;
    const at = performance.now();
    if (this.waiting && at - this.sentAt < TAKEN_TIMEOUT_MS) {
      this.timer ??= setTimeout(() => this.flush(), this.sentAt + TAKEN_TIMEOUT_MS - at);
      return;
    }
    const wait = this.sentAt + BATCH_MS - at;
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** Sends what waits, now (the stream's end calls it so the last rows go before the answer). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.early.length === 0 && this.late.length === 0) return;
    const rows = this.early.length === 0 ? this.late.values() : [...this.early, ...this.late.values()];
    this.early = [];
    this.earlyChars = 0;
    this.late.clear();
    this.lateChars = 0;
    this.sentAt = performance.now();
    this.waiting = this.paced;
    this.onBatch?.(packRows(rows, this.total, this.events));
  }

  /** The stream is over: the last batch goes (unless large: the answer has its rows), and each holder's record is made. */
  end(state: StreamState, error?: { code: string; message: string }): KeptStream {
    if (this.earlyChars + this.lateChars <= LAST_BATCH_CHARS) this.flush();
    else clearTimeout(this.timer);
    this.ended = true;
    return { finished: this.finished.record(state, error), history: this.history.record(state, error) };
  }
}
