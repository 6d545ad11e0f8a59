import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLogEntry } from '../../../protocol/model/mock.js';
import { MockServer, type LogRecord } from './mock-server.js';
import { LOG_ENTRY_BYTES_MAX, LOG_LIST_BYTES, LOG_TEXT_CHARS, logEntryBytes } from '../../../protocol/mock-log-bounds.js';
import { mockOf, operation, response, send } from './test-support/mocks.js';
import { SCENARIOS_KEPT, SCENARIO_NAME_CHARS, SCENARIO_STATE_CHARS, type MockState } from './mock-state.js';

const text = (name: string, body = name) => response({ name, body: { kind: 'text', text: body } });

const scripted = (path: string, script: string, names = ['Default', 'Special']) =>
  operation({ name: path.slice(1).replace(/\W/g, '') || 'root', method: 'POST', path, dispatch: 'script', script, responses: names.map((n) => text(n)) });

const mock = mockOf([
  scripted(
    '/pick',
    `
    interface Order { kind?: string }
    const order: Order = request.body ? JSON.parse(request.body) : {};
    log('kind', order.kind, { q: request.query['v'] ?? [] }, request.pathParams);
    if (order.kind === 'special' || request.headers.some((h) => h.name.toLowerCase() === 'x-special')) respond('Special');
    `,
  ),
  scripted(
    '/count',
    `
    const visits = Number(scenarios.get('visits') === 'Started' ? 0 : scenarios.get('visits')) + 1;
    scenarios.set('visits', String(visits));
    if (visits >= 3) respond('Special');
    log(responses.map((r) => r.name).join(','), visits);
    `,
  ),
  scripted('/throws', `log('about to fail'); throw new Error('no stock');`),
  scripted('/unknown', `respond('Nope' as never);`),
  scripted('/spin', `let n = 0; while (true) { n++; }`),
  scripted('/escape', `log(typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.__input, typeof console);`),
  scripted('/syntax', `respond('Default'`),
  // Scripts that hand a request value back whole: the response name, an error, log lines.
  scripted('/by-body', `respond(request.body);`),
  scripted('/throws-body', `throw new Error(request.body);`),
  scripted('/logs-body', `for (let i = 0; i < 100; i++) log(request.body);`),
  // Scripts that name a scenario, or give it a state, from the request.
  scripted('/scenario-named-by-body', `scenarios.set(request.body, 'seen'); respond('Special');`),
  scripted('/scenario-state-from-body', `scenarios.set('cart', request.body); respond('Special');`),
  scripted('/scenario-read', `log(scenarios.get(request.body));`),
  operation({ name: 'plain', method: 'GET', path: '/plain', responses: [text('Default', 'plain')] }),
]);

let server: MockServer;
let port: number;
const logs: MockLogEntry[] = [];
const records: LogRecord[] = [];
beforeAll(async () => {
  server = new MockServer({ mock, onLog: (e) => logs.push(e), onRecord: (r) => records.push(r) });
  ({ port } = await server.start());
});
afterAll(async () => {
  await server.stop();
});

const post = (path: string, body = '', headers: Record<string, string> = {}) => send(port, { method: 'POST', path, body, headers });
const lastLog = (path: string) => logs.filter((l) => l.path === path).at(-1)!;

describe('By script', () => {
  it('sends the response the script names, and Default without a respond call', async () => {
    expect((await post('/pick', JSON.stringify({ kind: 'special' }))).text).toBe('Special');
    expect((await post('/pick', '', { 'X-Special': '1' })).text).toBe('Special');
    expect((await post('/pick?v=1&v=2', JSON.stringify({ kind: 'plain' }))).text).toBe('Default');
    expect(lastLog('/pick?v=1&v=2').notes).toEqual(['log: kind plain {"q":["1","2"]} {}']);
  });

  it('reads and sets scenarios, which Reset state clears', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push((await post('/count')).text);
    expect(seen).toEqual(['Default', 'Default', 'Special']);
    expect(lastLog('/count').notes).toEqual(['log: Default,Special 3']);
    server.resetState();
    expect((await post('/count')).text).toBe('Default');
    expect(lastLog('/count').notes).toEqual(['log: Default,Special 1']);
  });

  it('answers 500 mock-script-failed when the script throws, with the reason in the log', async () => {
    const answer = await post('/throws');
    expect(answer.status).toBe(500);
    expect(answer.json()).toMatchObject({ code: 'mock-script-failed', operation: 'throws' });
    expect(answer.text).not.toContain('no stock');
    expect(lastLog('/throws').notes).toEqual(['log: about to fail', 'The dispatch script threw: no stock']);
  });

  it('treats respond() with a name the operation lacks, and a script that does not compile, as failures', async () => {
    expect((await post('/unknown')).json()).toMatchObject({ code: 'mock-script-failed' });
    expect(lastLog('/unknown').notes.join(' ')).toContain('no response named "Nope"');
    expect((await post('/syntax')).json()).toMatchObject({ code: 'mock-script-failed' });
    expect(lastLog('/syntax').notes.join(' ')).toMatch(/does not compile: .*\(line 1, column \d+\)/);
  });

  it('gives the script nothing but its own globals', async () => {
    await post('/escape');
    expect(lastLog('/escape').notes).toEqual(['log: undefined undefined undefined undefined undefined undefined']);
  });

  it('stops a runaway script with mock-script-timeout while the mock keeps answering', async () => {
    const order: string[] = [];
    const runaway = post('/spin').then((a) => {
      order.push('spin');
      return a;
    });
    // These are sent while the script spins, and must be answered before it is stopped.
    for (let i = 0; i < 5; i++) {
      const answer = await send(port, { path: '/plain' });
      order.push(answer.text);
    }
    const stopped = await runaway;
    expect(order).toEqual(['plain', 'plain', 'plain', 'plain', 'plain', 'spin']);
    expect(stopped.status).toBe(500);
    expect(stopped.json()).toMatchObject({ code: 'mock-script-timeout', operation: 'spin' });
    expect(lastLog('/spin').notes).toEqual(['The dispatch script ran past 1000 ms and was stopped.']);

    // And afterwards: plain requests and other scripts are served as before.
    expect((await send(port, { path: '/plain' })).text).toBe('plain');
    expect((await post('/pick', JSON.stringify({ kind: 'special' }))).text).toBe('Special');
  });
});

describe('a script handed a multi-MB request value', () => {
  // 2 MB is the bus's whole concern here: a mock host kept 500 such entries whole, then 9 MB ones died.
  const big = 'n'.repeat(2_000_000);

  it('logs a short quote of a response name it does not have', async () => {
    const answer = await post('/by-body', big);
    expect(answer.json()).toMatchObject({ code: 'mock-script-failed' });
    const [note] = lastLog('/by-body').notes;
    expect(note).toBe(`The dispatch script threw: respond(): this operation has no response named "${'n'.repeat(79)}…" (2000000 characters)`);
  });

  it('keeps a bounded prefix of what it throws and of what it logs', async () => {
    await post('/throws-body', big);
    const thrown = lastLog('/throws-body').notes;
    expect(thrown).toHaveLength(1);
    expect(thrown[0]!.length).toBeLessThanOrEqual(LOG_TEXT_CHARS);
    await post('/logs-body', big);
    const logged = lastLog('/logs-body');
    expect(logged.notes.reduce((sum, n) => sum + n.length, 0)).toBeLessThanOrEqual(LOG_LIST_BYTES);
    expect(logged.notes.at(-1)).toMatch(/^\d+ more notes were not kept/);
  });

  it('makes records and entries that stay small, whatever the body', async () => {
    for (const path of ['/by-body', '/throws-body', '/logs-body']) {
      const entry = lastLog(path);
      expect(logEntryBytes(entry), path).toBeLessThan(LOG_ENTRY_BYTES_MAX);
      expect(entry.request.body).toMatchObject({ size: 2_000_000, truncated: true });
    }
    const weights = records.slice(-3).map((r) => r.weight);
    expect(Math.max(...weights)).toBeLessThan(64 * 1024);
  });
});

describe('scenarios a script names or sets from the request', () => {
  const state = () => (server as unknown as { state: MockState }).state;
  const plainAnswers = async () => expect((await send(port, { path: '/plain' })).text).toBe('plain');

  it('1,000 requests each naming a new multi-KB scenario: each refused with a short note, the map stays empty, the mock answers throughout', async () => {
    server.resetState();
    for (let i = 0; i < 1000; i++) {
      const answer = await post('/scenario-named-by-body', `${i}:`.padEnd(4096, 'k'));
      expect(answer.status).toBe(500);
      expect(answer.json()).toMatchObject({ code: 'mock-script-failed', operation: 'scenarionamedbybody' });
      if (i % 100 === 0) await plainAnswers();
      expect(state().scenarioCount).toBe(0);
    }
    expect(lastLog('/scenario-named-by-body').notes).toEqual([
      `The dispatch script threw: scenarios.set(): a scenario's name is at most ${SCENARIO_NAME_CHARS} characters: "999:${'k'.repeat(75)}…" (4096 characters) was not set.`,
    ]);
  }, 300_000);

  it('keeps at most SCENARIOS_KEPT scenarios, refuses a state past its length, and starts over on Reset state', async () => {
    server.resetState();
    for (let i = 0; i < SCENARIOS_KEPT; i++) expect((await post('/scenario-named-by-body', `s${i}`)).text).toBe('Special');
    expect(state().scenarioCount).toBe(SCENARIOS_KEPT);
    const past = await post('/scenario-named-by-body', 'one too many');
    expect(past.json()).toMatchObject({ code: 'mock-script-failed' });
    expect(lastLog('/scenario-named-by-body').notes).toEqual([
      `The dispatch script threw: scenarios.set(): a mock keeps at most ${SCENARIOS_KEPT.toLocaleString('en')} scenarios: "one too many" would be one more, and was not set (Reset state starts them over).`,
    ]);
    expect(state().scenarioCount).toBe(SCENARIOS_KEPT);
    // One it has takes a new state, within the bound.
    expect((await post('/scenario-named-by-body', 's7')).text).toBe('Special');
    await post('/scenario-read', 's7');
    expect(lastLog('/scenario-read').notes).toEqual(['log: seen']);

    server.resetState();
    const huge = await post('/scenario-state-from-body', 'x'.repeat(2_000_000));
    expect(huge.json()).toMatchObject({ code: 'mock-script-failed' });
    expect(lastLog('/scenario-state-from-body').notes).toEqual([
      `The dispatch script threw: scenarios.set(): a scenario's state is at most ${SCENARIO_STATE_CHARS} characters: the state of "cart" (2000000 characters) was not set.`,
    ]);
    expect(state().scenarioCount).toBe(0);
    expect((await post('/scenario-state-from-body', 'x'.repeat(SCENARIO_STATE_CHARS))).text).toBe('Special');
    expect(state().scenarioCount).toBe(1);
    await plainAnswers();
  }, 300_000);
});
