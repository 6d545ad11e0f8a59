import { describe, expect, it } from 'vitest';
import { Router } from './router.js';
import { PROTOTYPE_NAMES } from '../../../test/support/prototype-names.js';

const router = new Router(
  [
    ['GET', '/pets/{petId}'],
    ['GET', '/pets/mine'],
    ['GET', '/pets/{petId}/photo.{format}'],
    ['GET', '/pets/{petId}/{part}'],
    ['POST', '/pets'],
    ['GET', '/'],
    ['GET', '/{a}/{b}/c'],
    ['GET', '/x/{b}/{c}'],
  ].map(([method, path]) => ({ method: method as string, path: path as string, target: `${method} ${path}` })),
);

describe('Router', () => {
  it('prefers the concrete path over a templated one', () => {
    expect(router.match('GET', '/pets/mine')).toEqual({ target: 'GET /pets/mine', params: {} });
    expect(router.match('GET', '/pets/42')).toEqual({ target: 'GET /pets/{petId}', params: { petId: '42' } });
  });

  it('prefers literal text around a parameter over a whole-segment parameter', () => {
    expect(router.match('GET', '/pets/7/photo.png')).toEqual({ target: 'GET /pets/{petId}/photo.{format}', params: { petId: '7', format: 'png' } });
    expect(router.match('GET', '/pets/7/collar')).toEqual({ target: 'GET /pets/{petId}/{part}', params: { petId: '7', part: 'collar' } });
  });

  it('ranks from the left: the first concrete segment wins', () => {
    expect(router.match('GET', '/x/y/c')?.target).toBe('GET /x/{b}/{c}');
  });

  it('decodes parameters and ignores a trailing slash', () => {
    expect(router.match('GET', '/pets/a%20b/')).toEqual({ target: 'GET /pets/{petId}', params: { petId: 'a b' } });
    expect(router.match('GET', '/')?.target).toBe('GET /');
  });

  it('matches the method and answers HEAD with GET', () => {
    expect(router.match('POST', '/pets')?.target).toBe('POST /pets');
    expect(router.match('GET', '/pets')).toBeUndefined();
    expect(router.match('DELETE', '/pets/1')).toBeUndefined();
    expect(router.match('HEAD', '/pets/mine')?.target).toBe('GET /pets/mine');
  });

  it('does not match an empty parameter or a malformed escape', () => {
    expect(router.match('GET', '/pets//photo.png')).toBeUndefined();
    expect(router.match('GET', '/pets/%E0%A4%A')).toBeUndefined();
  });

  it.each(PROTOTYPE_NAMES)('routes %s as an ordinary path segment and parameter name, and finds no parameter a path lacks', (name) => {
    const routes = new Router([
      { method: 'GET', path: `/lit/${name}`, target: 'literal' },
      { method: 'GET', path: `/param/{${name}}`, target: 'param' },
    ]);
    expect(routes.match('GET', `/${name}`)).toBeUndefined();
    expect(routes.match(name, `/lit/${name}`)).toBeUndefined();
    const literal = routes.match('GET', `/lit/${name}`)!;
    expect(literal.target).toBe('literal');
    expect(literal.params[name]).toBeUndefined();
    const param = routes.match('GET', '/param/v1')!;
    expect(param.target).toBe('param');
    expect(Object.hasOwn(param.params, name)).toBe(true);
    expect(param.params[name]).toBe('v1');
    expect(param.params.constructor === undefined || name === 'constructor').toBe(true);
  });
});

