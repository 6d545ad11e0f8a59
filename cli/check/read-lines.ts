/**
 * Lines of a JSON Lines stream, read as the consumer asks for them, so a file of any size is
 * never held in memory at once. Written here rather than with node:readline because a line must
 * have a length cap (one endless line must not eat the memory) and must keep its line number.
 * Splitting on the newline byte is safe for UTF-8: 0x0A never occurs inside a multi-byte character.
 */
import type { Readable } from 'node:stream';

export interface Line {
  /** 1-based line number in the stream. */
  number: number;
  /** The line without its newline (and without a trailing CR), or undefined when it was over the cap. */
  text: string | undefined;
  /** The line's length in bytes, also when it was over the cap. */
  bytes: number;
}

export async function* readLines(stream: Readable, maxLineBytes: number): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8');
  let parts: Buffer[] = [];
  let held = 0;
  let length = 0;
  let number = 0;
  const finish = (): Line => {
    number++;
    const over = length > maxLineBytes;
    let text: string | undefined;
    if (!over) {
      text = decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts, held));
      if (text.endsWith('\r')) text = text.slice(0, -1);
    }
    const line: Line = { number, text, bytes: length };
    parts = [];
    held = 0;
    length = 0;
    return line;
  };
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let nl = bytes.indexOf(0x0a, start); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
      keep(bytes.subarray(start, nl));
      yield finish();
      start = nl + 1;
    }
    keep(bytes.subarray(start));
  }
  if (length > 0) yield finish();

  function keep(piece: Buffer): void {
    length += piece.length;
    // Past the cap only the count goes on; the bytes are let go.
    if (length > maxLineBytes) {
      parts = [];
      held = 0;
      return;
    }
    if (piece.length > 0) {
      parts.push(piece);
      held += piece.length;
    }
  }
}
