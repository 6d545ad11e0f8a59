/** gRPC status codes (grpc/doc/statuscodes.md) by number and by name: a call's answer is named, assertions may name it. */
export const GRPC_STATUS_NAMES: readonly string[] = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/** The name of a status code (`DEADLINE_EXCEEDED`); a code outside the list as `CODE_<n>`. */
export function grpcStatusName(code: number): string {
  return GRPC_STATUS_NAMES[code] ?? `CODE_${code}`;
}

/** The code a status name (any case) or number text names, or undefined. */
export function grpcStatusCode(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const i = GRPC_STATUS_NAMES.indexOf(t.toUpperCase());
  return i < 0 ? undefined : i;
}
