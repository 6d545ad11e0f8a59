/**
 * The mock's own error answers: RFC 9457 problem details as JSON, always with a stable `code`
 * (documented in docs/mock-files.md, "Answers the mock makes itself").
 */

export type MockErrorCode =
  | 'mock-host-refused'
  | 'mock-target-refused'
  | 'mock-host-repeated'
  | 'mock-no-route'
  | 'mock-body-too-large'
  | 'mock-contract-refused'
  | 'mock-template-refused'
  | 'mock-script-failed'
  | 'mock-script-timeout'
  | 'mock-no-response'
  | 'mock-internal';

export interface ProblemReply {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

export function problemReply(status: number, code: MockErrorCode, title: string, detail: string, extra: Record<string, unknown> = {}): ProblemReply {
  const body = Buffer.from(JSON.stringify({ type: 'about:blank', title, status, detail, code, ...extra }));
  return { status, headers: [['Content-Type', 'application/problem+json']], body };
}
