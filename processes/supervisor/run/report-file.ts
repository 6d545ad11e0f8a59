/**
 * Where a file report goes while the run goes on. The JSON and JUnit reports open with the run's
 * totals (`"summary"` first, `<testsuites tests=…>`), known only at its end, and their body is
 * one entry per request: the body is written to a temp file as the outcomes come, then the head,
 * the body (copied as a stream) and the tail go to the report's file or to standard output. The
 * report is never in memory; a run of a million requests costs disk, not RSS.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Text is handed to the temp file in pieces of about this size: one write per outcome costs more than the outcome. */
const BATCH_CHARS = 64 * 1024;

/** Where the finished report goes: a file (written whole at the end), or a stream such as standard output. */
export type ReportTarget = { file: string } | { stream: Writable };

export class DeferredHeadReport {
  private body: WriteStream | undefined;
  private folder: string | undefined;
  private pending = '';
  private bytes = 0;
  private out: WriteStream | undefined;

  constructor(private readonly target: ReportTarget) {}

  /** Opens the report's file now, so a path that cannot be written fails the run before its first request, not after its last. */
  async open(): Promise<void> {
    if (!('file' in this.target) || this.out) return;
    const out = createWriteStream(this.target.file);
    await once(out, 'open');
    this.out = out;
  }

  /** Appends to the body; resolves when the temp file can take more. */
  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= BATCH_CHARS) await this.flush();
  }

  /** Writes head, body and tail to the target, and removes the temp file. */
  async finish(head: string, tail: string): Promise<void> {
    try {
      await this.flush();
      if (this.body) {
        this.body.end();
        await once(this.body, 'close');
      }
      await this.open();
      const end = 'file' in this.target;
      const out = 'file' in this.target ? this.out! : this.target.stream;
      await put(out, head);
      if (this.body && this.bytes > 0) await pipeline(createReadStream(this.body.path), out, { end: false });
      await put(out, tail);
      if (end) {
        out.end();
        await once(out, 'close');
      }
    } finally {
      await this.abandon();
    }
  }

  /** Removes the temp file (the run ended without its totals, or the report is written). */
  async abandon(): Promise<void> {
    this.pending = '';
    const { body, folder, out } = this;
    this.body = undefined;
    this.folder = undefined;
    this.out = undefined;
    if (out && !out.closed) out.destroy();
    if (body && !body.closed) {
      body.destroy();
      await once(body, 'close').catch(() => undefined);
    }
    if (folder) await rm(folder, { recursive: true, force: true });
  }

  private async flush(): Promise<void> {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    if (!this.body) {
      this.folder = await mkdtemp(join(tmpdir(), 'parley-run-report-'));
      this.body = createWriteStream(join(this.folder, 'body'));
    }
    this.bytes += text.length;
    await put(this.body, text);
  }
}

/** Writes and waits for the stream to take more (its 'drain'), or fails with its error. */
async function put(out: Writable, text: string): Promise<void> {
  if (text === '') return;
  if (out.write(text)) return;
  await once(out, 'drain');
}
