import { Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { readLines } from './read-lines.js';

async function linesOf(chunks: (string | Buffer)[], max = 1024) {
  const out = [];
  for await (const line of readLines(Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))), max)) out.push(line);
  return out;
}

test('splits across chunk boundaries, drops CR of CRLF, keeps line numbers and a last line without newline', async () => {
  expect(await linesOf(['{"a":', '1}\r\n\n{"b"', ':2}\nlast'])).toEqual([
    { number: 1, text: '{"a":1}', bytes: 8 },
    { number: 2, text: '', bytes: 0 },
    { number: 3, text: '{"b":2}', bytes: 7 },
    { number: 4, text: 'last', bytes: 4 },
  ]);
});

test('a multi-byte character split between chunks decodes whole', async () => {
  const bytes = Buffer.from('{"name":"Zoë ✓"}\n');
  expect(await linesOf([bytes.subarray(0, 12), bytes.subarray(12)])).toEqual([{ number: 1, text: '{"name":"Zoë ✓"}', bytes: bytes.length - 1 }]);
});

test('a line over the cap comes back without its text, and the lines after it are read as usual', async () => {
  const lines = await linesOf(['x'.repeat(30), 'y'.repeat(30), '\nok\n'], 50);
  expect(lines).toEqual([
    { number: 1, text: undefined, bytes: 60 },
    { number: 2, text: 'ok', bytes: 2 },
  ]);
});
