/**
 * A WebSocket close code and reason as people read them (RFC 6455 section 7.4.1, and the
 * registry's later codes); graphql-ws's own (4400 and up) are named by their reason.
 */
const NAMES = new Map<number, string>([
  [1000, 'normal closure'],
  [1001, 'going away'],
  [1002, 'protocol error'],
  [1003, 'unsupported data'],
  [1005, 'no status code'],
  [1006, 'closed without a close frame'],
  [1007, 'invalid message data'],
  [1008, 'policy violation'],
  [1009, 'message too big'],
  [1010, 'a needed extension is missing'],
  [1011, 'internal server error'],
  [1012, 'service restart'],
  [1013, 'try again later'],
  [1014, 'bad gateway'],
  [1015, 'TLS handshake failed'],
]);

/** `1011 (internal server error): the reason`; a reason from the server is quoted, cut at 123 bytes as the frame holds. */
export function closeText(code: number, reason: string): string {
  const name = NAMES.get(code);
  const said = reason === '' ? '' : `: ${JSON.stringify(reason.slice(0, 123))}`;
  return `${code}${name ? ` (${name})` : ''}${said}`;
}
