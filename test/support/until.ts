/** Waiting for a condition in a test, on vitest's own poller. */
import { vi } from 'vitest';

/**
 * The first truthy value of `probe` (sync or async), polled every 20 ms; fails after `ms` with
 * vitest's timeout error, or with `why()` when given (say what was seen instead).
 */
export async function until<T>(probe: () => T | Promise<T>, ms = 10_000, why?: () => string) {
  try {
    return await vi.waitUntil(probe, { timeout: ms, interval: 20 });
  } catch (err) {
    if (why) throw new Error(why(), { cause: err });
    throw err;
  }
}
