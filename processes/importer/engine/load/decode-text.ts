/**
 * Text from an entry's bytes, and whether it looks like JSON: all that reading a file's head and
 * auto-detect need. Kept apart from parse-text.ts, which brings the YAML parsers, so a job that
 * never parses a definition (a HAR capture) does not load them.
 */

/** UTF-8, or UTF-16 when the bytes start with its byte order mark (Postman on Windows writes that); the BOM is dropped. */
export function decodeText(bytes: Uint8Array): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  const text = new TextDecoder(encoding, { fatal: false }).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function looksLikeJson(text: string): boolean {
  const first = /\S/.exec(text);
  return first !== null && (first[0] === '{' || first[0] === '[');
}
