/**
 * How big the mock log may grow, for every place that holds it (the mock host's ring and batches,
 * the supervisor's log per mock, the UI, `parley mock serve`): docs/mocks.md, "The log". A value
 * from outside reaches an entry only as a short prefix, so an entry has a size of its own
 * (LOG_ENTRY_BYTES_MAX), and a log is bounded in entries and in bytes. Before, a dispatch script's
 * error quoted a 9 MB response name whole; 450 such requests took the mock host past its heap, and
 * the supervisor to 11 GB answering `mocks.log`.
 */
import { boundText } from './errors.js';
import type { MockHeader, MockLogEntry, MockProblem } from './model/mock.js';

/** A path, a name, a header value, a note or a problem: at most this many characters, then an ellipsis. */
export const LOG_TEXT_CHARS = 2_000;
/** One side's headers, the notes and the problems: each at most this many bytes, then a count. */
export const LOG_LIST_BYTES = 16 * 1024;
/** The first bytes of a request or response body an entry shows. */
export const LOG_PREVIEW_BYTES = 16 * 1024;
/**
 * What one entry can come to with every part at its bound: four lists, paths and names, and two
 * previews (16 KiB of a binary body can read as 48 KiB of replacement characters).
 */
export const LOG_ENTRY_BYTES_MAX = 256 * 1024;
/** The newest entries a log keeps, per mock. */
export const LOG_ENTRIES_KEPT = 500;
/** ...and the bytes they may come to together: 500 entries of 32 KiB (two full previews) fit. */
export const LOG_BYTES_KEPT = 16 * 1024 * 1024;
/** A page of `mocks.log`, and a `mock.logged` event: at most this many entries and bytes. */
export const LOG_PAGE_ENTRIES = 200;
export const LOG_PAGE_BYTES = 1024 * 1024;

/** Room the encoding takes besides the text: an entry's keys and numbers, a header's or problem's. */
const ENTRY_OVERHEAD = 256;
const ITEM_OVERHEAD = 24;

/** Bytes of `text` in UTF-8, without encoding it (runs in the page too). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: four bytes for its two units.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** About what an entry takes encoded on the bus (msgpack: its text in UTF-8, plus keys and numbers). */
export function logEntryBytes(e: MockLogEntry): number {
  let bytes = ENTRY_OVERHEAD + e.id.length + e.time.length + utf8Length(e.mock) + utf8Length(e.method) * 2 + utf8Length(e.path) * 2;
  bytes += utf8Length(e.operation) + utf8Length(e.responseName);
  bytes += headersBytes(e.request.headers) + headersBytes(e.response.headers);
  bytes += utf8Length(e.request.body.text) + utf8Length(e.response.body.text);
  for (const p of e.problems) bytes += ITEM_OVERHEAD + utf8Length(p.pointer) + utf8Length(p.message);
  for (const n of e.notes) bytes += ITEM_OVERHEAD + utf8Length(n);
  return bytes;
}

function headersBytes(headers: readonly MockHeader[]): number {
  let bytes = 0;
  for (const h of headers) bytes += ITEM_OVERHEAD + utf8Length(h.name) + utf8Length(h.value);
  return bytes;
}

/** `text` within LOG_TEXT_CHARS (a copy when cut, so a cut never keeps a huge original alive). */
export function boundLogText(text: string): string {
  return boundText(text, LOG_TEXT_CHARS);
}

/**
 * A reply's problems and notes within their bounds: each text within LOG_TEXT_CHARS, each list
 * within LOG_LIST_BYTES, then a note counting what was left out (`more` notes are added after it).
 * The same arrays when nothing needed cutting (the usual case: both empty).
 */
export function boundProblemsAndNotes(problems: readonly MockProblem[], notes: readonly string[], more: readonly string[] = []): { problems: MockProblem[]; notes: string[] } {
  const p = problems.length === 0 ? { kept: problems as MockProblem[], dropped: 0 } : boundList(problems, boundProblem, problemBytes);
  const extra = p.dropped > 0 ? [...more, leftOut(p.dropped, 'contract problem')] : more;
  if (notes.length === 0 && extra.length === 0) return { problems: p.kept, notes: notes as string[] };
  // The notes saying what was left out count within the list too, so bounding twice changes nothing.
  const room = LOG_LIST_BYTES - extra.reduce((sum, note) => sum + noteBytes(note), 0);
  let n = boundList(notes, boundLogText, noteBytes, room);
  if (n.dropped > 0) n = boundList(notes, boundLogText, noteBytes, room - LEFT_OUT_BYTES);
  if (n.dropped === 0 && extra.length === 0) return { problems: p.kept, notes: n.kept };
  return { problems: p.kept, notes: [...n.kept, ...(n.dropped > 0 ? [leftOut(n.dropped, 'note')] : []), ...extra] };
}

function noteBytes(note: string): number {
  return ITEM_OVERHEAD + utf8Length(note);
}

/** Room for one note saying how many items were left out. */
const LEFT_OUT_BYTES = 128;

function leftOut(count: number, what: string): string {
  return `${count.toLocaleString('en')} more ${what}${count === 1 ? ' was' : 's were'} not kept (a log entry keeps ${LOG_LIST_BYTES / 1024} KiB of them).`;
}

/** The items that fit LOG_LIST_BYTES, each bounded first; the same array when all fit as they were. */
function boundList<T>(items: readonly T[], bound: (item: T) => T, sizeOf: (item: T) => number, room = LOG_LIST_BYTES): { kept: T[]; dropped: number } {
  let bytes = 0;
  let cut = false;
  const out: T[] = [];
  for (const item of items) {
    const bounded = bound(item);
    const size = sizeOf(bounded);
    if (bytes + size > room) break;
    if (bounded !== item) cut = true;
    bytes += size;
    out.push(bounded);
  }
  const dropped = items.length - out.length;
  return { kept: !cut && dropped === 0 ? (items as T[]) : out, dropped };
}

function boundProblem(p: MockProblem): MockProblem {
  const pointer = boundLogText(p.pointer);
  const message = boundLogText(p.message);
  return pointer === p.pointer && message === p.message ? p : { in: p.in, pointer, message };
}

function problemBytes(p: MockProblem): number {
  return ITEM_OVERHEAD + utf8Length(p.pointer) + utf8Length(p.message);
}

function boundHeader(h: MockHeader): MockHeader {
  const name = boundLogText(h.name);
  const value = boundLogText(h.value);
  return name === h.name && value === h.value ? h : { name, value };
}

function headerBytes(h: MockHeader): number {
  return ITEM_OVERHEAD + utf8Length(h.name) + utf8Length(h.value);
}

function boundPreview<P extends { text: string; size: number; truncated: boolean }>(preview: P): P {
  if (preview.text.length <= LOG_PREVIEW_BYTES) return preview;
  return { ...preview, text: boundText(preview.text, LOG_PREVIEW_BYTES), truncated: true };
}

/**
 * `e` within every bound of an entry, so it comes to at most LOG_ENTRY_BYTES_MAX: the same object
 * when it already is (the mock host builds entries within them; the supervisor checks what arrives).
 */
export function boundLogEntry(e: MockLogEntry): MockLogEntry {
  const path = boundLogText(e.path);
  const requestPath = e.request.path === e.path ? path : boundLogText(e.request.path);
  const operation = boundLogText(e.operation);
  const responseName = boundLogText(e.responseName);
  const method = boundLogText(e.method);
  const mock = boundLogText(e.mock);
  const requestHeaders = e.request.headers.length === 0 ? { kept: e.request.headers, dropped: 0 } : boundList(e.request.headers, boundHeader, headerBytes);
  const responseHeaders = e.response.headers.length === 0 ? { kept: e.response.headers, dropped: 0 } : boundList(e.response.headers, boundHeader, headerBytes);
  const requestBody = boundPreview(e.request.body);
  const responseBody = boundPreview(e.response.body);
  const more: string[] = [];
  if (requestHeaders.dropped > 0) more.push(leftOut(requestHeaders.dropped, 'request header'));
  if (responseHeaders.dropped > 0) more.push(leftOut(responseHeaders.dropped, 'response header'));
  const { problems, notes } = boundProblemsAndNotes(e.problems, e.notes, more);
  const same =
    path === e.path &&
    requestPath === e.request.path &&
    operation === e.operation &&
    responseName === e.responseName &&
    method === e.method &&
    mock === e.mock &&
    requestHeaders.kept === e.request.headers &&
    responseHeaders.kept === e.response.headers &&
    requestBody === e.request.body &&
    responseBody === e.response.body &&
    problems === e.problems &&
    notes === e.notes;
  if (same) return e;
  return {
    ...e,
    mock,
    method,
    path,
    operation,
    responseName,
    request: { method: e.request.method === e.method ? method : boundLogText(e.request.method), path: requestPath, headers: requestHeaders.kept, body: requestBody },
    response: { status: e.response.status, headers: responseHeaders.kept, body: responseBody },
    problems,
    notes,
  };
}

/**
 * The newest items, oldest first, within `maxEntries` and `maxBytes` together (at least the newest
 * one, which a bounded entry always fits): what a page or an event carries.
 */
export function newestWithin<T>(items: readonly T[], sizeOf: (item: T) => number, maxEntries = LOG_PAGE_ENTRIES, maxBytes = LOG_PAGE_BYTES): T[] {
  let bytes = 0;
  let start = items.length;
  while (start > 0 && items.length - start < maxEntries) {
    const size = sizeOf(items[start - 1] as T);
    if (start < items.length && bytes + size > maxBytes) break;
    bytes += size;
    start--;
  }
  return start === 0 ? [...items] : items.slice(start);
}

/**
 * The newest items, up to `capacity` of them and `maxBytes` together (each item's size given when
 * it is pushed): the oldest go first. The log of a mock host, of the supervisor, of a UI tab. A
 * circular buffer: a push on the mock host's hot path writes one slot and evicts in place.
 */
export class LogRing<T> {
  private items: Array<T | undefined> = [];
  private sizes: number[] = [];
  /** Slot of the oldest item kept, and how many are kept. */
  private head = 0;
  private count = 0;
  private total = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  push(item: T, size = 0): void {
    if (this.count === this.capacity) this.dropOldest();
    const slot = (this.head + this.count) % this.capacity;
    this.items[slot] = item;
    this.sizes[slot] = size;
    this.count++;
    this.total += size;
    while (this.total > this.maxBytes && this.count > 1) this.dropOldest();
  }

  get size(): number {
    return this.count;
  }

  /** Their sizes together. */
  get bytes(): number {
    return this.total;
  }

  /** Oldest first. */
  entries(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.head + i) % this.capacity] as T);
    return out;
  }

  /**
   * A page: the newest items older than the one `isCursor` finds (all of them without a cursor),
   * within a page's entries and bytes, oldest first; `more` when older ones remain. A cursor no
   * longer kept (dropped as the log grew) has nothing older either.
   */
  page(isCursor?: (item: T) => boolean): { items: T[]; more: boolean } {
    // Positions 0 (oldest) .. count - 1 (newest).
    const at = (i: number) => (this.head + i) % this.capacity;
    let end = this.count;
    if (isCursor) {
      end = 0;
      for (let i = this.count - 1; i >= 0; i--) {
        if (isCursor(this.items[at(i)] as T)) {
          end = i;
          break;
        }
      }
    }
    let bytes = 0;
    let start = end;
    while (start > 0 && end - start < LOG_PAGE_ENTRIES) {
      const size = this.sizes[at(start - 1)] as number;
      if (start < end && bytes + size > LOG_PAGE_BYTES) break;
      bytes += size;
      start--;
    }
    const items: T[] = [];
    for (let i = start; i < end; i++) items.push(this.items[at(i)] as T);
    return { items, more: start > 0 };
  }

  clear(): void {
    this.items = [];
    this.sizes = [];
    this.head = 0;
    this.count = 0;
    this.total = 0;
  }

  private dropOldest(): void {
    this.total -= this.sizes[this.head] as number;
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
  }
}
