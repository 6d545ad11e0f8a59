/** Long work on the supervisor's event loop, cut into slices between which the loop runs. */

/** Work between two turns of the event loop: short enough that the UI's calls wait little. */
export const SLICE_MS = 8;

/** Gives the event loop a turn (timers, sockets, the UI's calls) once the current slice has run SLICE_MS. */
export class Slicer {
  private started = performance.now();

  async tick(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
