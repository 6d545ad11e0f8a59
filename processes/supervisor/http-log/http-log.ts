/**
 * The HTTP Log: every exchange of this session, from every project, in the supervisor's memory
 * until it quits (SPEC "Events" 6, "Limits"). An exchange is logged as History records it
 * (credentials masked, bodies' first 256 KB), so what the view shows and HAR export writes holds
 * no secret; an event stream is kept as a multi-message exchange, its first 400 and last 4,600
 * rows within 32 MB. The newest MAX_ENTRIES exchanges and MAX_BYTES of their bodies and rows are
 * kept; older ones go first, and the log counts them.
 *
 * For Re-send, a logged send also keeps what it put on the wire (its SendSpec, with the secret
 * values it used to mask them in what is recorded), here only: it never leaves the supervisor.
 * A streamed exchange keeps none: re-sending one is refused.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { Timing } from '../../../protocol/model/exchange.js';
import type { HistoryEntry, RecordedResponse, SentRequest } from '../../../protocol/model/history.js';
import type { HttpLogEntry, HttpLogRow, LoggedHop } from '../../../protocol/model/http-log.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import { rowBytes } from '../../sender/engine/stream-retention.js';

export const MAX_ENTRIES = 1_000;
export const MAX_BYTES = 256 * 1024 * 1024;

/** What a logged send needs to go out again (see the module comment). */
export interface ResendSource<T> {
  project: string;
  /** Opaque to the log: the sender's spec and what the send used. */
  send: T;
}

interface Kept<T> {
  entry: HttpLogEntry;
  bytes: number;
  resend?: ResendSource<T>;
}

export interface LogStart<T> {
  at: string;
  project: string;
  requestId: string;
  requestName: string;
  request: SentRequest;
  redacted: boolean;
  resend?: ResendSource<T>;
}

/** One send's place in the log, filled in as the send goes. */
export interface LogHandle {
  readonly id: string;
  /** An event stream's headers arrived: the row shows it open. */
  streamOpened(status: number, statusText: string): void;
  /** An open stream's counts so far. */
  streamCounts(total: number, events: number): void;
  /** The response, as History records it (a stream with its rows). */
  finished(response: RecordedResponse, extra: { httpVersion: string; timing: Timing; hops?: LoggedHop[]; verdict?: Verdict; redacted: boolean }): void;
  failed(error: { code: string; message: string }): void;
}

/** About what a send's hops hold: their header text and URLs. */
function hopBytes(hops: readonly LoggedHop[] | undefined): number {
  let bytes = 0;
  for (const hop of hops ?? []) {
    bytes += hop.url.length;
    for (const [name, value] of hop.requestHeaders) bytes += name.length + value.length;
    for (const [name, value] of hop.headers) bytes += name.length + value.length;
  }
  return bytes;
}

export class HttpLog<T = unknown> {
  private readonly entries = new Map<string, Kept<T>>();
  private bytes = 0;
  /** Exchanges let go (the oldest first) to stay within the limits. */
  private droppedCount = 0;
  private nextId = 1;

  constructor(
    private readonly onChange: (change: { row?: HttpLogRow; cleared?: boolean }) => void = () => {},
    private readonly limits = { entries: MAX_ENTRIES, bytes: MAX_BYTES },
  ) {}

  begin(start: LogStart<T>): LogHandle {
    const id = `x${this.nextId++}`;
    const row: HttpLogRow = {
      id,
      at: start.at,
      project: start.project,
      requestId: start.requestId,
      requestName: start.requestName,
      method: start.request.method,
      url: start.request.url,
      redacted: start.redacted,
    };
    const kept: Kept<T> = { entry: { row, request: start.request }, bytes: start.request.body.length, ...(start.resend ? { resend: start.resend } : {}) };
    this.entries.set(id, kept);
    this.bytes += kept.bytes;
    this.trim();
    this.onChange({ row });
    const update = (change: (entry: HttpLogEntry) => void) => {
      if (!this.entries.has(id)) return;
      change(kept.entry);
      this.onChange({ row: kept.entry.row });
    };
    return {
      id,
      streamOpened: (status, statusText) =>
        update((e) => {
          e.row = { ...e.row, status, statusText, stream: { state: 'open', total: 0, events: 0 } };
          // A streamed exchange is never re-sent from the log.
          delete kept.resend;
        }),
      streamCounts: (total, events) => update((e) => void (e.row = { ...e.row, stream: { state: 'open', total, events } })),
      finished: (response, extra) =>
        update((e) => {
          e.response = response;
          e.httpVersion = extra.httpVersion;
          e.timing = extra.timing;
          if (extra.hops) e.hops = extra.hops;
          if (extra.verdict) e.verdict = extra.verdict;
          const { stream } = response;
          e.row = {
            ...e.row,
            status: response.status,
            statusText: response.statusText,
            timeMs: extra.timing.total,
            size: response.size,
            redacted: e.row.redacted || extra.redacted,
            ...(stream ? { stream: { state: stream.state, total: stream.total, events: stream.events } } : {}),
          };
          const bytes = response.body.length + (stream ? stream.rows.reduce((sum, r) => sum + rowBytes(r), 0) : 0) + hopBytes(extra.hops);
          this.bytes += bytes;
          kept.bytes += bytes;
          this.trim();
        }),
      failed: (error) => update((e) => void (e.row = { ...e.row, error })),
    };
  }

  /** Newest first. */
  list(): { rows: HttpLogRow[]; dropped: number } {
    return { rows: [...this.entries.values()].reverse().map((k) => k.entry.row), dropped: this.droppedCount };
  }

  get(id: string): HttpLogEntry {
    return this.kept(id).entry;
  }

  /** The chosen entries in log order (oldest first), for HAR export. */
  pick(ids: readonly string[]): HttpLogEntry[] {
    const wanted = new Set(ids);
    const out: HttpLogEntry[] = [];
    for (const [id, kept] of this.entries) if (wanted.has(id)) out.push(kept.entry);
    if (out.length === 0) throw new ParleyError('not-found', 'None of the chosen exchanges is in the HTTP Log any more.');
    return out;
  }

  /** What a row needs to go out again; a streamed row is refused (SPEC Errors). */
  resendSource(id: string): ResendSource<T> {
    const kept = this.kept(id);
    if (kept.entry.row.stream) {
      throw new ParleyError('stream-resend-refused', 'A streamed exchange cannot be re-sent from the HTTP Log: send its request again from the request’s tab.');
    }
    if (!kept.resend) throw new ParleyError('not-found', 'This exchange cannot be re-sent: what it sent is not kept.');
    return kept.resend;
  }

  /** The entry as History's Copy as cURL reads one. */
  asHistoryEntry(id: string): HistoryEntry {
    const { row, request, response, verdict } = this.get(id);
    return { id: row.id, at: row.at, requestId: row.requestId, request, ...(response ? { response } : {}), ...(verdict ? { verdict } : {}), redacted: row.redacted };
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.droppedCount = 0;
    this.onChange({ cleared: true });
  }

  private kept(id: string): Kept<T> {
    const kept = this.entries.get(id);
    if (!kept) throw new ParleyError('not-found', 'That exchange is no longer in the HTTP Log (it keeps this session’s newest exchanges).');
    return kept;
  }

  private trim(): void {
    while (this.entries.size > 1 && (this.entries.size > this.limits.entries || this.bytes > this.limits.bytes)) {
      const [oldest, kept] = this.entries.entries().next().value as [string, Kept<T>];
      this.entries.delete(oldest);
      this.bytes -= kept.bytes;
      this.droppedCount++;
    }
  }
}
