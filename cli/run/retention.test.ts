/**
 * Memory over a long run, without timing: the outcomes the engine and every reporter of
 * `parley run` (console, JSON, JUnit) still hold part-way through thousands of iterations, counted
 * by WeakRefs after a full collection. A run that kept its outcomes (as `parley run` did before
 * its reports were streamed: 1.6 KB a request, 1.19 GB at 200,000) holds them all.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderedRequest } from '../../protocol/project/tree-order.js';
import type { DataRow } from '../../processes/supervisor/run/data-file.js';
import { runEngine, type StartRequest } from '../../processes/supervisor/run/engine.js';
import { JsonReporter, JunitReporter } from '../../processes/supervisor/run/file-reporters.js';
import { report, type RequestOutcome, type RunReport } from '../../processes/supervisor/run/report.js';
import { ConsoleReporter } from './console-reporter.js';

// A full collection on demand: WeakRefs below tell which outcomes something still holds.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const requests: OrderedRequest[] = ['login', 'create', 'fetch'].map((name, i) => ({ id: `r${i}`, name, apiId: 'a', apiName: 'API', folders: [] }));

function outcomeOf(item: OrderedRequest, iteration: number, row: DataRow | undefined): RequestOutcome {
  return {
    iteration,
    ...(row ? { row: `row ${row.number}` } : {}),
    request: { id: item.id, name: item.name, path: `API/${item.name}`, api: 'API', folders: [], method: 'GET', url: `http://127.0.0.1/${item.name}?i=${iteration}` },
    response: { status: 200, statusText: 'OK', timeMs: 1.5, size: 20 },
    assertions: [{ index: 0, label: 'status equals 200', passed: true, message: '' }],
    failed: false,
  };
}

let work: string;
beforeAll(async () => void (work = await mkdtemp(join(tmpdir(), 'parley-run-retention-'))));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('a long run', () => {
  it('keeps no outcome once it is reported: the console, JSON and JUnit reporters hold none of 6,000', async () => {
    const ITERATIONS = 2_000;
    const refs: WeakRef<RequestOutcome>[] = [];
    const alive: number[] = [];
    const base: StartRequest = ({ item, iteration, row }) => {
      const outcome = Promise.resolve(outcomeOf(item, iteration, row));
      return { wire: Promise.resolve(), outcome };
    };
    const start: StartRequest = (request) => {
      const { item, iteration, gate } = request;
      if (item.name === 'login' && (iteration === ITERATIONS / 2 || iteration === ITERATIONS)) {
        // Counted at the start of an iteration, once everything before it was reported.
        const counted = (async () => {
          await gate;
          await turn();
          gc();
          await turn();
          alive.push(refs.filter((r) => r.deref() !== undefined).length);
        })();
        const inner = base(request);
        return { wire: counted.then(() => inner.wire), outcome: counted.then(() => inner.outcome) };
      }
      return base(request);
    };
    const tracking = { outcome: (o: RequestOutcome) => void refs.push(new WeakRef(o)) };
    const discard = new Writable({ write: (_chunk, _enc, done) => done() });
    const json = join(work, 'many.json');
    const junit = join(work, 'many.xml');
    const summary = await report(runEngine({ project: 'P', requests, iterations: ITERATIONS, delayMs: 0, bail: false }, start, new AbortController().signal), [
      tracking,
      new ConsoleReporter(discard, Object.assign(discard, { isTTY: false })),
      new JsonReporter({ file: json }),
      new JunitReporter({ file: junit }),
    ]);
    expect(summary.requests).toBe(ITERATIONS * 3);
    expect(refs).toHaveLength(ITERATIONS * 3);
    // At most the iteration's own outcomes and the ones in flight: not the thousands before them.
    expect(alive).toHaveLength(2);
    for (const n of alive) expect(n).toBeLessThanOrEqual(6);
    // And the reports hold every one of them.
    const parsed = JSON.parse(await readFile(json, 'utf8')) as RunReport;
    expect(parsed.outcomes).toHaveLength(ITERATIONS * 3);
    expect(parsed.outcomes.at(-1)).toEqual(outcomeOf(requests[2]!, ITERATIONS, undefined));
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(await readFile(junit, 'utf8')) as { testsuites: { tests: string; testsuite: { testcase: unknown[] }[] } };
    expect(xml.testsuites.tests).toBe(String(ITERATIONS * 3));
    expect(xml.testsuites.testsuite).toHaveLength(ITERATIONS);
    expect(xml.testsuites.testsuite.every((s) => s.testcase.length === 3)).toBe(true);
  });
});
