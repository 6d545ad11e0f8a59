/**
 * The pool with real worker threads (the worker built with esbuild, as for dist/): hostile
 * inputs get their verdict within the budget, and the pool keeps serving afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckJob, DefinitionDocument } from '../../protocol/model/verdict.js';
import { buildCheckerWorker, type BuiltWorker } from '../../test/fixtures/checker/build-worker.js';
import { json, loadDocuments } from '../../test/fixtures/checker/load.js';
import { until } from '../../test/support/until.js';
import { CheckerPool } from './pool.js';

let built: BuiltWorker;
let pool: CheckerPool;

const museum = loadDocuments('redocly-museum.yaml');
const hours = [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }];

/** A definition with a few hostile schemas, one path each. */
function hostileDefinition(): DefinitionDocument[] {
  const json200 = (schema: unknown) => ({ get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } });
  const schemas: Record<string, unknown> = {
    Tree: { type: 'object', properties: { n: { type: 'integer' }, child: { $ref: '#/components/schemas/Tree' } } },
    L0: { type: 'string' },
  };
  for (let i = 1; i <= 30; i++) {
    const below = { $ref: `#/components/schemas/L${i - 1}` };
    schemas[`L${i}`] = { anyOf: [below, { allOf: [below] }] };
  }
  const document = {
    openapi: '3.1.0',
    info: { title: 'hostile', version: '1' },
    paths: {
      // The lookahead keeps this pattern on V8's backtracking engine, where it runs for minutes.
      '/backtrack': json200({ type: 'string', pattern: '^(?!b)(a+)+$' }),
      '/nested': json200({ type: 'string', pattern: '^(a+)+$' }),
      '/deep': json200({ $ref: '#/components/schemas/Tree' }),
      '/explode': json200({ $ref: '#/components/schemas/L30' }),
      '/ok': json200({ type: 'object' }),
      '/__crash__': json200({ type: 'object' }),
    },
    components: { schemas },
  };
  return [{ uri: 'hostile.json', document }];
}
const hostile = hostileDefinition();

function job(path: string, body: Uint8Array, over: { documents?: DefinitionDocument[]; fingerprint?: string; size?: number } = {}): CheckJob {
  return {
    definition: { fingerprint: over.fingerprint ?? 'hostile', documents: over.documents ?? hostile },
    request: { method: 'GET', url: `http://127.0.0.1:1${path}` },
    response: { status: 200, contentType: 'application/json', body, ...(over.size === undefined ? {} : { size: over.size }) },
  };
}

function deepBody(depth: number): Uint8Array {
  let value: unknown = { n: 1 };
  for (let i = 1; i < depth; i++) value = { child: value };
  return json({ n: 'not a number', ...(value as object) });
}

beforeAll(async () => {
  built = await buildCheckerWorker();
  pool = new CheckerPool({ workerFile: built.workerFile, threads: 2 });
});

afterAll(async () => {
  await pool?.close();
  await built?.cleanup();
});

describe('ordinary checks', () => {
  test('a check passes, and the fingerprint alone is enough the second time', async () => {
    const first = await pool.check({ ...job('/museum-hours', json(hours), { fingerprint: 'museum', documents: museum }) });
    expect(first).toMatchObject({ kind: 'pass', operation: { path: '/museum-hours' } });
    const again: CheckJob = { ...job('/museum-hours', json([{}])), definition: { fingerprint: 'museum' } };
    expect(await pool.check(again)).toMatchObject({ kind: 'problems' });
  });

  test('no definition, or an unknown fingerprint with no way to look it up: no chip', async () => {
    const noDef: CheckJob = { ...job('/ok', json({})), definition: undefined };
    expect(await pool.check(noDef)).toMatchObject({ kind: 'none', reason: { code: 'no-definition' } });
    const unknown: CheckJob = { ...job('/ok', json({})), definition: { fingerprint: 'never-seen' } };
    expect(await pool.check(unknown)).toMatchObject({ kind: 'none', reason: { code: 'no-definition' } });
  });

  test('non-JSON bodies never reach a worker', async () => {
    const html = job('/ok', new TextEncoder().encode('<html></html>'));
    html.response.contentType = 'text/html';
    expect(await pool.check(html)).toMatchObject({ kind: 'none', reason: { code: 'not-json' } });
  });
});

describe('hostile inputs get their verdict within budget and the pool serves the next check', () => {
  test('a nested quantifier the linear engine runs: the problem, at once', async () => {
    expect(await pool.check(job('/nested', json('a'.repeat(40) + '!')))).toMatchObject({ kind: 'problems', problems: [{ keyword: 'pattern' }] });
  });

  test('a catastrophically backtracking pattern: the worker is killed at the budget', async () => {
    const v = await pool.check(job('/backtrack', json('a'.repeat(40) + '!')));
    expect(v).toMatchObject({ kind: 'not-checked', reason: { code: 'budget' } });
    expect(await pool.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  });

  test('a body 300 deep', async () => {
    const v = await pool.check(job('/deep', deepBody(300)));
    expect(v).toMatchObject({ kind: 'not-checked', reason: { code: 'too-deep' }, partial: true, problems: [{ pointer: '/n' }] });
    expect(await pool.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  });

  test('a schema that explodes in steps', async () => {
    const v = await pool.check(job('/explode', json(1)));
    expect(v).toMatchObject({ kind: 'not-checked', reason: { code: 'too-many-steps' } });
    expect(await pool.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  });

  test('a 2 MiB body is skipped', async () => {
    const big = new TextEncoder().encode(JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect(await pool.check(job('/ok', big))).toMatchObject({ kind: 'skipped', reason: { code: 'too-large' }, operation: { path: '/ok' } });
    expect(await pool.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  });

  test('a cancelled check', async () => {
    const controller = new AbortController();
    const pending = pool.check(job('/backtrack', json('a'.repeat(40) + '!')), controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'not-checked', reason: { code: 'cancelled' } });
    expect(await pool.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  });
});

test('the budget starts when a worker starts a check: checks queued behind runaway ones are checked', async () => {
  const small = new CheckerPool({ workerFile: built.workerFile, threads: 1, maxQueue: 8, budgetMs: 400 });
  try {
    const slow = () => small.check(job('/backtrack', json('a'.repeat(40) + '!')));
    const ok = () => small.check(job('/ok', json({})));
    // Three runaway checks and two good ones, one thread: the good ones wait 400 ms and more.
    const verdicts = await Promise.all([slow(), ok(), slow(), slow(), ok()]);
    expect(verdicts.map((v) => [v.kind, v.reason?.code])).toEqual([
      ['not-checked', 'budget'],
      ['pass', undefined],
      ['not-checked', 'budget'],
      ['not-checked', 'budget'],
      ['pass', undefined],
    ]);
  } finally {
    await small.close();
  }
});

test('a full queue answers at once', async () => {
  const small = new CheckerPool({ workerFile: built.workerFile, threads: 1, maxQueue: 2, budgetMs: 400 });
  try {
    const slow = () => small.check(job('/backtrack', json('a'.repeat(40) + '!')));
    const running = slow();
    // Once the worker has started and taken the first task, nothing waits.
    await until(() => small.stats.busy === 1, 30_000);
    const queued = [slow(), slow()];
    expect(await small.check(job('/ok', json({})))).toMatchObject({ kind: 'not-checked', reason: { code: 'queue-full', message: 'too many responses already waiting' } });
    for (const v of await Promise.all([running, ...queued])) expect(v).toMatchObject({ kind: 'not-checked', reason: { code: 'budget' } });
    expect(await small.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  } finally {
    await small.close();
  }
});

test('a definition lookup that does not answer ends at the budget', async () => {
  let asked = 0;
  const small = new CheckerPool({
    workerFile: built.workerFile,
    threads: 1,
    budgetMs: 300,
    loadDefinition: async (fingerprint) => {
      asked++;
      if (fingerprint === 'slow') return new Promise<DefinitionDocument[]>(() => {});
      return hostile;
    },
  });
  try {
    const looked: CheckJob = { ...job('/ok', json({})), definition: { fingerprint: 'looked-up' } };
    expect(await small.check(looked)).toMatchObject({ kind: 'pass' });
    const slow: CheckJob = { ...job('/ok', json({})), definition: { fingerprint: 'slow' } };
    expect(await small.check(slow)).toMatchObject({ kind: 'not-checked', reason: { code: 'budget' } });
    expect(asked).toBe(2);
  } finally {
    await small.close();
  }
});

test('a worker that dies gives checker failure, and the pool keeps serving', async () => {
  const crashing = new CheckerPool({ workerFile: built.crashingWorkerFile, threads: 1 });
  try {
    expect(await crashing.check(job('/__crash__', json({})))).toMatchObject({ kind: 'not-checked', reason: { code: 'checker-failure' } });
    expect(await crashing.check(job('/ok', json({})))).toMatchObject({ kind: 'pass' });
  } finally {
    await crashing.close();
  }
});
