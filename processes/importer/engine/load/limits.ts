/**
 * Caps on what one import may read. SPEC names no OpenAPI limit; these follow the other
 * formats' 50 MB (OpenCollection) so one rule holds across importers.
 */
import { ParleyError } from '../../../../protocol/errors.js';

export interface LoadLimits {
  /** Bytes over every document read by one job. */
  totalBytes: number;
  /** Documents read by one job (entry, $ref targets, Swagger 1.x declarations). */
  documents: number;
  /** Redirect hops per fetch. */
  redirects: number;
}

export const DEFAULT_LIMITS: LoadLimits = { totalBytes: 50 * 1024 * 1024, documents: 1000, redirects: 10 };

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
