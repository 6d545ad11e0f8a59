import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { runInOrder } from './in-order.js';

async function* numbers(n: number) {
  for (let i = 0; i < n; i++) yield i;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('results come out in input order whatever order the work finishes in, never more than the limit in flight', async () => {
  let inFlight = 0;
  let most = 0;
  const out: number[] = [];
  await runInOrder(
    numbers(40),
    4,
    async (i) => {
      most = Math.max(most, ++inFlight);
      await sleep((i * 7) % 5);
      inFlight--;
      return i * 10;
    },
    (result) => void out.push(result),
  );
  expect(out).toEqual(Array.from({ length: 40 }, (_, i) => i * 10));
  expect(most).toBe(4);
});

test('a result is handed on while the next item has not arrived yet (a pipe fed line by line)', async () => {
  const input = new PassThrough({ objectMode: true });
  const out: string[] = [];
  const run = runInOrder(input as AsyncIterable<string>, 32, async (s) => s.toUpperCase(), (r) => void out.push(r));
  input.write('a');
  for (let i = 0; i < 50 && out.length === 0; i++) await sleep(5);
  expect(out).toEqual(['A']);
  input.end('b');
  await run;
  expect(out).toEqual(['A', 'B']);
});

test('when reading fails, the work already started is handed on before the error', async () => {
  async function* failing() {
    yield 1;
    yield 2;
    throw new Error('the file ended early');
  }
  const out: number[] = [];
  await expect(runInOrder(failing(), 8, async (i) => i, (r) => void out.push(r))).rejects.toThrow('the file ended early');
  expect(out).toEqual([1, 2]);
});
