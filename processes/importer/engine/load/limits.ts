/**
 * Caps on what one import may read. SPEC names no OpenAPI limit; these follow the other
 * formats' 50 MB (OpenCollection) so one rule holds across importers.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { ImportDeadlines } from '../../../../protocol/model/import.js';

export interface LoadLimits {
  /** Bytes over every document read by one job. */
  totalBytes: number;
  /** Documents read by one job (entry, $ref targets, Swagger 1.x declarations). */
  documents: number;
  /** Redirect hops per fetch. */
  redirects: number;
}

export const DEFAULT_LIMITS: LoadLimits = { totalBytes: 50 * 1024 * 1024, documents: 1000, redirects: 10 };

/**
 * How long reading may take. One document's fetch (every redirect hop, the headers and the whole
 * body) gets 2 minutes: 50 MB, the most one import reads, arrives in that time at about 3.5 Mbit/s.
 * The whole job gets 5 minutes. Beside them, undici's 30 s until headers and between body chunks
 * still applies, so a server that stops sending is given up sooner.
 */
export const DEFAULT_DEADLINES: ImportDeadlines = { fetchMs: 2 * 60_000, jobMs: 5 * 60_000 };

/** A duration as messages say it: "2 minutes", "45 s", "300 ms". */
export function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
  if (ms >= 1000) return `${Math.round(ms / 100) / 10} s`;
  return `${ms} ms`;
}

/** One document's fetch passed its deadline: a document that could not be read. */
export function fetchDeadlineError(shown: string, ms: number): ParleyError {
  return new ParleyError(
    'import-fetch-deadline',
    `${shown} was not read: it did not arrive within ${describeDuration(ms)}, the most one document may take (the server may be slow, or sending it a little at a time).`,
    { url: shown, deadlineMs: ms },
  );
}

/** The whole job passed its deadline: the import stops. */
export function jobDeadlineError(shown: string | undefined, ms: number): ParleyError {
  const where = shown === undefined ? '' : ` while reading ${shown}`;
  return new ParleyError('import-job-deadline', `The import was stopped${where}: it took longer than ${describeDuration(ms)}, the most one import may take.`, {
    ...(shown === undefined ? {} : { url: shown }),
    deadlineMs: ms,
  });
}

/** The import ran out of its heap: said by the importer when its job thread does, by the supervisor when the whole process does. */
export function importOutOfMemoryError(memoryMb: number): ParleyError {
  return new ParleyError('import-out-of-memory', `The import ran out of memory (the importer may use ${memoryMb} MB for a source of this size) and was stopped; nothing was changed.`, { memoryMb });
}

/** Counts what a job has read and refuses the read that would pass a cap. */
export class ReadBudget {
  private bytes = 0;
  private documents = 0;

  constructor(readonly limits: LoadLimits = DEFAULT_LIMITS) {}

  /** Bytes still allowed for the next document. */
  remainingBytes(): number {
    return this.limits.totalBytes - this.bytes;
  }

  startDocument(what: string): void {
    if (this.documents >= this.limits.documents) {
      throw new ParleyError('import-too-large', `${what} was not read: the import already read ${this.limits.documents} documents, the most one import may read.`, { limit: 'documents' });
    }
    this.documents += 1;
  }

  addBytes(count: number, what: string): void {
    this.bytes += count;
    if (this.bytes > this.limits.totalBytes) throw tooLarge(what, this.limits.totalBytes);
  }
}

export function tooLarge(what: string, limit: number): ParleyError {
  const mb = Math.round(limit / (1024 * 1024));
  return new ParleyError('import-too-large', `${what} was refused: an import may read at most ${mb} MB in all.`, { limit: 'bytes', bytes: limit });
}
