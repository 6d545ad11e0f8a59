/**
 * Values captured from responses (docs/captures.md), held in memory only: the app keeps one set
 * per open project for its session, a run one set for the run. Never written anywhere; what is
 * recorded of a send that used a credential among them has it masked by value.
 */
import type { Row } from '../../../protocol/model/common.js';

export class CapturedValues {
  private readonly values = new Map<string, { value: string; credential: boolean }>();

  set(name: string, value: string, credential: boolean): void {
    // Re-set, the name moves last: the newest capture is listed last.
    this.values.delete(name);
    this.values.set(name, { value, credential });
  }

  delete(name: string): void {
    this.values.delete(name);
  }

  get(name: string): string | undefined {
    return this.values.get(name)?.value;
  }

  get size(): number {
    return this.values.size;
  }

  /** As rows for the expansion scope (`ExpansionScope.captured`). */
  rows(): Row[] {
    return [...this.values].map(([name, { value }]) => ({ name, value, enabled: true }));
  }

  /** The values captured as credentials: masked by value in whatever records a send. */
  credentialValues(): string[] {
    const out: string[] = [];
    for (const { value, credential } of this.values.values()) if (credential && value !== '') out.push(value);
    return out;
  }
}
