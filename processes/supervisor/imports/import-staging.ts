/**
 * An import's files, made as its parts arrive. The importer sends the long lists of its answer
 * (requests, Webhooks requests, examples) ahead of the answer, a few hundred items per part
 * (protocol/model/import-parts.ts); as they come, each item becomes its file's text (in slices
 * between the loop's other work) and is written to a staging folder in the workspace, and the
 * item is let go. When the answer comes the
 * import's one atomic commit moves the staged files into the project (atomic.ts, `moveFrom`).
 * Holding every request until the answer, then every file's text until the commit, put the
 * supervisor of `parley import` at 1.8x swagger-parser's peak on Microsoft Graph's 11,422
 * operations (bench/README.md).
 *
 * Nothing here touches the project: a failed, cancelled or killed import leaves it as it was, and
 * its staging folder is removed (`discard`); one left by a supervisor that died is removed by the
 * next import of any supervisor on the workspace (`sweepStaging`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import type { ImportResultPart } from '../../../protocol/model/import-parts.js';
import type { HistoryEntry } from '../../../protocol/model/history.js';
import type { ImportedExample, PlacedRequest } from '../../../protocol/model/import.js';
import { forFile, kindOf } from '../../../protocol/kinds/index.js';
import { exampleFileName, exampleFiles } from '../../../protocol/project/examples.js';
import { writeYaml } from '../../../protocol/project/yaml-file.js';
import { FILE_OPS_AT_ONCE } from '../store/limited.js';
import { Slicer } from '../store/slicer.js';

/** The workspace's folder of import staging folders, one per import under way (`<pid>-<tag>`). */
export const STAGING_DIR = 'import-staging';

/** A staged file: where it waits, and the SHA-256 of its bytes (the commit's journal records it). */
export interface StagedFile {
  moveFrom: string;
  sha256: string;
}

/** A request whose file is staged: what places it in the project (`suffix`: its kind's, protocol/kinds). */
export interface StagedRequest {
  id: string;
  folder: string;
  name: string;
  suffix: string;
  file: StagedFile;
}

/** A file of an example, staged: the request it belongs to and its name in that request's examples folder. */
export interface StagedExampleFile {
  request: string;
  name: string;
  file: StagedFile;
}

type Item = { kind: 'requests'; api: number; placed: PlacedRequest } | { kind: 'webhooks'; placed: PlacedRequest } | { kind: 'examples'; example: ImportedExample };

export class ImportStaging {
  /** Per API of the answer, its staged requests in order. */
  readonly requests: StagedRequest[][] = [];
  readonly webhooks: StagedRequest[] = [];
  readonly examples: StagedExampleFile[] = [];
  /** History entries are written to the workspace's History after the commit, as they came. */
  readonly history: HistoryEntry[] = [];

  private readonly dir: string;
  private made: Promise<void> | null = null;
  private files = 0;
  /** Parts received, their items not all made into text yet; `at`: the next item of the first. */
  private readonly queue: Item[][] = [];
  private at = 0;
  private held = 0;
  /** Set and cleared inside pump() itself: a `.finally` cleared it a microtask late, and a part added in that gap was never made. */
  private pumping = false;
  private pumped: Promise<void> = Promise.resolve();
  /** Texts made, not yet written. */
  private readonly writes: { path: string; content: string | Uint8Array }[] = [];
  private writing = 0;
  private readonly written = new Set<() => void>();
  private failure: unknown = null;
  private closed = false;

  constructor(dataDir: string) {
    this.dir = join(dataDir, STAGING_DIR, `${process.pid}-${randomBytes(6).toString('hex')}`);
  }

  /** Takes one part of the answer: its items are made into staged files, in the order they came. */
  add(part: ImportResultPart): void {
    if (this.closed) return;
    if (part.part === 'history') {
      for (const entry of part.items) this.history.push(entry);
      return;
    }
    const items: Item[] =
      part.part === 'requests'
        ? part.items.map((placed) => ({ kind: 'requests', api: part.api, placed }))
        : part.part === 'webhooks'
          ? part.items.map((placed) => ({ kind: 'webhooks', placed }))
          : part.items.map((example) => ({ kind: 'examples', example }));
    if (items.length === 0) return;
    this.queue.push(items);
    this.held += items.length;
    // Made in slices between the loop's other work, never in one go here: the importer's heartbeat
    // answers wait in the pipe behind its parts, and parts made as they were read (a few seconds of
    // YAML under load) kept them there past the heartbeat's 10 s.
    if (!this.pumping) this.pumped = this.pump();
  }

  /** How many staged files an API of the answer has; with `finish` done, every one. */
  requestCount(api: number): number {
    return this.requests[api]?.length ?? 0;
  }

  /** Resolves once every part received is a staged file on disk; throws what failed in the making or writing. */
  async finish(): Promise<void> {
    while (this.pumping) await this.pumped;
    while (this.writing > 0 || this.writes.length > 0) await new Promise<void>((resolve) => this.written.add(resolve));
    if (this.failure) throw this.failure;
  }

  /** Stops taking parts, waits for the writes under way, and removes the staging folder with whatever is left in it. */
  async discard(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.writes.length = 0;
    this.held = 0;
    while (this.writing > 0) await new Promise<void>((resolve) => this.written.add(resolve));
    await rm(this.dir, { recursive: true, force: true });
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      const slicer = new Slicer();
      while (this.held > 0 && !this.closed) {
        this.makeNext();
        if (slicer.due()) await slicer.turn();
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Makes the next item held into its staged file(s), and lets it go. */
  private makeNext(): void {
    const part = this.queue[0]!;
    const item = part[this.at]!;
    part[this.at] = undefined as unknown as Item;
    if (++this.at === part.length) {
      this.queue.shift();
      this.at = 0;
    }
    this.held--;
    try {
      if (item.kind === 'examples') {
        const { request, example } = item.example;
        const { yaml, bodyFile } = exampleFiles(example);
        this.examples.push({ request, name: exampleFileName(example.status), file: this.stage(writeYaml(yaml)) });
        if (bodyFile) this.examples.push({ request, name: bodyFile, file: this.stage(example.body) });
        return;
      }
      const { folder, request } = item.placed;
      // Each request is written by its kind (protocol/kinds): an HTTP request, a gRPC call, ...
      const staged = { id: request.id, folder, name: request.name, suffix: kindOf(request).suffix, file: this.stage(writeYaml(forFile(request))) };
      if (item.kind === 'webhooks') this.webhooks.push(staged);
      else (this.requests[item.api] ??= []).push(staged);
    } catch (err) {
      this.failure ??= err;
    }
  }

  /** Queues `content` to be written as the next staged file; its place and hash now. */
  private stage(content: string | Uint8Array): StagedFile {
    const path = join(this.dir, `${++this.files}`);
    const sha256 = createHash('sha256').update(content).digest('hex');
    this.writes.push({ path, content });
    this.drain();
    return { moveFrom: path, sha256 };
  }

  /** Keeps up to FILE_OPS_AT_ONCE writes under way. */
  private drain(): void {
    while (this.writing < FILE_OPS_AT_ONCE && this.writes.length > 0 && !this.closed) {
      const { path, content } = this.writes.shift()!;
      this.writing++;
      void this.write(path, content).finally(() => {
        this.writing--;
        this.drain();
        if (this.writing === 0 && this.writes.length === 0) {
          for (const resolve of this.written) resolve();
          this.written.clear();
        }
      });
    }
  }

  private async write(path: string, content: string | Uint8Array): Promise<void> {
    try {
      // Not fsynced: the commit syncs each file as it moves it in, and a crash before that drops them all.
      await (this.made ??= mkdir(this.dir, { recursive: true }).then(() => undefined));
      await writeFile(path, content, { flag: 'wx' });
    } catch (err) {
      this.failure ??= new ParleyError('save-failed', `The import's files could not be written to ${this.dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was changed.`);
    }
  }
}

/**
 * Removes the staging folders of imports whose supervisor is gone (killed mid-import); a folder
 * of a live process, this one's or another supervisor's on the same workspace, is left alone.
 */
export async function sweepStaging(dataDir: string): Promise<void> {
  const root = join(dataDir, STAGING_DIR);
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const pid = Number(/^(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    await rm(join(root, name), { recursive: true, force: true }).catch(() => {});
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
