/**
 * `parley run` with WebSocket requests (issue 29 item 7, docs/websocket.md): the built CLI against
 * a `ws` server on 127.0.0.1. A request's saved messages go out in order (`${...}` expanded, JSON
 * and text), the run waits for the count of messages it states and checks assertions over the
 * messages received; one that waits for a message that never comes stops at its time and fails
 * its assertion; the order in which the server received them is the saved order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocketRequest } from '../../protocol/model/websocket.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { runParley } from '../support/processes.js';
import { assertion } from '../support/run-project.js';

const SLOW = { timeout: 120_000 };

let work: string;
let home: string;
let project: string;
let wss: WebSocketServer;
/** What the server received, per connection path, in order. */
const received = new Map<string, string[]>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-run-websocket-'));
  home = join(work, 'home');
  project = join(work, 'project');
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const base = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (socket, req) => {
    const path = req.url ?? '/';
    received.set(path, []);
    socket.on('message', (data) => {
      received.get(path)!.push(String(data));
      // /echo answers each message; /quiet says nothing.
      if (path === '/echo') socket.send(`echo: ${String(data)}`);
    });
  });

  const store = await ProjectStore.open(project, { create: true, name: 'Sockets' });
  await store.setProperties([{ name: 'who', value: 'Ada', enabled: true }]);
  const api = await store.createApi({ name: 'Live', baseUrl: base });
  const make = async (name: string, patch: Partial<WebSocketRequest>) => {
    const created = (await store.createRequestOfKind({ parent: api.id, kind: 'websocket', name, url: '' })) as WebSocketRequest;
    await store.saveRequest({ ...created, ...patch });
  };
  await make('1 echo', {
    url: '/echo',
    messages: [
      { name: 'hello', format: 'text', text: 'hello ${who}', file: '' },
      { name: 'data', format: 'json', text: '{"n": 1}', file: '' },
    ],
    run: { messages: 2, waitMs: 10_000 },
    assertions: [assertion({ source: 'status', value: '101' }), assertion({ path: '$[0].data', value: 'echo: hello Ada' }), assertion({ path: '$[1].data', value: 'echo: {"n": 1}' }), assertion({ path: '$[*].direction', value: '["received","received"]' })],
  });
  await make('2 quiet', {
    url: '/quiet',
    messages: [{ name: 'ping', format: 'text', text: 'anyone?', file: '' }],
    run: { messages: 1, waitMs: 300 },
    assertions: [assertion({ path: '$[0].data', op: 'exists' })],
  });
  await store.close();
});

afterAll(async () => {
  for (const client of wss?.clients ?? []) client.terminate();
  await new Promise((resolve) => wss?.close(resolve));
  await rm(work, { recursive: true, force: true });
});

interface Outcome {
  request: { name: string; method: string; url: string };
  response?: { status: number };
  failed: boolean;
  assertions: { label: string; passed: boolean; message: string }[];
}

describe('parley run with WebSocket requests', () => {
  it('sends the saved messages in order, waits for the messages it states, and checks assertions over those received', SLOW, async () => {
    const run = await runParley(['run', project, '--reporter', 'json'], { home });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { summary: Record<string, unknown>; outcomes: Outcome[] };
    expect(report.summary).toMatchObject({ requests: 2, failed: 1, errors: 0 });
    const [echo, quiet] = report.outcomes;
    expect(echo).toMatchObject({ request: { name: '1 echo', method: 'WS', url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/echo$/) }, response: { status: 101 }, failed: false });
    expect(echo!.assertions.map((a) => [a.label, a.passed, a.message])).toEqual([
      ['status equals 101', true, ''],
      ['$[0].data equals echo: hello Ada', true, ''],
      ['$[1].data equals echo: {"n": 1}', true, ''],
      ['$[*].direction equals ["received","received"]', true, ''],
    ]);
    expect(received.get('/echo')).toEqual(['hello Ada', '{"n": 1}']);
    // Nothing came back within its 300 ms: the run went on, and its assertion says so.
    expect(quiet).toMatchObject({ request: { name: '2 quiet' }, response: { status: 101 }, failed: true });
    expect(quiet!.assertions[0]).toMatchObject({ passed: false, message: 'nothing found at $[0].data' });
    expect(received.get('/quiet')).toEqual(['anyone?']);
  });

  it('prints each WebSocket request in the console report', SLOW, async () => {
    const run = await runParley(['run', project, '--request', '1 echo'], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ok +WS +Live\/1 echo/);
    expect(run.stdout).toContain('PASSED: 1 request: 1 passed, 0 failed');
  });
});
