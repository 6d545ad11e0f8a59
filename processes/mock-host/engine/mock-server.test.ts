import { afterEach, describe, expect, it } from 'vitest';
import type { MockLogEntry, MockResponse } from '../../../protocol/model/mock.js';
import { MockServer, type LogRecord, type MockServerOptions } from './mock-server.js';
import { json, mockOf, operation, response, send } from './test-support/mocks.js';
import { indexContract } from './contract.js';
import { contractChecker } from './contract-checker.js';

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function start(options: MockServerOptions): Promise<{ server: MockServer; port: number; logs: MockLogEntry[] }> {
  const logs: MockLogEntry[] = [];
  const server = new MockServer({ ...options, onLog: (e) => logs.push(e) });
  running.push(server);
  const { port } = await server.start();
  return { server, port, logs };
}

describe('routing', () => {
  const mock = mockOf(
    [
      operation({ method: 'GET', path: '/pets/{petId}', responses: [json('Default', { who: 'any' })] }),
      operation({ method: 'GET', path: '/pets/mine', responses: [json('Default', { who: 'mine' })] }),
    ],
    { path: '/api/v1' },
  );

  it('strips the Path and prefers the concrete operation', async () => {
    const { port } = await start({ mock });
    expect((await send(port, { path: '/api/v1/pets/mine' })).json()).toEqual({ who: 'mine' });
    expect((await send(port, { path: '/api/v1/pets/12?x=1' })).json()).toEqual({ who: 'any' });
  });

  it('answers 404 with a JSON problem naming method and path', async () => {
    const { port, logs } = await start({ mock });
    for (const path of ['/pets/mine', '/api/v1/owners', '/api/v1']) {
      const answer = await send(port, { method: 'PUT', path });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.json()).toMatchObject({ status: 404, code: 'mock-no-route', method: 'PUT', path: path.split('?')[0] });
    }
    expect(logs.map((l) => l.status)).toEqual([404, 404, 404]);
  });

  it('answers HEAD with the GET response headers and no body', async () => {
    const { port } = await start({ mock });
    const answer = await send(port, { method: 'HEAD', path: '/api/v1/pets/mine' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe(String(JSON.stringify({ who: 'mine' }).length));
    expect(answer.text).toBe('');
  });
});

describe('responses without a body', () => {
  it('sends 204 with no body and no Content-Length, even when the stub holds text', async () => {
    const mock = mockOf([operation({ method: 'DELETE', path: '/x', responses: [response({ name: 'Default', status: 204, body: { kind: 'text', text: 'ignored' } })] })]);
    const { port } = await start({ mock });
    const answer = await send(port, { method: 'DELETE', path: '/x' });
    expect([answer.status, answer.text, answer.headers['content-length']]).toEqual([204, '', undefined]);
  });
});

describe('dispatch', () => {
  it('In order sends the next response each time and wraps', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/n', responses: ['Default', 'Second', 'Third'].map((n) => response({ name: n, body: { kind: 'text', text: n } })) })]);
    const { port } = await start({ mock });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await send(port, { path: '/n' })).text);
    expect(seen).toEqual(['Default', 'Second', 'Third', 'Default']);
  });

  it('At random sends the response the random source picks', async () => {
    const picks = [0.9, 0.1, 0.5];
    const mock = mockOf([operation({ method: 'GET', path: '/r', dispatch: 'random', responses: ['A', 'B', 'C'].map((n) => response({ name: n, body: { kind: 'text', text: n } })) })]);
    const { port } = await start({ mock, random: () => picks.shift() ?? 0 });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push((await send(port, { path: '/r' })).text);
    expect(seen).toEqual(['C', 'A', 'B']);
  });

  it('By match conditions sends the first response whose conditions all hold, reading every source', async () => {
    const text = (name: string, match: ReturnType<typeof response>['match']) => response({ name, body: { kind: 'text', text: name }, match });
    const mock = mockOf([
      operation({
        method: 'POST',
        path: '/orders/{orderId}',
        dispatch: 'match',
        responses: [
          text('Both', [
            { source: { from: 'query', name: 'kind' }, check: 'equals', value: 'gift' },
            { source: { from: 'header', name: 'X-Tier' }, check: 'regex', value: '^gold|platinum$' },
          ]),
          text('JsonBody', [{ source: { from: 'body', language: 'jsonpath', expression: '$.items[0].sku' }, check: 'equals', value: 'A-1' }]),
          text('XmlBody', [{ source: { from: 'body', language: 'xpath', expression: '/o:order/o:sku' }, check: 'equals', value: 'X-9' }]),
          text('XPathOnJson', [{ source: { from: 'body', language: 'xpath', expression: '?items?2?sku' }, check: 'equals', value: 'B-2' }]),
          text('PathParam', [{ source: { from: 'path', name: 'orderId' }, check: 'regex', value: '^o-\\d+$' }]),
          text('NoTrace', [{ source: { from: 'header', name: 'X-Trace' }, check: 'absent' }]),
          text('Traced', [{ source: { from: 'header', name: 'x-trace' }, check: 'present' }]),
        ],
      }),
    ]);
    const { port } = await start({ mock });
    const post = async (path: string, headers: Record<string, string>, body = '') => (await send(port, { method: 'POST', path, headers, body })).text;
    expect(await post('/orders/1?kind=gift', { 'X-Tier': 'gold', 'X-Trace': 't' })).toBe('Both');
    expect(await post('/orders/1?kind=gift', { 'X-Tier': 'bronze', 'X-Trace': 't' })).toBe('Traced');
    expect(await post('/orders/1', { 'X-Trace': 't' }, JSON.stringify({ items: [{ sku: 'A-1' }] }))).toBe('JsonBody');
    expect(await post('/orders/1', { 'X-Trace': 't' }, '<order xmlns="urn:o" xmlns:o="urn:o"><sku>X-9</sku></order>')).toBe('XmlBody');
    expect(await post('/orders/1', { 'X-Trace': 't' }, JSON.stringify({ items: [{ sku: 'A-0' }, { sku: 'B-2' }] }))).toBe('XPathOnJson');
    expect(await post('/orders/o-77', { 'X-Trace': 't' }, 'not json <')).toBe('PathParam');
    expect(await post('/orders/x', {})).toBe('NoTrace');
  });

  it('a regex condition runs on the linear engine: a string that makes V8 backtrack for minutes is no match, at once', async () => {
    const mock = mockOf([
      operation({
        method: 'GET',
        path: '/w',
        dispatch: 'match',
        responses: [
          response({ name: 'Word', body: { kind: 'text', text: 'word' }, match: [{ source: { from: 'query', name: 'w' }, check: 'regex', value: '^(a+)+$' }] }),
          response({ name: 'Default', body: { kind: 'text', text: 'default' } }),
        ],
      }),
    ]);
    const { port } = await start({ mock });
    expect((await send(port, { path: '/w?w=aaaa' })).text).toBe('word');
    expect((await send(port, { path: `/w?w=${'a'.repeat(40)}!` })).text).toBe('default');
  });

  it('a regex only the backtracking engine can run goes to the runner; without one, or when it gives up, the condition does not hold and the log says why', async () => {
    const guarded = { source: { from: 'query' as const, name: 'w' }, check: 'regex' as const, value: '^(?!b)a+$' };
    const mock = mockOf([
      operation({
        method: 'GET',
        path: '/w',
        dispatch: 'match',
        responses: [response({ name: 'Guarded', body: { kind: 'text', text: 'guarded' }, match: [guarded] }), response({ name: 'Default', body: { kind: 'text', text: 'default' } })],
      }),
    ]);
    const none = await start({ mock });
    expect((await send(none.port, { path: '/w?w=aaa' })).text).toBe('default');
    expect(none.logs[0]!.notes).toEqual([
      'The regular expression /^(?!b)a+$/ of a match condition was not evaluated: it uses a lookahead, which needs a backtracking engine, run only where it can be stopped; the condition does not hold.',
    ]);

    const asked: string[] = [];
    const runner = async (source: string, value: string) => {
      asked.push(`${source} ${value}`);
      return value === 'slow' ? { gaveUp: 'it took longer than 1000 ms and was stopped' } : { matched: new RegExp(source, 'u').test(value) };
    };
    const worker = await start({ mock, regexRunner: runner });
    expect((await send(worker.port, { path: '/w?w=aaa' })).text).toBe('guarded');
    expect((await send(worker.port, { path: '/w?w=baa' })).text).toBe('default');
    expect((await send(worker.port, { path: '/w?w=slow' })).text).toBe('default');
    expect(asked).toEqual(['^(?!b)a+$ aaa', '^(?!b)a+$ baa', '^(?!b)a+$ slow']);
    expect(worker.logs.map((l) => l.notes)).toEqual([
      [],
      [],
      ['The regular expression /^(?!b)a+$/ of a match condition was not evaluated: it took longer than 1000 ms and was stopped; the condition does not hold.'],
    ]);
  });

  it('sends Default when no response matches, and a response without conditions catches all', async () => {
    const mock = mockOf([
      operation({
        method: 'GET',
        path: '/m',
        dispatch: 'match',
        responses: [
          response({ name: 'Default', body: { kind: 'text', text: 'default' }, match: [{ source: { from: 'query', name: 'never' }, check: 'present' }] }),
          response({ name: 'Only', body: { kind: 'text', text: 'only' }, match: [{ source: { from: 'query', name: 'q' }, check: 'equals', value: '1' }] }),
        ],
      }),
      operation({
        method: 'GET',
        path: '/c',
        dispatch: 'match',
        responses: [response({ name: 'Specific', body: { kind: 'text', text: 'specific' }, match: [{ source: { from: 'query', name: 'q' }, check: 'present' }] }), response({ name: 'Default', body: { kind: 'text', text: 'catch-all' } })],
      }),
    ]);
    const { port } = await start({ mock });
    expect((await send(port, { path: '/m?q=2' })).text).toBe('default');
    expect((await send(port, { path: '/m?q=1' })).text).toBe('only');
    expect((await send(port, { path: '/c?q' })).text).toBe('specific');
    expect((await send(port, { path: '/c' })).text).toBe('catch-all');
  });
});

describe('scenarios', () => {
  const mock = mockOf([
    operation({
      method: 'POST',
      path: '/adopt',
      defaultResponse: 'Fallback',
      responses: [
        response({ name: 'First', status: 201, body: { kind: 'text', text: 'adopted' }, scenario: { name: 'adoption', onlyInState: 'Started', thenMoveTo: 'Adopted' } }),
        response({ name: 'Again', status: 409, body: { kind: 'text', text: 'already' }, scenario: { name: 'adoption', onlyInState: 'Adopted' } }),
        response({ name: 'Fallback', status: 500, body: { kind: 'text', text: 'fallback' }, scenario: { name: 'adoption', onlyInState: 'Nowhere' } }),
      ],
    }),
    operation({ method: 'GET', path: '/turns', responses: ['Default', 'Two'].map((n) => response({ name: n, body: { kind: 'text', text: n } })) }),
  ]);

  it('moves on after a response with Then move to, and Only in state limits the candidates', async () => {
    const { port } = await start({ mock });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(port, { method: 'POST', path: '/adopt' })).status);
    expect(statuses).toEqual([201, 409, 409]);
  });

  it('Reset state returns scenarios to Started and In order to the first response', async () => {
    const { server, port } = await start({ mock });
    await send(port, { method: 'POST', path: '/adopt' });
    expect((await send(port, { path: '/turns' })).text).toBe('Default');
    server.resetState();
    expect((await send(port, { method: 'POST', path: '/adopt' })).status).toBe(201);
    expect((await send(port, { path: '/turns' })).text).toBe('Default');
  });

  it('an edit keeps state and port; Stop resets state', async () => {
    const { server, port } = await start({ mock });
    await send(port, { method: 'POST', path: '/adopt' });
    await send(port, { path: '/turns' });
    const edited = structuredClone(mock);
    edited.operations[1]!.responses[1]!.body.text = 'Two (edited)';
    expect((await server.reconfigure({ mock: edited })).port).toBe(port);
    expect((await send(port, { method: 'POST', path: '/adopt' })).status).toBe(409);
    expect((await send(port, { path: '/turns' })).text).toBe('Two (edited)');

    await server.stop();
    const again = await server.start();
    expect((await send(again.port, { method: 'POST', path: '/adopt' })).status).toBe(201);
    expect((await send(again.port, { path: '/turns' })).text).toBe('Default');
  });
});

describe('templates', () => {
  const values = {
    who: { from: 'query' as const, name: 'who' },
    id: { from: 'path' as const, name: 'id' },
    trace: { from: 'header' as const, name: 'X-Trace' },
  };
  const mock = mockOf([
    operation({ method: 'GET', path: '/json/{id}', responses: [json('Default', '{"id":"{{id}}","who":"{{ who }}","missing":"[{{trace}}]"}', { values })] }),
    operation({
      method: 'GET',
      path: '/xml/{id}',
      responses: [response({ name: 'Default', headers: [{ name: 'Content-Type', value: 'application/xml' }], body: { kind: 'xml', text: '<r id="{{id}}"><who>{{who}}</who></r>' }, values })],
    }),
    operation({ method: 'GET', path: '/text/{id}', responses: [response({ name: 'Default', body: { kind: 'text', text: 'hello {{who}} #{{id}}' }, values })] }),
    operation({
      method: 'GET',
      path: '/header/{id}',
      responses: [response({ name: 'Default', headers: [{ name: 'X-Echo', value: 'echo {{trace}}' }], body: { kind: 'text', text: 'ok' }, values: { trace: values.trace } })],
    }),
    operation({ method: 'GET', path: '/static', responses: [response({ name: 'Default', body: { kind: 'text', text: 'literal {not} a template' } })] }),
  ]);

  it('escapes a value once for a JSON body and keeps the result valid JSON', async () => {
    const { port } = await start({ mock });
    const who = 'Ann "the" \\ {{id}}\n<b>';
    const answer = await send(port, { path: `/json/7?who=${encodeURIComponent(who)}` });
    expect(answer.json()).toEqual({ id: '7', who, missing: '[]' });
  });

  it('escapes XML entities in an XML body, and never re-reads an inserted value', async () => {
    const { port } = await start({ mock });
    const answer = await send(port, { path: `/xml/${encodeURIComponent('a"b')}?who=${encodeURIComponent("Tom & <Jerry> '{{id}}'")}` });
    expect(answer.text).toBe('<r id="a&quot;b"><who>Tom &amp; &lt;Jerry&gt; &apos;{{id}}&apos;</who></r>');
  });

  it('inserts the value as it is in a text body', async () => {
    const { port } = await start({ mock });
    expect((await send(port, { path: `/text/9?who=${encodeURIComponent('<{{who}}> & "x"')}` })).text).toBe('hello <{{who}}> & "x" #9');
  });

  it('fills header values, and refuses one that would break the header with 500 and mock-template-refused', async () => {
    const { port, logs } = await start({ mock });
    const ok = await send(port, { path: '/header/1', headers: { 'X-Trace': 'abc' } });
    expect(ok.headers['x-echo']).toBe('echo abc');

    // A client cannot put a line break in a header, but a query or body value can carry one.
    const refusingMock = structuredClone(mock);
    refusingMock.operations[3]!.responses[0]!.values = { trace: { from: 'query', name: 't' } };
    const second = await start({ mock: refusingMock });
    const refused = await send(second.port, { path: `/header/1?t=${encodeURIComponent('a\r\nSet-Cookie: x=1')}` });
    expect(refused.status).toBe(500);
    expect(refused.headers['x-echo']).toBeUndefined();
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.json()).toMatchObject({ code: 'mock-template-refused', header: 'X-Echo' });
    const entry = second.logs.at(-1)!;
    expect(entry.status).toBe(500);
    expect(entry.notes.join(' ')).toMatch(/header X-Echo would contain a line break/);
    expect(logs).toHaveLength(1);
  });

  it('sends a binary body as its bytes, with or without values: only its headers are filled', async () => {
    // Bytes that are not UTF-8 (0x89, 0xff) and a run that reads as a placeholder.
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]), Buffer.from('{{who}}')]);
    const binary = (partial: Partial<MockResponse>) => response({ name: 'Default', headers: [{ name: 'Content-Type', value: 'image/png' }], body: { kind: 'binary', text: bytes.toString('base64') }, ...partial });
    const { port } = await start({
      mock: mockOf([
        operation({ method: 'GET', path: '/static.png', responses: [binary({})] }),
        operation({ method: 'GET', path: '/named.png', responses: [binary({ headers: [{ name: 'Content-Type', value: 'image/png' }, { name: 'X-Who', value: '{{who}}' }], values: { who: values.who } })] }),
      ]),
    });
    for (const path of ['/static.png', '/static.png', '/named.png?who=Ann']) {
      const answer = await send(port, { path });
      expect([answer.bytes, answer.headers['content-length']]).toEqual([bytes, String(bytes.length)]);
    }
    expect((await send(port, { path: '/named.png?who=Ann' })).headers['x-who']).toBe('Ann');
  });

  it('sends a response that declares no values exactly as written', async () => {
    const { port } = await start({ mock });
    expect((await send(port, { path: '/static' })).text).toBe('literal {not} a template');
  });
});

describe('delay, limits and the Host check', () => {
  it('waits Delay ms before answering', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/slow', responses: [response({ name: 'Default', delayMs: 150, body: { kind: 'text', text: 'late' } })] })]);
    const { port, logs } = await start({ mock });
    expect((await send(port, { path: '/slow' })).text).toBe('late');
    // A lower bound, with a little room for timers' millisecond rounding: the delay was applied.
    expect(logs[0]!.durationMs).toBeGreaterThanOrEqual(145);
  });

  it('answers 413 past the request body limit', async () => {
    const mock = mockOf([operation({ method: 'POST', path: '/up', responses: [response({ name: 'Default', body: { kind: 'text', text: 'ok' } })] })]);
    const { port } = await start({ mock, maxBodyBytes: 1024 });
    expect((await send(port, { method: 'POST', path: '/up', body: 'x'.repeat(1024) })).text).toBe('ok');
    const tooBig = await send(port, { method: 'POST', path: '/up', body: 'x'.repeat(1025) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 'mock-body-too-large', limit: 1024 });
  });

  it('refuses a Host other than 127.0.0.1 or localhost on its port', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/', responses: [response({ name: 'Default', body: { kind: 'text', text: 'hi' } })] })]);
    const { port } = await start({ mock });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', '127.0.0.1']) expect((await send(port, { path: '/', host })).text, host).toBe('hi');
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost.evil:${port}`]) {
      const answer = await send(port, { path: '/', host });
      expect(answer.status, host).toBe(421);
      expect(answer.json()).toMatchObject({ code: 'mock-host-refused' });
    }
  });

  it('accepts any Host when listening on all interfaces', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/', responses: [response({ name: 'Default', body: { kind: 'text', text: 'hi' } })] })]);
    const { port } = await start({ mock, listenAllInterfaces: true });
    expect((await send(port, { path: '/', host: 'workstation.lan' })).text).toBe('hi');
  });

  it('keeps a picked port across a reconfigure that switches interfaces, and reuses it after a restart', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/', responses: [response({ name: 'Default', body: { kind: 'text', text: 'hi' } })] })]);
    const { server, port } = await start({ mock });
    expect((await server.reconfigure({ mock, listenAllInterfaces: true })).port).toBe(port);
    expect((await send(port, { path: '/', host: 'other' })).text).toBe('hi');
    await server.stop();
    const restarted = new MockServer({ mock, keepPort: port });
    running.push(restarted);
    expect((await restarted.start()).port).toBe(port);
  });

  it('reports a port in use as mock-port-in-use', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/', responses: [response({ name: 'Default' })] })]);
    const { port } = await start({ mock });
    const clash = new MockServer({ mock: { ...mock, port } });
    await expect(clash.start()).rejects.toMatchObject({ code: 'mock-port-in-use' });
  });
});

describe('log', () => {
  it('records each exchange with credential headers and query values masked', async () => {
    const mock = mockOf([operation({ name: 'login', method: 'POST', path: '/login', responses: [json('Default', { ok: true }, { headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Set-Cookie', value: 'sid=abc' }] })] })]);
    const { server, port, logs } = await start({ mock, now: () => new Date('2030-01-02T03:04:05.000Z'), newId: () => 'entry-1' });
    const credentials = {
      Authorization: 'Bearer s3cr3t',
      'Proxy-Authorization': 'Basic eA==',
      Cookie: 'sid=1',
      'X-Api-Key': 'k1',
      'X-CSRF-Token': 'c1',
      'X-Session_Id': 's1',
      Sig: 'g1',
      'X-Subscription-Key': 'sk',
    };
    await send(port, { method: 'POST', path: '/login?api_key=q1&page=2', headers: { ...credentials, 'X-Plain': 'visible', 'Content-Type': 'application/json' }, body: '{"user":"ann"}' });
    const entry = logs[0]!;
    expect(entry).toMatchObject({ id: 'entry-1', time: '2030-01-02T03:04:05.000Z', mock: 'mock-test', method: 'POST', operation: 'login', responseName: 'Default', status: 200 });
    expect(entry.path).toBe('/login?api_key=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2&page=2');
    const sent = Object.fromEntries(entry.request.headers.map((h) => [h.name, h.value]));
    for (const name of Object.keys(credentials)) expect(sent[name], name).toBe('••••••');
    expect(sent['X-Plain']).toBe('visible');
    expect(entry.request.body).toEqual({ text: '{"user":"ann"}', size: 14, truncated: false });
    expect(entry.response.headers).toContainEqual({ name: 'Set-Cookie', value: '••••••' });
    expect(entry.response.body.text).toBe('{"ok":true}');
    const serialized = JSON.stringify(entry);
    for (const secret of ['s3cr3t', 'eA==', 'sid=1', 'k1', 'c1', 'q1', 'sid=abc']) expect(serialized).not.toContain(secret);
    expect(server.logEntries()).toEqual([entry]);
  });

  it('keeps only the newest entries in its ring', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/{n}', responses: [response({ name: 'Default' })] })]);
    const { server, port } = await start({ mock, logCapacity: 3 });
    for (let n = 1; n <= 5; n++) await send(port, { path: `/${n}` });
    expect(server.logEntries().map((e) => e.path)).toEqual(['/3', '/4', '/5']);
  });
});

describe('the hot path stays exact', () => {
  it('sends a static response byte for byte every time, UTF-8 and large bodies included, and HEAD without its body', async () => {
    const big = 'x'.repeat(40_000);
    const mock = mockOf([
      operation({ method: 'GET', path: '/utf8', responses: [response({ name: 'Default', headers: [{ name: 'Content-Type', value: 'text/plain; charset=utf-8' }], body: { kind: 'text', text: 'Smørrebrød ☕ 𝄞' } })] }),
      operation({ method: 'GET', path: '/big', responses: [response({ name: 'Default', body: { kind: 'text', text: big } })] }),
    ]);
    const { port } = await start({ mock });
    for (let i = 0; i < 3; i++) {
      const answer = await send(port, { path: '/utf8' });
      expect([answer.text, answer.headers['content-length']]).toEqual(['Smørrebrød ☕ 𝄞', String(Buffer.byteLength('Smørrebrød ☕ 𝄞'))]);
    }
    expect((await send(port, { path: '/big' })).text).toBe(big);
    const head = await send(port, { method: 'HEAD', path: '/big' });
    expect([head.text, head.headers['content-length']]).toEqual(['', '40000']);
  });

  it('routes plain, escaped, doubled-slash and trailing-slash paths alike', async () => {
    const mock = mockOf([
      operation({ method: 'GET', path: '/a b/c', responses: [response({ name: 'Default', body: { kind: 'text', text: 'space' } })] }),
      operation({ method: 'GET', path: '/pets', responses: [response({ name: 'Default', body: { kind: 'text', text: 'pets' } })] }),
      operation({ method: 'GET', path: '/pets/{id}', responses: [response({ name: 'Default', body: { kind: 'text', text: 'pet' } })] }),
    ]);
    const { port } = await start({ mock });
    for (const path of ['/pets', '/pets/', '//pets', '/pet%73']) expect((await send(port, { path })).text, path).toBe('pets');
    expect((await send(port, { path: '/a%20b/c' })).text).toBe('space');
    expect((await send(port, { path: '/pets/7?x=1' })).text).toBe('pet');
    expect((await send(port, { path: '/nope' })).status).toBe(404);
  });

  it('gives records whose entry, built only when read, is the one onLog gets', async () => {
    const mock = mockOf([operation({ method: 'GET', path: '/p', responses: [json('Default', { ok: true })] })]);
    const records: LogRecord[] = [];
    const { port, logs } = await start({ mock, onRecord: (r) => records.push(r) });
    await send(port, { path: '/p?token=abc', headers: { Authorization: 'Bearer zzz', 'X-Plain': 'seen' } });
    await send(port, { path: '/p', headers: { Cookie: 'a=b' } });
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.entry())).toEqual(logs);
    expect(records[0]!.entry()).toBe(records[0]!.entry());
    const first = logs[0]!;
    expect(first.path).toBe('/p?token=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2');
    expect(first.request.headers).toEqual(expect.arrayContaining([{ name: 'Authorization', value: '••••••' }, { name: 'X-Plain', value: 'seen' }]));
    expect(logs[1]!.request.headers).toContainEqual({ name: 'Cookie', value: '••••••' });
    expect(first.response.headers).toEqual([
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Content-Length', value: '11' },
    ]);
    expect(first.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(first.id).not.toBe(logs[1]!.id);
  });
});

describe('a multipart/form-data request', () => {
  const document = {
    openapi: '3.0.3',
    info: { title: 'uploads', version: '1' },
    paths: {
      '/avatars': {
        post: {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', required: ['user', 'image'], properties: { user: { type: 'integer' }, image: { type: 'string', format: 'binary' }, caption: { type: 'string', maxLength: 20 } } },
              },
            },
          },
          responses: { '201': { description: 'stored' } },
        },
      },
    },
  };

  it('sent by fetch with a FormData to a real mock: answered, and the log names the field that breaks the contract', async () => {
    const mock = mockOf([operation({ name: 'upload', method: 'POST', path: '/avatars', responses: [response({ name: 'Stored', status: 201 })] })], { contractCheck: 'log' });
    const { port, logs } = await start({ mock, checker: contractChecker(indexContract(document)) });
    const post = async (fields: Array<[string, string | Blob]>) => {
      const form = new FormData();
      for (const [name, value] of fields) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, 'me.png');
      }
      return (await fetch(`http://127.0.0.1:${port}/avatars`, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) })).status;
    };
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });

    expect(await post([['user', '7'], ['image', png], ['caption', 'me']])).toBe(201);
    expect(await post([['user', 'seven'], ['image', 'me.png'], ['caption', 'x'.repeat(30)]])).toBe(201);
    expect(logs.map((entry) => entry.problems)).toEqual([
      [],
      [
        { in: 'body', pointer: 'image', message: 'The form field image must be a file, but a text field was sent.' },
        { in: 'body', pointer: 'user', message: 'user: expected integer, found string' },
        { in: 'body', pointer: 'caption', message: 'caption: expected at most 20 characters' },
      ],
    ]);
  });
});
