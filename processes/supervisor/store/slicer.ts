/** Long work on the supervisor's event loop, cut into slices between which the loop runs. */
import { setImmediate as turn } from 'node:timers/promises';

/** Work between two turns of the event loop: short enough that the UI's calls wait little. */
export const SLICE_MS = 8;

/** Gives the event loop a turn (timers, sockets, the UI's calls) once the current slice has run SLICE_MS. */
export class Slicer {
  private started = performance.now();

  /**
   * True once the current slice has run SLICE_MS; the caller then awaits `turn()`. Asked per item
   * in loops over thousands of files, so it makes no promise: an `await` per item cost a 5,000-file
   * open tens of ms, more with the crash policy's AsyncLocalStorage, which hooks every promise.
   */
  due(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /** The event loop's turn; the next slice starts after it. */
  async turn(): Promise<void> {
    await turn();
    this.started = performance.now();
  }
}

/**
 * A turn of the event loop that takes in the I/O waiting meanwhile (the UI's calls). From an I/O
 * callback, a single setImmediate runs before the loop next polls for I/O, so work on both sides
 * of it would hold the loop as one block; the second one runs after the poll.
 */
export async function ioTurn(): Promise<void> {
  await turn();
  await turn();
}
