/**
 * The one progress line an import or update shows on a terminal: rewritten in place on stderr,
 * erased before the report. Off when stderr is not a TTY, so logs and CI output get only errors.
 */
import type { ImportProgress } from '../../protocol/model/import.js';

/** Redraws at most this often; a large import reports thousands of steps. */
const REDRAW_MS = 80;

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): boolean;
}

export class ProgressLine {
  private readonly enabled: boolean;
  private shown = false;
  private lastDraw = 0;
  private lastPhase: string | undefined;

  constructor(private readonly stream: ProgressStream) {
    this.enabled = stream.isTTY === true;
  }

  show(progress: ImportProgress): void {
    if (!this.enabled) return;
    const now = Date.now();
    // A new phase is always drawn, so a slow step never hides behind the previous one's text.
    if (progress.phase === this.lastPhase && now - this.lastDraw < REDRAW_MS) return;
    this.lastPhase = progress.phase;
    this.lastDraw = now;
    const count = progress.total ? ` (${progress.done ?? 0}/${progress.total})` : progress.done !== undefined ? ` (${progress.done})` : '';
    // A pseudo-terminal without a size reports 0 columns.
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    let text = `${progress.message.replace(/\s+/g, ' ')}${count}`;
    if (text.length > width) text = `${text.slice(0, width - 1)}…`;
    this.stream.write(`\r\x1b[K${text}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
