/**
 * Errors cross process boundaries as `{ code, message, data? }`. Code branches on `code`,
 * never on message text or `instanceof` across a boundary.
 */
export type ErrorCode =
  // bus
  | 'bad-frame'
  | 'frame-too-large'
  | 'bad-message'
  | 'version-mismatch'
  | 'unknown-method'
  | 'invalid-payload'
  | 'peer-closed'
  | 'cancelled'
  // processes
  | 'child-died'
  | 'child-hung'
  | 'budget-exceeded'
  | 'shutting-down'
  // store
  | 'load-failed'
  | 'schema-violation'
  | 'save-failed'
  | 'path-escape'
  | 'not-found'
  | 'conflict'
  | 'version-too-new'
  // generic
  | 'bad-input'
  | 'internal'
  | (string & {});

/**
 * The longest message an error carries: room for any sentence of ours with its names, never a
 * whole value from outside (a 60 MB path echoed back was held, encoded and logged 12 times over).
 */
export const MAX_MESSAGE_LENGTH = 2_000;

/** `text` cut to `max` characters with an ellipsis, copied so a cut never keeps a huge original alive. */
export function boundText(text: string, max = MAX_MESSAGE_LENGTH): string {
  if (text.length <= max) return text;
  // A slice of a V8 string points into the original; a JSON round trip makes a string of its own.
  return JSON.parse(JSON.stringify(`${text.slice(0, max - 1)}…`)) as string;
}

/** A value from outside quoted for a message: its first `max` characters, and its length when cut. */
export function quote(text: string, max = 80): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(boundText(text, max))} (${text.length.toLocaleString('en')} characters)`;
}

export interface WireError {
  code: ErrorCode;
  message: string;
  data?: unknown;
}

export class ParleyError extends Error {
  readonly code: ErrorCode;
  readonly data: unknown;

  constructor(code: ErrorCode, message: string, data?: unknown) {
    super(boundText(message));
    this.name = 'ParleyError';
    this.code = code;
    this.data = data;
  }

  toWire(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromWire(wire: WireError): ParleyError {
    return new ParleyError(wire.code, wire.message, wire.data);
  }
}

/** Turns anything thrown into a wire error without leaking stack traces to the other side. */
export function toWireError(err: unknown): WireError {
  if (err instanceof ParleyError) return err.toWire();
  if (isWireError(err)) return { code: err.code, message: boundText(err.message), ...(err.data === undefined ? {} : { data: err.data }) };
  if (err instanceof Error && err.name === 'AbortError') return { code: 'cancelled', message: 'Cancelled.' };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: boundText(message) || 'Internal error.' };
}

export function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WireError).code === 'string' &&
    typeof (value as WireError).message === 'string'
  );
}

export function hasCode(err: unknown, code: ErrorCode): boolean {
  return isWireError(err) && err.code === code;
}
