import { describe, expect, it } from 'vitest';
import type { Assertion } from '../../../protocol/model/assertion.js';
import { evaluateAssertions, needsWorker } from './assertions.js';
import { blankRequest, requestForFile } from '../../../protocol/model/request.js';

const a = (fields: Partial<Assertion>): Assertion => ({ enabled: true, source: 'body', path: '', op: 'equals', value: '', ...fields });
const response = (body: unknown, status = 200, timeMs = 12) => ({ status, timeMs, body: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)), bodyComplete: true });

describe('evaluateAssertions', () => {
  const body = { id: 7, name: 'Rex', tags: ['a', 'b'], price: '12.5', nested: { ok: true, none: null }, items: [{ id: 1 }, { id: 2 }] };

  it('compares the status and the response time', () => {
    const results = evaluateAssertions(
      [a({ source: 'status', op: 'equals', value: '200' }), a({ source: 'status', op: 'less', value: '300' }), a({ source: 'time', op: 'less', value: '5' }), a({ source: 'status', op: 'matches', value: '^2\\d\\d$' })],
      response(body),
    );
    expect(results.map((r) => r.passed)).toEqual([true, true, false, true]);
    expect(results[2]).toMatchObject({ label: 'response time (ms) less than 5', message: 'got 12' });
  });

  it('reads JSON body paths with each operator', () => {
    const cases: [Partial<Assertion>, boolean][] = [
      [{ path: '$.id', op: 'equals', value: '7' }, true],
      [{ path: '$.id', op: 'equals', value: '"7"' }, false],
      [{ path: '$.name', op: 'equals', value: 'Rex' }, true],
      [{ path: '$.name', op: 'equals', value: '"Rex"' }, true],
      [{ path: '$.name', op: 'notEquals', value: 'Rex' }, false],
      [{ path: '$.price', op: 'equals', value: '12.5' }, true],
      [{ path: '$.tags', op: 'equals', value: '["a","b"]' }, true],
      [{ path: '$.items[*].id', op: 'equals', value: '[1,2]' }, true],
      [{ path: '$.nested', op: 'equals', value: '{"none":null,"ok":true}' }, true],
      [{ path: '$.nested.none', op: 'equals', value: 'null' }, true],
      [{ path: '$.id', op: 'greater', value: '6' }, true],
      [{ path: '$.id', op: 'less', value: '7' }, false],
      [{ path: '$.name', op: 'less', value: '7' }, false],
      [{ path: '$.nested.ok', op: 'exists' }, true],
      [{ path: '$.missing', op: 'exists' }, false],
      [{ path: '$.missing', op: 'equals', value: '1' }, false],
      [{ path: '$.name', op: 'matches', value: '^R.x$' }, true],
      [{ path: '$.id', op: 'matches', value: '^\\d+$' }, true],
      [{ path: '$.name', op: 'matches', value: '^(a+)+$' }, false],
    ];
    const results = evaluateAssertions(cases.map(([fields]) => a(fields)), response(body));
    expect(results.map((r) => r.passed)).toEqual(cases.map(([, passed]) => passed));
    expect(results[1]!.message).toBe('got 7');
    expect(results[15]!.message).toBe('nothing found at $.missing');
  });

  it('says why a body cannot be read, and skips disabled assertions', () => {
    const results = evaluateAssertions([a({ path: '$.x', op: 'exists' }), a({ enabled: false, path: '$.y', op: 'exists' }), a({ path: '$[', op: 'exists' })], response('<html/>'));
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ index: 0, passed: false, message: 'the body is not JSON, so $.x cannot be read' });
    expect(results[1]!.index).toBe(2);
    const bad = evaluateAssertions([a({ path: ' ', op: 'exists' })], response({}));
    expect(bad[0]!.message).toMatch(/^the JSONPath   is not valid: The expression is empty/);
  });

  it('refuses a pattern that needs backtracking unless it may run, and a bad pattern', () => {
    const look = a({ path: '$.name', op: 'matches', value: '^(?=R)Rex$' });
    expect(evaluateAssertions([look], response(body))[0]!.message).toMatch(/needs backtracking/);
    expect(evaluateAssertions([look], response(body), { backtracking: true })[0]!.passed).toBe(true);
    expect(evaluateAssertions([a({ path: '$.name', op: 'matches', value: '(' })], response(body))[0]!.message).toMatch(/not valid/);
  });

  it('never quotes a value read through a credential-named key', () => {
    const results = evaluateAssertions([a({ path: '$.access_token', op: 'equals', value: 'x' }), a({ path: '$.auth.password', op: 'matches', value: '^x$' })], response({ access_token: 'tok-SECRET', auth: { password: 'pw-SECRET' } }));
    expect(results.map((r) => r.passed)).toEqual([false, false]);
    expect(JSON.stringify(results)).not.toMatch(/SECRET/);
    expect(results[0]!.message).toBe('got a value that is not shown (a credential)');
  });

  it('tells which assertions need the worker', () => {
    expect(needsWorker([a({ source: 'status', op: 'equals', value: '200' })])).toBe(false);
    expect(needsWorker([a({ source: 'status', op: 'matches', value: '2..' })])).toBe(true);
    expect(needsWorker([a({ path: '$.x', op: 'exists' })])).toBe(true);
    expect(needsWorker([a({ enabled: false, path: '$.x', op: 'exists' })])).toBe(false);
  });
});

describe('GraphQL errors', () => {
  it('passes when the answer has no errors (absent or empty), fails naming how many and the first', () => {
    const none = a({ source: 'graphqlErrors', op: 'empty' });
    expect(evaluateAssertions([none], response({ data: { hello: 'hi' } }))[0]).toMatchObject({ passed: true, label: 'GraphQL errors empty' });
    expect(evaluateAssertions([none], response({ data: null, errors: [] }))[0]!.passed).toBe(true);
    const failed = evaluateAssertions([none], response({ data: null, errors: [{ message: 'Cannot query field "nope" on type "User".' }, { message: 'two' }] }))[0]!;
    expect(failed).toMatchObject({ passed: false, message: '2 GraphQL errors, the first: "Cannot query field \\"nope\\" on type \\"User\\"."' });
    expect(evaluateAssertions([none], response('<html>'))[0]!.message).toBe('the body is not JSON, so its GraphQL errors cannot be read');
    expect(needsWorker([none])).toBe(true);
  });
});

describe('a request with an assertion on GraphQL errors', () => {
  it('is saved as version 4, so a release before GraphQL refuses it rather than drop the assertion', () => {
    const request = blankRequest({ id: 'r1', name: 'Q', method: 'POST', url: '/graphql' });
    expect(requestForFile({ ...request, assertions: [a({ source: 'status', op: 'equals', value: '200' })] }).version).toBe(2);
    expect(requestForFile({ ...request, assertions: [a({ source: 'graphqlErrors', op: 'empty' })] }).version).toBe(4);
  });
});
