/**
 * Bundling a contract's documents follows the shared `$ref` rule (protocol/ref-location): a
 * reference across cached files bundles, and an odd or escaping one refuses the contract with a
 * message naming the reference, its document and why (never a raw Node error code).
 */
import { describe, expect, it } from 'vitest';
import { bundleOpenApi, deref } from './definition-bundle.js';
import { cachedDefinition } from './test-support/mocks.js';
import { PROTOTYPE_NAMES, withKey } from '../../../test/support/prototype-names.js';

const entry = (ref: string) => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } } } } } },
});

describe('bundleOpenApi and the shared reference rule', () => {
  it('bundles a reference between cached files', async () => {
    const bundled = await bundleOpenApi(
      cachedDefinition({ 'definition/spec/openapi.yaml': entry('../common/Pet.yaml#/Pet'), 'definition/common/Pet.yaml': { Pet: { type: 'object', required: ['id'] } } }),
    );
    const op = deref<{ get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>(bundled, (bundled.paths as Record<string, unknown>)['/a']);
    expect(deref(bundled, op?.get.responses['200']?.content['application/json']?.schema)).toEqual({ type: 'object', required: ['id'] });
  });

  it('bundles a definition read from its own addresses (parley mock serve <file>), held to no API folder', async () => {
    const definition = [
      { uri: 'file:///home/me/spec/openapi.yaml', document: entry('../common/Pet.yaml#/Pet') },
      { uri: 'file:///home/me/common/Pet.yaml', document: { Pet: { type: 'object', required: ['name'] } } },
    ];
    const bundled = await bundleOpenApi(definition);
    const op = deref<{ get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>(bundled, (bundled.paths as Record<string, unknown>)['/a']);
    expect(deref(bundled, op?.get.responses['200']?.content['application/json']?.schema)).toEqual({ type: 'object', required: ['name'] });
    const outside = [{ uri: 'file:///home/me/spec/openapi.yaml', document: entry('../../x.yaml') }];
    await expect(bundleOpenApi(outside)).rejects.toMatchObject({ message: expect.stringContaining('The reference "../../x.yaml" in /home/me/spec/openapi.yaml names /home/x.yaml, a file the definition does not have') });
  });

  it.each([
    ['%2e%2e%2foutside%2fsecret.json', /percent-encoded "\/"/],
    ['//169.254.169.254/latest/x.json', /names another machine/],
    ['file:///etc/x.json', /file: address/],
    ['/etc/x.json', /absolute path/],
    ['C:\\x.json', /separator|Windows drive/],
    ['x\u0000.json', /control character/],
    ['../../../outside.json', /leads outside the API's folder/],
    ['Missing.yaml', /names definition\/Missing\.yaml, a file the definition does not have/],
    ['Other.yaml#/Nope', /points at \/Nope, which definition\/Other\.yaml does not have/],
    ['#/components/schemas/Nope', /points at \/components\/schemas\/Nope, which definition\/openapi\.yaml does not have/],
  ])('refuses the contract for %j, saying which reference, where and why', async (ref, why) => {
    const documents = { 'definition/openapi.yaml': entry(ref), 'definition/Other.yaml': { X: { type: 'string' } } };
    const refused = await bundleOpenApi(cachedDefinition(documents)).then(
      () => undefined,
      (err: { code: string; message: string }) => err,
    );
    expect(refused?.code).toBe('contract-unavailable');
    expect(refused?.message).toContain(`The reference ${JSON.stringify(ref)} in definition/openapi.yaml`);
    expect(refused?.message).toMatch(why);
    expect(refused?.message).not.toMatch(/ERR_|Error resolving|Missing \$ref pointer|Token ".*" does not exist/);
  });
});

describe('deref', () => {
  it.each(PROTOTYPE_NAMES)('follows #/%s only to what the document holds', (name) => {
    expect(deref({ components: {} }, { $ref: `#/${name}` })).toBeUndefined();
    expect(deref({ components: {} }, { $ref: `#/components/${name}` })).toBeUndefined();
    const doc = { components: withKey(name, { type: 'string' }) };
    expect(deref(doc, { $ref: `#/components/${name}` })).toEqual({ type: 'string' });
  });
});

describe('Swagger 2.0 converted for the sampler', () => {
  it('keeps a property named __proto__ through the conversion', async () => {
    const doc = JSON.parse('{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","schema":{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}}}}}}}') as Record<string, unknown>;
    const bundled = await bundleOpenApi(cachedDefinition({ 'swagger.json': doc }));
    const schema = deref<{ properties: Record<string, unknown> }>(bundled, (bundled as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }> }).paths['/a']!.get.responses['200']!.content['*/*']!.schema);
    expect(Object.keys(schema!.properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(schema!.properties)).toBe(Object.prototype);
  });

  it('converts a document that holds one object twice (a YAML alias)', async () => {
    const shared = { type: 'string' };
    const doc = { swagger: '2.0', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok', schema: { type: 'object', properties: { x: shared, y: shared } } } } } } } };
    await expect(bundleOpenApi(cachedDefinition({ 'swagger.json': doc }))).resolves.toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  });
});
