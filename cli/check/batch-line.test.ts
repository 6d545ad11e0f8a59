import { expect, test } from 'vitest';
import { answerOf, parseBatchLine } from './batch-line.js';
import { makeVerdict } from '../../processes/checker/engine/verdicts.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

test('a line with a JSON body, and one with body text, become exchanges', () => {
  const json = parseBatchLine('{"method":"get","path":"/pets/1","status":200,"contentType":"application/json","body":{"id":1},"operation":"GET /pets/{petId}"}', 1);
  expect({ ...json, body: text(json.body) }).toEqual({ method: 'GET', url: '/pets/1', status: 200, contentType: 'application/json', operation: { method: 'get', path: '/pets/{petId}' }, body: '{"id":1}' });
  const raw = parseBatchLine('{"method":"GET","path":"https://h/pets/1","status":500,"bodyText":"<oops>"}', 2);
  expect({ ...raw, body: text(raw.body) }).toEqual({ method: 'GET', url: 'https://h/pets/1', status: 500, body: '<oops>' });
  expect(text(parseBatchLine('{"method":"GET","path":"/","status":200,"body":null}', 3).body)).toBe('null');
});

test.each([
  ['{"method":"GET","path":"/a","status":200,"body":"secret value', 'line 7: not valid JSON'],
  ['[1,2]', 'line 7: expected a JSON object'],
  ['{"path":"/a","status":200}', 'line 7: "method" must be an HTTP method such as "GET"'],
  ['{"method":"GET","status":200}', 'line 7: "path" must be a path or a URL'],
  ['{"method":"GET","path":"/a","status":42}', 'line 7: "status" must be an integer from 100 to 999'],
  ['{"method":"GET","path":"/a","status":200,"body":1,"bodyText":"1"}', 'line 7: give "body" or "bodyText", not both'],
  ['{"method":"GET","path":"/a","status":200,"operation":"pets"}', 'line 7: an operation is written as a method and a path template, e.g. "GET /pets/{petId}"'],
])('%s is answered "%s", never quoting the line', (line, message) => {
  expect(() => parseBatchLine(line, 7)).toThrow(message);
});

test('an answer carries exactly verdict, problems (pointer and message) and partial', () => {
  const verdict = makeVerdict('problems', { problems: [{ pointer: '/a', message: 'expected string, found number', keyword: 'type' }], operation: { method: 'get', path: '/a' }, steps: 3 });
  expect(answerOf(verdict)).toEqual({ verdict: 'problems', problems: [{ pointer: '/a', message: 'expected string, found number' }], partial: false });
});
