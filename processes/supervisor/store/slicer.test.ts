import { readFile, stat } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ioTurn } from './slicer.js';

/**
 * Runs `step` inside an I/O callback, after starting a second piece of I/O that completes while
 * the callback is still busy; tells whether that I/O's callback had run once `step` resolved.
 */
function ioSeenAfter(step: () => Promise<void>): Promise<boolean> {
  return new Promise((resolve, reject) => {
    readFile(import.meta.filename, (err) => {
      if (err) return reject(err);
      let seen = false;
      stat(import.meta.filename, () => (seen = true));
      const until = performance.now() + 100;
      while (performance.now() < until); // the stat completes meanwhile, on the thread pool
      void step().then(() => resolve(seen), reject);
    });
  });
}

describe('ioTurn', () => {
  it('takes in the I/O that became ready while an I/O callback ran, where one setImmediate does not', async () => {
    expect(await ioSeenAfter(() => turn())).toBe(false);
    expect(await ioSeenAfter(ioTurn)).toBe(true);
  });
});
