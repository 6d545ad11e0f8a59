/**
 * The contract verdict of a response, asked of the checker process. The 1000 ms budget covers
 * the whole wait: reading the cached definition, the queue and the check. Definitions travel
 * to the checker once per fingerprint (again after the checker restarts).
 */
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { SendResult } from '../../../protocol/model/exchange.js';
import type { Request } from '../../../protocol/model/request.js';
import type { CheckJob, Verdict } from '../../../protocol/model/verdict.js';
import type { ChildProcessHandle } from '../children/child-process.js';
import type { ProjectStore } from '../store/project-store.js';
import { loadDefinition } from './definitions.js';

export const CHECK_BUDGET_MS = 1000;

export class ContractVerdicts {
  private seen = new Set<string>();
  private seenBy: number | undefined;

  constructor(private readonly checker: ChildProcessHandle) {}

  async verdict(store: ProjectStore, request: Request, result: SendResult, signal?: AbortSignal): Promise<Verdict | undefined> {
    const api = store.apiOf(request.id);
    // No chip without an imported definition; a SOAP interface's responses are not contract-checked on send (docs/soap.md).
    if (!api.definition || api.soap) return undefined;
    const deadline = AbortSignal.timeout(CHECK_BUDGET_MS);
    const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const contentType = result.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    try {
      const definition = await abortable(loadDefinition(store.apiDir(api.id), api), stop);
      if (this.seenBy !== this.checker.pid) {
        this.seen = new Set();
        this.seenBy = this.checker.pid;
      }
      const known = this.seen.has(definition.fingerprint);
      const job: CheckJob = {
        definition: known ? { fingerprint: definition.fingerprint } : definition,
        request: { method: request.method, url: result.url, ...(request.operation ? { operation: request.operation } : {}) },
        response: {
          status: result.status,
          ...(contentType !== undefined ? { contentType } : {}),
          body: result.body.bytes,
          ...(result.body.size !== result.body.bytes.byteLength ? { size: result.body.size } : {}),
        },
      };
      let verdict = await this.checker.call('checker.check', job, { signal: stop });
      if (known && verdict.kind === 'none' && verdict.reason?.code === 'no-definition') {
        // The checker let the definition go (or restarted): send it again, once.
        verdict = await this.checker.call('checker.check', { ...job, definition }, { signal: stop });
      }
      this.seen.add(definition.fingerprint);
      return verdict.kind === 'none' ? undefined : verdict;
    } catch (err) {
      if (deadline.aborted) return notChecked('budget', `The check did not finish within ${CHECK_BUDGET_MS} ms.`);
      if (signal?.aborted) return notChecked('cancelled', 'The send was cancelled.');
      if (hasCode(err, 'no-definition')) return notChecked('schema-error', (err as ParleyError).message);
      return notChecked('checker-failure', `The checker failed: ${(err as Error).message}`);
    }
  }
}

function notChecked(code: 'budget' | 'cancelled' | 'checker-failure' | 'schema-error', message: string): Verdict {
  return { kind: 'not-checked', problems: [], moreProblems: false, partial: false, reason: { code, message }, notes: [], steps: 0 };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ParleyError('cancelled', 'Cancelled.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ParleyError('cancelled', 'Cancelled.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
