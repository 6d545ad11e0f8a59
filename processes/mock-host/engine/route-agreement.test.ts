/**
 * The mock's routing and the contract check's operation choice are one rule (issue 12): over
 * generated documents and request paths, a mock answers from the same operation the checker
 * then checks that answer against, or both find none.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { PreparedDefinition } from '../../checker/engine/definition.js';
import { listOperations, matchOperation } from '../../checker/engine/select-operation.js';
import { Router } from './router.js';

const templateSegment = fc.constantFrom('a', 'b', 'x', '{p}', '{q}', '{r}.json', 'v{n}', 'caf%C3%A9');
const requestSegment = fc.constantFrom('a', 'b', 'x', '1', '1.json', 'v2', 'café', 'caf%C3%A9', '%E0%A4%A', '');
const methods = fc.subarray(['get', 'put', 'post', 'delete'], { minLength: 1 });
const paths = fc.uniqueArray(fc.array(templateSegment, { minLength: 0, maxLength: 3 }).map((s) => `/${s.join('/')}`), { minLength: 1, maxLength: 8 });

test('route and checked operation agree for any document and path', () => {
  fc.assert(
    fc.property(paths, methods, fc.array(requestSegment, { maxLength: 3 }), fc.constantFrom('GET', 'PUT', 'POST', 'DELETE'), (templates, ms, parts, method) => {
      const ok = { responses: { '200': { description: 'ok' } } };
      const document = {
        openapi: '3.0.3',
        info: { title: 'generated', version: '1' },
        paths: Object.fromEntries(templates.map((t) => [t, Object.fromEntries(ms.map((m) => [m, ok]))])),
      };
      const ops = listOperations(new PreparedDefinition([{ uri: 'file:///api.json', document }], 'fp'));
      const router = new Router(ops.map((op) => ({ method: op.method.toUpperCase(), path: op.path, target: op.path })));
      const requestPath = `/${parts.join('/')}`;
      const checked = matchOperation(ops, method, `http://127.0.0.1:4010${requestPath}`)?.path;
      const routed = router.match(method, requestPath)?.target;
      expect(routed, `${method} ${requestPath} over ${templates.join(' ')}`).toBe(checked);
    }),
    { numRuns: 2_000 },
  );
});

test('a sort of the router\'s templates agrees with the checker (a comparator that was not a total order)', () => {
  const ok = { responses: { '200': { description: 'ok' } } };
  const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/{p}/{p}': { delete: ok }, '/{q}': { delete: ok }, '/{p}/v{n}': { delete: ok } } };
  const ops = listOperations(new PreparedDefinition([{ uri: 'file:///api.json', document }], 'fp'));
  const router = new Router(ops.map((op) => ({ method: 'DELETE', path: op.path, target: op.path })));
  expect(matchOperation(ops, 'DELETE', 'http://h/a/v2')?.path).toBe('/{p}/v{n}');
  expect(router.match('DELETE', '/a/v2')?.target).toBe('/{p}/v{n}');
});

test('the case the copies disagreed on: GET /x/b/c against /{a}/b/c and /x/{b}/{c}', () => {
  const ok = { responses: { '200': { description: 'ok' } } };
  const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/{a}/b/c': { get: ok }, '/x/{b}/{c}': { get: ok } } };
  const ops = listOperations(new PreparedDefinition([{ uri: 'file:///api.json', document }], 'fp'));
  const router = new Router(ops.map((op) => ({ method: 'GET', path: op.path, target: op.path })));
  expect(matchOperation(ops, 'GET', 'http://h/x/b/c')?.path).toBe('/x/{b}/{c}');
  expect(router.match('GET', '/x/b/c')?.target).toBe('/x/{b}/{c}');
});
