import { ParleyError } from '../../../protocol/errors.js';
import { durationText } from './send-errors.js';

/**
 * One abort signal for a send, fired by the caller's cancel or by the headers timeout. The
 * timeout governs only until the final response's headers arrive; a slow body is not cut.
 */
export class SendControl {
  readonly #controller = new AbortController();
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.#abort('cancelled');
  #timer: NodeJS.Timeout | undefined;
  #reason: 'timeout' | 'cancelled' | undefined;
  readonly #timeoutMs: number;
  #host: string;

  constructor(timeoutMs: number, external: AbortSignal | undefined, host: string) {
    this.#timeoutMs = timeoutMs;
    this.#host = host;
    this.#external = external;
    if (external?.aborted) this.#abort('cancelled');
    else external?.addEventListener('abort', this.#onExternalAbort, { once: true });
    if (timeoutMs > 0 && this.#reason === undefined) this.#timer = setTimeout(() => this.#abort('timeout'), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The host named by a timeout message: the hop being waited on. */
  set host(host: string) {
    this.#host = host;
  }

  /** Throws at once when the send was cancelled (between steps that do not watch the signal). */
  throwIfStopped(): void {
    if (this.#reason !== undefined) throw this.#error();
  }

  /** The final response's headers are in: from now on only a cancel stops the send. */
  headersArrived(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The error to report for a failure: the timeout or cancel that caused it, if any. */
  stoppedError(): ParleyError | undefined {
    return this.#reason === undefined ? undefined : this.#error();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
  }

  #abort(reason: 'timeout' | 'cancelled'): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    clearTimeout(this.#timer);
    this.#controller.abort(this.#error());
  }

  #error(): ParleyError {
    return this.#reason === 'timeout'
      ? new ParleyError('timeout', `No response headers from ${this.#host} within ${durationText(this.#timeoutMs)} (the request's timeout).`, { host: this.#host, timeoutMs: this.#timeoutMs })
      : new ParleyError('cancelled', `The request to ${this.#host} was cancelled.`, { host: this.#host });
  }
}
