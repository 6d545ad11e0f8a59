/**
 * Runs work over a stream of items with a bounded number in flight and hands the results on
 * strictly in input order. Reading and handing on run side by side: a result goes out as soon
 * as it and every one before it are done, even while the next item has not arrived (a batch fed
 * line by line through a pipe gets each answer at once), and reading waits while the window is
 * full, so memory stays bounded whatever the size of the input.
 * `work` must not reject (a check answers every outcome as a verdict). When reading the items
 * fails, the work already started is still handed on before the error is thrown.
 */
export async function runInOrder<T, R>(
  items: AsyncIterable<T>,
  limit: number,
  work: (item: T) => Promise<R>,
  emit: (result: R, item: T) => void | Promise<void>,
): Promise<void> {
  const pending: { item: T; result: Promise<R> }[] = [];
  let readingDone = false;
  let emitFailed = false;
  let wakeEmitter: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const nudgeEmitter = () => {
    wakeEmitter?.();
    wakeEmitter = undefined;
  };
  const nudgeReader = () => {
    wakeReader?.();
    wakeReader = undefined;
  };

  const emitter = (async () => {
    for (;;) {
      const oldest = pending[0];
      if (!oldest) {
        if (readingDone) return;
        await new Promise<void>((resolve) => (wakeEmitter = resolve));
        continue;
      }
      await emit(await oldest.result, oldest.item);
      pending.shift();
      nudgeReader();
    }
  })();
  emitter.catch(() => {
    emitFailed = true;
    nudgeReader();
  });

  try {
    for await (const item of items) {
      while (pending.length >= limit && !emitFailed) await new Promise<void>((resolve) => (wakeReader = resolve));
      if (emitFailed) break;
      pending.push({ item, result: work(item) });
      nudgeEmitter();
    }
  } finally {
    readingDone = true;
    nudgeEmitter();
    await emitter;
  }
}
