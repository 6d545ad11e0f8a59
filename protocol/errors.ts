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

export interface WireError {
  code: ErrorCode;
  message: string;
  data?: unknown;
}

export class ParleyError extends Error {
  readonly code: ErrorCode;
  readonly data: unknown;

  constructor(code: ErrorCode, message: string, data?: unknown) {
    super(message);
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
  if (isWireError(err)) return { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) };
  if (err instanceof Error && err.name === 'AbortError') return { code: 'cancelled', message: 'Cancelled.' };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: message || 'Internal error.' };
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
