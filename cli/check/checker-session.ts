/**
 * One checker child for a whole `parley check` run, the same process the app uses
 * (dist/checker.js on the msgpack bus), started by the first check that needs it: a capture whose
 * calls no operation describes never starts it. The definition's documents travel once per checker
 * process; later checks name it by fingerprint. `check` never rejects: whatever goes wrong
 * (the checker did not start or died, the run was interrupted) is a `not-checked` verdict.
 */
import { LARGE_MESSAGE_LIMIT } from '../../protocol/framing.js';
import { existsSync } from 'node:fs';
import { ParleyError, hasCode } from '../../protocol/errors.js';
import type { OperationLink } from '../../protocol/model/request.js';
import type { CheckJob, DefinitionRef, Verdict } from '../../protocol/model/verdict.js';
import { screenBody } from '../../processes/checker/engine/check.js';
import { PreparedDefinition } from '../../processes/checker/engine/definition.js';
import { listOperations, matchOperation, type OperationEntry } from '../../processes/checker/engine/select-operation.js';
import { CHECK_LIMITS, reasoned } from '../../processes/checker/engine/verdicts.js';
import { ChildProcessHandle } from '../../processes/supervisor/children/child-process.js';
import { distEntry } from '../../processes/supervisor/paths.js';
import type { CommandLineDefinition } from '../definition-source.js';

/** One recorded response to check, as the checker's rules read it. */
export interface Exchange {
  method: string;
  /** A full URL (any host) or a path; only the path is matched. */
  url: string;
  operation?: OperationLink;
  status: number;
  /** Absent when the response had no Content-Type. */
  contentType?: string;
  body: Uint8Array;
  /** The whole body size when `body` holds less (a body over 1 MiB is not kept). */
  size?: number;
}

/** Checks a batch or a HAR keeps in flight at once: enough to keep the checker's threads busy. */
export const MAX_IN_FLIGHT = 32;

/**
 * A check that has not answered in this long is given up. Not the checker's budget: that starts
 * when a worker starts the check (1000 ms), and a check may first wait behind every other one in
 * flight, each of which may run its whole budget on one of at least two threads. A checker that
 * hangs is caught sooner by its heartbeat (the check then fails as a checker failure).
 */
const CALL_TIMEOUT_MS = MAX_IN_FLIGHT * (CHECK_LIMITS.budgetMs + 1000);

export interface SessionOptions {
  /** Lines the checker child writes (its stderr, restarts); default: dropped. */
  log?: (line: string) => void;
}

export class CheckerSession {
  /** The checker pid that already holds the definition. */
  private knownBy: number | undefined;
  /** The first check sent to a new checker pid, which carries the documents. */
  private priming: { pid: number | undefined; done: Promise<void> } | undefined;
  private operationList: readonly OperationEntry[] | null | undefined;
  /** The checker's start and warm-up, begun by the first check that needs the checker. */
  private boot: Promise<void> | undefined;

  private constructor(
    private readonly handle: ChildProcessHandle,
    private readonly definition: CommandLineDefinition,
  ) {}

  /**
   * A session for `definition`; its checker starts with the first check that needs one (a start
   * that fails makes that check, and every later one, `not-checked`). The caller must `stop()` it.
   */
  static create(definition: CommandLineDefinition, options: SessionOptions = {}): CheckerSession {
    const entry = distEntry('checker.js');
    if (!existsSync(entry)) throw new ParleyError('not-built', `${entry} is missing: build Parley first (node scripts/build.mjs).`);
    const handle = new ChildProcessHandle({ name: 'checker process', entry, restart: true, maxMessage: LARGE_MESSAGE_LIMIT, ...(options.log ? { log: options.log } : {}) });
    return new CheckerSession(handle, definition);
  }

  /** The definition's operations, read here once for matching; null when only the checker can read it. */
  private operations(): readonly OperationEntry[] | null {
    if (this.operationList === undefined) {
      try {
        this.operationList = listOperations(new PreparedDefinition(this.definition.documents, this.definition.fingerprint));
      } catch {
        this.operationList = null;
      }
    }
    return this.operationList;
  }

  get pid(): number | undefined {
    return this.handle.pid;
  }

  async check(exchange: Exchange, signal?: AbortSignal): Promise<Verdict> {
    // The checker's own first steps, run here too so that images, HTML and calls the definition
    // does not describe never cross the bus (a capture of 31,000 such calls spent most of its
    // time on round trips to the checker: bench/README.md, issue 15).
    const screened = screenBody(exchange.method, exchange.contentType, exchange.body, exchange.size);
    if (screened) return screened;
    const operations = this.operations();
    if (operations && !exchange.operation && !matchOperation(operations, exchange.method, exchange.url)) return reasoned('none', 'no-operation');
    try {
      await (this.boot ??= this.handle.start().then(() => this.warmUp()));
      return await this.send(exchange, signal);
    } catch (err) {
      if (signal?.aborted) return reasoned('not-checked', 'cancelled', {}, 'the run was interrupted');
      if (hasCode(err, 'timeout')) return reasoned('not-checked', 'budget', {}, `the checker did not answer within ${CALL_TIMEOUT_MS} ms`);
      return reasoned('not-checked', 'checker-failure', {}, `checker failure: ${(err as Error).message}`);
    }
  }

  /** Stops the checker child and waits until it has exited. */
  async stop(): Promise<void> {
    await this.handle.stop();
  }

  /**
   * First checks whose verdicts are dropped: the first carries the documents to the checker, and
   * then one each for up to four workers (the checker's most) has every worker prepare the
   * definition, so that the start-up of a cold process (worker threads loading, the definition
   * parsed and indexed by each) does not count against the 1000 ms budget of a real check.
   */
  private async warmUp(): Promise<void> {
    // Sent as they are: the local match above would answer them without the checker.
    const probe = (): Promise<unknown> => this.send({ method: 'GET', url: '/', status: 200, contentType: 'application/json', body: new TextEncoder().encode('{}') }).catch(() => undefined);
    await probe();
    await Promise.all([probe(), probe(), probe(), probe()]);
  }

  private async send(exchange: Exchange, signal?: AbortSignal): Promise<Verdict> {
    const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
    const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const full: DefinitionRef = { fingerprint: this.definition.fingerprint, documents: this.definition.documents };
    const byName: DefinitionRef = { fingerprint: this.definition.fingerprint };

    // Checks started while the documents are on their way wait for them rather than send them again.
    const pid = this.handle.pid;
    if (this.knownBy === undefined || this.knownBy !== pid) {
      if (this.priming && this.priming.pid === pid) {
        await this.priming.done;
      } else {
        let release!: () => void;
        this.priming = { pid, done: new Promise<void>((done) => (release = done)) };
        try {
          const verdict = await this.call(jobOf(full, exchange), stop);
          this.knownBy = pid;
          return verdict;
        } finally {
          release();
        }
      }
    }
    const verdict = await this.call(jobOf(this.knownBy === this.handle.pid ? byName : full, exchange), stop);
    if (verdict.kind === 'none' && verdict.reason?.code === 'no-definition') {
      // The checker let the definition go (its cache is bounded) or restarted: send it again.
      const again = await this.call(jobOf(full, exchange), stop);
      this.knownBy = this.handle.pid;
      return again;
    }
    return verdict;
  }

  private call(job: CheckJob, signal: AbortSignal): Promise<Verdict> {
    return this.handle.call('checker.check', job, { signal });
  }
}

function jobOf(definition: DefinitionRef, exchange: Exchange): CheckJob {
  const size = exchange.size ?? exchange.body.length;
  const skip = size > CHECK_LIMITS.maxBodyBytes;
  return {
    definition,
    request: { method: exchange.method, url: exchange.url, ...(exchange.operation ? { operation: exchange.operation } : {}) },
    response: {
      status: exchange.status,
      ...(exchange.contentType !== undefined ? { contentType: exchange.contentType } : {}),
      // A body over the limit is skipped unparsed: only its size needs to travel.
      body: skip ? new Uint8Array(0) : exchange.body,
      ...(skip || exchange.size !== undefined ? { size } : {}),
    },
  };
}
