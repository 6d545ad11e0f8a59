/**
 * An event stream while it runs, in the supervisor: the sender keeps the rows (its StreamKeeper)
 * and sends here only batches of those some holder can keep or the live pane shows, with the true
 * counts; they go on to the UI every FORWARD_MS at most, never more than the newest
 * STREAM_LIMITS.liveRows at once, paced by what the page has read. What arrived is also held (the
 * first rows and the newest), so a sender that dies mid-stream still leaves the stream's rows.
 * Stop (`request.stopStream`) fires the session's signal; the send then asks the sender to end
 * its read and answers with the sender's kept rows.
 */
import { randomUUID } from 'node:crypto';
import { ParleyError } from '../../../protocol/errors.js';
import type { SocketMessage } from '../../../protocol/model/websocket.js';
import type { ResponseHead, SendProgress, Timing } from '../../../protocol/model/exchange.js';
import { batchLength, lastRowNumber, newestRows, packRows, STREAM_LIMITS, unpackRows, type RowBatch, type StreamRecord, type StreamRow, type StreamState } from '../../../protocol/model/stream.js';
import { FIRST_ROWS, type KeptStream } from '../../sender/engine/stream-keeper.js';
import { RowRetention } from '../../sender/engine/stream-retention.js';

/** How often rows go on to the UI: the pane redraws at most this often. */
export const FORWARD_MS = 50;
/**
 * Rows wait while more than this many bytes of earlier progress have not reached the page yet: a
 * page that reads slower than the stream comes gets the newest rows (all it keeps) and the true
 * counts, instead of a queue that grows and delays every other reply behind it.
 */
export const MAX_BACKLOG_BYTES = 256 * 1024;
/**
 * A page that says which rows it has drawn (`request.streamRead`) gets its next batch only once
 * it has read the last one: the socket's backlog alone does not show a page that is behind, as the
 * browser takes the bytes off the socket long before its page reads them. The first read turns
 * this on for the stream (a caller that never reads, such as a bus client, is not held); a read
 * that does not come within PACE_TIMEOUT_MS lets the next batch go all the same.
 */
export const PACE_TIMEOUT_MS = 1_000;
/** How often an open stream's counts are given to the HTTP Log. */
const COUNTS_MS = 1_000;

export interface StreamSessionOptions {
  head: ResponseHead;
  /** Timing up to the headers, from the sender. */
  timing: Timing;
  /** Where the rows go while the stream runs (the caller's progress), if anywhere. */
  forward?: (progress: SendProgress) => void;
  /** The counts so far, about once a second (the HTTP Log's row). */
  onCounts?: (total: number, events: number) => void;
  /** Bytes of progress not yet written to the caller; rows wait while it passes MAX_BACKLOG_BYTES. */
  backlog?: () => number;
  /**
   * Everything that arrived was passed on (`sender.streamTaken`): the sender's next batch may
   * come. A page behind its stream so holds the sender's batches too, and the rows it could not
   * take never cross the pipe.
   */
  onTaken?: () => void;
}

export class StreamSession {
  readonly id = randomUUID();
  /** A WebSocket session's: sends a message over it (`request.socketSend`); absent for an event stream. */
  sendMessage: ((message: SocketMessage) => Promise<void>) | undefined;
  /** A gRPC client or bidirectional stream's: half-closes its request side (`request.halfClose`). */
  halfClose: (() => Promise<void>) | undefined;
  readonly head: ResponseHead;
  readonly timing: Timing;
  /** The true counts, as the last batch gave them. */
  total = 0;
  events = 0;
  private readonly received = new ReceivedRows();
  private readonly headAt = performance.now();
  private readonly stopper = new AbortController();
  /** Batches not forwarded yet (their rows count up to pendingRows). */
  private pending: RowBatch[] = [];
  private pendingRows = 0;
  private timer: NodeJS.Timeout | undefined;
  private countsAt = 0;
  private closed = false;
  /** Set by the first `read`: batches wait for the page to read the one before. */
  private paced = false;
  /** The last row number forwarded, and the last the page said it read. */
  private sentThrough = 0;
  private readThrough = 0;
  private sentAt = 0;

  constructor(private readonly options: StreamSessionOptions) {
    this.head = options.head;
    this.timing = options.timing;
    options.forward?.({ kind: 'head', stream: this.id, head: options.head });
  }

  /** Fires on Stop. */
  get stopSignal(): AbortSignal {
    return this.stopper.signal;
  }

  get stopped(): boolean {
    return this.stopper.signal.aborted;
  }

  stop(): void {
    this.stopper.abort();
  }

  /**
   * A batch from the sender: its rows (in order, as columns, which go on as they are) and the true
   * counts so far. A batch whose columns disagree is refused with a thrown Error.
   */
  add(batch: RowBatch): void {
    if (this.closed) return;
    this.received.add(batch);
    this.total = batch.total;
    this.events = batch.events;
    if (!this.options.forward) {
      this.options.onTaken?.();
      return;
    }
    this.pending.push(batch);
    this.pendingRows += batchLength(batch);
    if (this.pendingRows > 2 * STREAM_LIMITS.liveRows) this.keepNewestPending();
    this.timer ??= setTimeout(() => this.flush(), FORWARD_MS);
  }

  /** The page has drawn the rows up to `n`: the next batch may go once FORWARD_MS have passed since the last. */
  read(n: number): void {
    this.paced = true;
    if (n > this.readThrough) this.readThrough = n;
    if (!this.closed && this.pendingRows > 0 && this.readThrough >= this.sentThrough) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), Math.max(0, FORWARD_MS - (now() - this.sentAt)));
    }
  }

    /**
   * The holders' records made from what arrived, for a stream whose sender never answered (it
   * died): the rows the sender sent, kept by the same rules, with the true counts it last gave.
   */
  keptSoFar(state: StreamState, error?: { code: string; message: string }): KeptStream {
    return this.received.records(state, this.total, this.events, error);
  }

  /** Timing to now: the sender's phases to the headers, then reading the stream. */
  timingNow(): Timing {
    const download = performance.now() - this.headAt;
    return { ...this.timing, download, total: this.timing.total + download };
  }

  /** Sends what is pending; no more rows are taken after this. */
  close(): void {
    this.flush(true);
    this.closed = true;
  }

  private flush(last = false): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { total, events } = this;
    if (!last && this.pendingRows > 0 && ((this.options.backlog?.() ?? 0) > MAX_BACKLOG_BYTES || this.unread(now()))) {
      // The page is behind: try again later, holding only the rows it would keep.
      if (this.pendingRows > STREAM_LIMITS.liveRows) this.keepNewestPending();
      this.timer = setTimeout(() => this.flush(), FORWARD_MS);
      return;
    }
    if (this.pendingRows > 0) {
      const batch = newestRows(this.pending, STREAM_LIMITS.liveRows);
      this.pending = [];
      this.pendingRows = 0;
      this.sentThrough = lastRowNumber(batch);
      this.sentAt = now();
      this.options.forward?.({ kind: 'batch', batch: { ...batch, total, events } });
      if (!last) this.options.onTaken?.();
    }
    const at = now();
    if (this.options.onCounts && at - this.countsAt >= COUNTS_MS) {
      this.countsAt = at;
      this.options.onCounts(total, events);
    }
  }

  private keepNewestPending(): void {
    this.pending = [newestRows(this.pending, STREAM_LIMITS.liveRows)];
    this.pendingRows = batchLength(this.pending[0]!);
  }

  /** A paced page has not read the last batch yet (and it went less than PACE_TIMEOUT_MS ago). */
  private unread(at: number): boolean {
    return this.paced && this.readThrough < this.sentThrough && at - this.sentAt < PACE_TIMEOUT_MS;
  }
}

const now = () => performance.now();

/** The streams running now, by id, for Stop. */
export class OpenStreams {
  private readonly sessions = new Map<string, StreamSession>();

  open(options: StreamSessionOptions): StreamSession {
    const session = new StreamSession(options);
    this.sessions.set(session.id, session);
    return session;
  }

  /** The page read a stream's rows up to `n`; false when no such stream runs. */
  read(id: string, n: number): boolean {
    const session = this.sessions.get(id);
    session?.read(n);
    return session !== undefined;
  }

  /** Stops the stream; false when no such stream runs (it ended already). */
  stop(id: string): boolean {
    const session = this.sessions.get(id);
    session?.stop();
    return session !== undefined;
  }

  /** Sends a message over an open WebSocket session; refused when no such session runs. */
  async sendMessage(id: string, message: SocketMessage): Promise<void> {
    const session = this.sessions.get(id);
    if (!session?.sendMessage) throw new ParleyError('socket-closed', 'The connection is closed: the message was not sent.');
    await session.sendMessage(message);
  }

  /** Half-closes an open gRPC client or bidirectional stream; refused when no such stream runs. */
  async halfClose(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session?.halfClose) throw new ParleyError('socket-closed', 'The call has ended or does not stream requests: nothing to half-close.');
    await session.halfClose();
  }

  close(session: StreamSession): void {
    session.close();
    this.sessions.delete(session.id);
  }
}

/**
 * The rows a stream's batches brought: the first FIRST_ROWS (made into rows as they come; only the
 * first batches hold any) and the batches holding the newest STREAM_LIMITS.liveRows, made into
 * rows only if the sender dies.
 */
class ReceivedRows {
  private readonly early: StreamRow[] = [];
  private late: RowBatch[] = [];
  private lateRows = 0;

  add(batch: RowBatch): void {
    const rows = batch.runs[0] !== undefined && batch.runs[0] <= FIRST_ROWS ? unpackRows(batch) : undefined;
    if (rows) {
      const later = rows.filter((row) => row.n > FIRST_ROWS);
      for (const row of rows) if (row.n <= FIRST_ROWS && this.early.length < FIRST_ROWS) this.early.push(row);
      if (later.length > 0) this.addLate(packRows(later, batch.total, batch.events));
    } else this.addLate(batch);
  }

  records(state: StreamState, total: number, events: number, error?: { code: string; message: string }): KeptStream {
    const late = unpackRows(newestRows(this.late, STREAM_LIMITS.liveRows));
    const make = (limits: (typeof STREAM_LIMITS)['finished' | 'history']): StreamRecord => {
      const retention = new RowRetention(limits);
      for (const row of this.early) retention.add(row);
      for (const row of late) retention.add(row);
      const record = retention.record(state, error);
      // The counts are the stream's, not the rows that arrived here.
      const counted = Math.max(total, retention.total);
      return { ...record, total: counted, events: Math.max(events, retention.events), notKept: counted - record.rows.length };
    };
    return { finished: make(STREAM_LIMITS.finished), history: make(STREAM_LIMITS.history) };
  }

  private addLate(batch: RowBatch): void {
    this.late.push(batch);
    this.lateRows += batchLength(batch);
    // Batches whose rows are all older than the newest liveRows go.
    while (this.late.length > 1 && this.lateRows - batchLength(this.late[0]!) >= STREAM_LIMITS.liveRows) this.lateRows -= batchLength(this.late.shift()!);
  }
}
