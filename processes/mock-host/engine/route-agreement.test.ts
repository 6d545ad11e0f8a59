/**
 * The mock's routing and the contract check's operation choice are one rule (issue 12): over
 * generated documents and request paths, a mock answers from the same operation the checker
 * then checks that answer against, or both find none. The documents are OpenAPI 3.0 (with and
 * without servers whose paths the check strips) and Swagger 2.0 (with and without a basePath);
 * the router is built as the mock engine builds it, with the prefixes the mock's contract checker gives.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { PreparedDefinition } from '../../checker/engine/definition.js';
import { listOperations, matchOperation } from '../../checker/engine/select-operation.js';
import { Router } from './router.js';
import { indexContract } from './contract.js';
import { contractChecker } from './contract-checker.js';

const templateSegment = fc.constantFrom('a', 'b', 'x', '{p}', '{q}', '{r}.json', 'v{n}', 'caf%C3%A9');
const requestSegment = fc.constantFrom('a', 'b', 'x', '1', '1.json', 'v1', 'v2', 'café', 'caf%C3%A9', '%E0%A4%A', '', '..', '.', '%2e', 'a\\b', 'a b');
const methods = fc.subarray(['get', 'put', 'post', 'delete'], { minLength: 1 });
const paths = fc.uniqueArray(fc.array(templateSegment, { minLength: 0, maxLength: 3 }).map((s) => `/${s.join('/')}`), { minLength: 1, maxLength: 8 });

/** Where the document says its API lives: nothing, a 3.x servers list, or a Swagger 2.0 basePath. */
const placement = fc.oneof(
  fc.record({ kind: fc.constant('openapi' as const), servers: fc.constantFrom(undefined, ['https://h/v1'], ['/a', '/a/b'], ['/', 'http://h/caf%C3%A9'], ['/x/']) }),
  fc.record({ kind: fc.constant('swagger' as const), basePath: fc.constantFrom(undefined, '/', '/v1', '/a', '/a/b', '/x/') }),
);

function documentOf(templates: string[], ms: string[], where: PlacementValue): Record<string, unknown> {
  const ok = { responses: { '200': { description: 'ok' } } };
  const paths = Object.fromEntries(templates.map((t) => [t, Object.fromEntries(ms.map((m) => [m, ok]))]));
  if (where.kind === 'swagger') {
    return { swagger: '2.0', info: { title: 'generated', version: '1' }, ...(where.basePath === undefined ? {} : { basePath: where.basePath }), paths };
  }
  return { openapi: '3.0.3', info: { title: 'generated', version: '1' }, ...(where.servers ? { servers: where.servers.map((url) => ({ url })) } : {}), paths };
}

type PlacementValue = { kind: 'openapi'; servers: readonly string[] | undefined } | { kind: 'swagger'; basePath: string | undefined };

test('route and checked operation agree for any document and path, Swagger 2.0 and OpenAPI 3.0', () => {
  fc.assert(
    fc.property(paths, methods, placement, fc.array(requestSegment, { maxLength: 4 }), fc.constantFrom('GET', 'PUT', 'POST', 'DELETE'), (templates, ms, where, parts, method) => {
      const document = documentOf(templates, ms, where);
      const ops = listOperations(new PreparedDefinition([{ uri: 'file:///api.json', document }], 'fp'));
      // As the mock engine builds its router: the mock's operations, with the prefixes its contract checker gives.
      const contract = indexContract(document);
      const checker = contractChecker(contract);
      const router = new Router(contract.operations.map((op) => ({ method: op.method, path: op.path, target: op.path, prefixes: checker.routePrefixes(op) })));
      const requestPath = `/${parts.join('/')}`;
      const checked = matchOperation(ops, method, `http://127.0.0.1:4010${requestPath}`)?.path;
      const routed = router.match(method, requestPath)?.target;
      expect(routed, `${method} ${requestPath} over ${templates.join(' ')} (${JSON.stringify(where)})`).toBe(checked);
    }),
    { numRuns: 2_000 },
  );
});

test('a Swagger 2.0 basePath: the path below it is routed as the check selects, before a path written with the prefix', () => {
  const ok = { responses: { '200': { description: 'ok' } } };
  const document = { swagger: '2.0', info: { title: 't', version: '1' }, basePath: '/api', paths: { '/pets/{id}': { get: ok }, '/api/pets/1': { get: ok } } };
  const ops = listOperations(new PreparedDefinition([{ uri: 'file:///api.json', document }], 'fp'));
  const contract = indexContract(document);
  const checker = contractChecker(contract);
  const router = new Router(contract.operations.map((op) => ({ method: op.method, path: op.path, target: op.path, prefixes: checker.routePrefixes(op) })));
  for (const path of ['/api/pets/1', '/pets/1', '/api/api/pets/1']) {
    expect(router.match('GET', path)?.target, path).toBe(matchOperation(ops, 'GET', `http://h${path}`)?.path);
  }
  expect(router.match('GET', '/api/pets/1')?.target).toBe('/pets/{id}');
  expect(router.match('GET', '/api/pets/7')?.params).toEqual({ id: '7' });
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
