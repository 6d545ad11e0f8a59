/**
 * What each of this session's newest exchanges must leave nowhere it is written: the secret
 * values it used and the credential values it carried (see record.ts). History and the HTTP Log
 * redact a send as it is recorded; Save as example comes later, with the response the UI holds,
 * and finds the same values here by the exchange's id, so an example is redacted as History's
 * entry was. In the supervisor's memory only, never sent anywhere; the newest LIMIT are kept.
 */
import { ParleyError } from '../../../protocol/errors.js';

export interface Redaction {
  /** Secret values by name: each becomes its `${secret:name}` reference. */
  secrets: Map<string, string>;
  /** Credential values the exchange carried (protocol/credentials/carried.ts): each becomes the mask. */
  carried: readonly string[];
}

/** As many exchanges as the HTTP Log keeps. */
export const LIMIT = 1_000;

export class ExchangeRedactions {
  private readonly kept = new Map<string, Redaction>();

  constructor(private readonly limit = LIMIT) {}

  keep(exchangeId: string, redaction: Redaction): void {
    this.kept.set(exchangeId, redaction);
    // A Map iterates in insertion order: the first key is the oldest.
    while (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
  }

  /** The redaction of an exchange of this session; refused when it is not (or no longer) kept. */
  of(exchangeId: string): Redaction {
    const found = this.kept.get(exchangeId);
    if (found) return found;
    throw new ParleyError(
      'not-found',
      `Not saved: this response is not among this session's newest ${this.limit.toLocaleString('en-US')} exchanges, whose secret and credential values Parley keeps only to mask them. Send the request again and save that response.`,
    );
  }
}
