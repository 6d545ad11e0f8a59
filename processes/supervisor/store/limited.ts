/** File work of a big save run a bounded number at a time. */

/**
 * How many file operations of one save are under way at once. The thread pool runs four; a few
 * more queued behind them keep it busy (and let the disk merge fsyncs into one journal commit)
 * while a UI call's own file read waits behind at most a handful.
 */
export const FILE_OPS_AT_ONCE = 16;

/** Runs `fn` on every item, at most `limit` at once; rejects with the first failure once every started call has settled. */
export async function forEachLimited<T>(items: Iterable<T>, fn: (item: T, index: number) => Promise<unknown>, limit = FILE_OPS_AT_ONCE): Promise<void> {
  const list = [...items];
  let next = 0;
  let failed: { err: unknown } | null = null;
  const worker = async () => {
    while (next < list.length && !failed) {
      const i = next++;
      try {
        await fn(list[i]!, i);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
  if (failed) throw (failed as { err: unknown }).err;
}
