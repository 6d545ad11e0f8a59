/** A save's file steps run a bounded number at a time, and a failure is only reported once every started one has settled (a rollback must not race a write still under way). */
import { describe, expect, it } from 'vitest';
import { forEachLimited } from './limited.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('forEachLimited', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachLimited(
      Array.from({ length: 50 }, (_, i) => i),
      async (item) => {
        running++;
        most = Math.max(most, running);
        await tick();
        running--;
        done.push(item);
      },
      4,
    );
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('rejects with the first failure only after every started item has settled, and starts no more', async () => {
    const settled: number[] = [];
    const started: number[] = [];
    const run = forEachLimited(
      Array.from({ length: 20 }, (_, i) => i),
      async (item) => {
        started.push(item);
        if (item === 2) throw new Error('disk full');
        for (let i = 0; i < 5; i++) await tick();
        settled.push(item);
      },
      4,
    );
    await expect(run).rejects.toThrow('disk full');
    // Items 0, 1 and 3 were under way when 2 failed: each finished before the rejection.
    expect(settled.sort((a, b) => a - b)).toEqual([0, 1, 3]);
    expect(started.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
  });
});
