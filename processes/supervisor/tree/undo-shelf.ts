/**
 * What a tree delete took away, kept in memory for its Undo (docs/project-files.md "Tree edits"):
 * each delete's files by a random token, for UNDO_MS and a little more (the click may be on its
 * way), within a total size; the oldest go first past it. Nothing here is written anywhere.
 */
import { randomBytes } from 'node:crypto';
import type { Removed } from '../store/tree-edits.js';

/** How long Undo is offered (the UI's toast shows it as long). */
export const UNDO_MS = 30_000;
/** The toast's Undo may be clicked at 30 s and arrive a moment later. */
const GRACE_MS = 5_000;
/** Bytes held for Undo at once: a deleted API's cached definition can be tens of MB. */
export const UNDO_BYTES = 256 * 1024 * 1024;

interface Shelved {
  root: string;
  removed: Removed;
  bytes: number;
  timer: NodeJS.Timeout;
}

export class UndoShelf {
  private readonly shelved = new Map<string, Shelved>();
  private bytes = 0;

  constructor(
    private readonly keepMs = UNDO_MS + GRACE_MS,
    private readonly maxBytes = UNDO_BYTES,
  ) {}

  /** Keeps `removed` for Undo; its token, or null when it alone is more than may be held. */
  put(root: string, removed: Removed): string | null {
    const bytes = removed.files.reduce((sum, f) => sum + f.content.byteLength, 0);
    if (bytes > this.maxBytes) return null;
    for (const [token] of this.shelved) {
      if (this.bytes + bytes <= this.maxBytes) break;
      this.drop(token);
    }
    const token = randomBytes(12).toString('base64url');
    const timer = setTimeout(() => this.drop(token), this.keepMs);
    timer.unref();
    this.shelved.set(token, { root, removed, bytes, timer });
    this.bytes += bytes;
    return token;
  }

  /** What the delete of `token` in `root` took, once (undefined: expired, used or not this project's). */
  take(root: string, token: string): Removed | undefined {
    const entry = this.shelved.get(token);
    if (!entry || entry.root !== root) return undefined;
    this.drop(token);
    return entry.removed;
  }

  private drop(token: string): void {
    const entry = this.shelved.get(token);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.bytes -= entry.bytes;
    this.shelved.delete(token);
  }
}
