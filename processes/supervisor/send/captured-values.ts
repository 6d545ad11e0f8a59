/**
 * Values captured from responses (docs/captures.md), held in memory only: the app keeps one set
 * per open project for its session, `parley run` one set for the run. Never written anywhere;
 * what is recorded of a send that used a credential among them has it masked by value, and what
 * the page is told of them (`shown`) masks a credential and cuts a long value.
 */
import { MASK } from '../../../protocol/credentials/index.js';
import type { CapturedVariable } from '../../../protocol/model/capture.js';
import type { Row } from '../../../protocol/model/common.js';

/** What a result or the page shows of a value: at most this many characters. */
export const SHOWN_CHARS = 500;

/** A value as shown: the mask for a credential, else its first SHOWN_CHARS characters. */
export function shownValue(value: string, credential: boolean): string {
  if (credential) return MASK;
  return value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
}

export class CapturedValues {
  private readonly values = new Map<string, { value: string; credential: boolean; shown: string; from?: string }>();

  /** `onChange`: told after each change (the app tells its pages). */
  constructor(private readonly onChange?: () => void) {}

  /**
   * `shown`: what the page may see of it (a result's value, with the send's secrets taken out);
   * default `shownValue`. `from`: the request whose capture set it.
   */
  set(name: string, value: string, credential: boolean, shown = shownValue(value, credential), from?: string): void {
    // Re-set, the name moves last: the newest capture is listed last.
    this.values.delete(name);
    this.values.set(name, { value, credential, shown, ...(from !== undefined ? { from } : {}) });
    this.onChange?.();
  }

  delete(name: string): void {
    if (this.values.delete(name)) this.onChange?.();
  }

  /** Forgets the values `names`, or every value; told once. */
  clear(names?: readonly string[]): void {
    const before = this.values.size;
    if (names === undefined) this.values.clear();
    else for (const name of names) this.values.delete(name);
    if (this.values.size !== before) this.onChange?.();
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

  /** What the page is told: each name with its shown value. */
  shown(): CapturedVariable[] {
    return [...this.values].map(([name, { shown, credential, from }]) => ({ name, value: shown, ...(credential ? { credential } : {}), ...(from !== undefined ? { from } : {}) }));
  }

  /** The values captured as credentials: masked by value in whatever records a send. */
  credentialValues(): string[] {
    const out: string[] = [];
    for (const { value, credential } of this.values.values()) if (credential && value !== '') out.push(value);
    return out;
  }
}
