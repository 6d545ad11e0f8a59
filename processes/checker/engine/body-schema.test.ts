/** The Form view's body schema: an operation's request body found and every `$ref` inlined. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { demoDocumentPath } from '../../../demo/project.js';
import { preferJsonMediaType } from '../../../protocol/media-type.js';
import type { DefinitionDocument } from '../../../protocol/model/verdict.js';
import { PROTOTYPE_NAMES, withKey } from '../../../test/support/prototype-names.js';
import { CUT_KEY, CYCLE_KEY, NAME_KEY, REF_KEY, UNRESOLVED_KEY, requestBodySchema } from './body-schema.js';

const ENTRY = 'file:///defs/api/openapi.yaml';
const doc = (document: unknown, uri = ENTRY): DefinitionDocument => ({ uri, document });
const oas = (version: string, paths: unknown, components: unknown = {}) => ({ openapi: version, info: { title: 't', version: '1' }, paths, components });
const postBody = (content: unknown) => ({ '/things': { post: { requestBody: { content }, responses: {} } } });
const post = { method: 'post', path: '/things' };
const schemaOf = (documents: DefinitionDocument[], operation = post) => {
  const result = requestBodySchema(documents, operation);
  expect(result.reason).toBeUndefined();
  return result.schema as Record<string, unknown>;
};

describe('requestBodySchema', () => {
  it.each(PROTOTYPE_NAMES)('keeps a property and a discriminator tag named %s, and merges it through allOf', (name) => {
    const components = { schemas: { Base: { type: 'object', properties: withKey(name, { type: 'string' }) }, Cat: { type: 'object' } } };
    const schema = {
      allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: [name], properties: withKey(name, { minLength: 2 }) }],
      discriminator: { propertyName: name, mapping: withKey(name, '#/components/schemas/Cat') },
    };
    const result = schemaOf([doc(oas('3.0.3', postBody({ 'application/json': { schema } }), components))]);
    const properties = result.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual([name]);
    expect(properties[name]).toEqual({ type: 'string', minLength: 2 });
    expect(result.required).toEqual([name]);
    const mapping = (result.discriminator as { mapping: Record<string, string> }).mapping;
    expect(Object.keys(mapping)).toEqual([name]);
    expect(mapping[name]).toBe('#/components/schemas/Cat');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);

    // Declared by the second part only: nothing inherited stands in for the first part's.
    const merged = schemaOf([doc(oas('3.0.3', postBody({ 'application/json': { schema: { allOf: [{ properties: { a: {} } }, { properties: withKey(name, { type: 'string' }) }] } } })))]);
    expect(Object.hasOwn(merged.properties as object, name) && (merged.properties as Record<string, unknown>)[name]).toEqual({ type: 'string' });
  });

  it('reads the demo definition: NewPet with its name and place, application/json', async () => {
    const document = parseYaml(await readFile(demoDocumentPath(), 'utf8')) as unknown;
    const result = requestBodySchema([doc(document)], { method: 'post', path: '/pets' });
    expect(result).toEqual({
      available: true,
      mediaType: 'application/json',
      schema: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string' } },
        [REF_KEY]: ['#/components/schemas/NewPet'],
        [NAME_KEY]: 'NewPet',
      },
    });
  });

  it('follows a requestBodies $ref, prefers application/json, else a +json type', () => {
    const components = {
      requestBodies: { Patch: { content: { 'application/xml': { schema: { type: 'string' } }, 'application/merge-patch+json; charset=utf-8': { schema: { type: 'object' } } } } },
    };
    const paths = { '/things': { patch: { requestBody: { $ref: '#/components/requestBodies/Patch' }, responses: {} } } };
    const result = requestBodySchema([doc(oas('3.0.3', paths, components))], { method: 'patch', path: '/things' });
    expect(result).toMatchObject({ available: true, mediaType: 'application/merge-patch+json; charset=utf-8', schema: { type: 'object' } });
    expect(preferJsonMediaType(['application/vnd.x+json', 'Application/JSON'])).toBe('Application/JSON');
    expect(preferJsonMediaType(['text/plain', 'application/xml'])).toBeUndefined();
  });

  it('resolves relative refs against each document, across files and folders', () => {
    const entry = oas('3.0.3', postBody({ 'application/json': { schema: { $ref: 'schemas/order.yaml#/Order' } } }));
    const order = { Order: { type: 'object', properties: { customer: { $ref: '../common/customer.yaml' }, lines: { type: 'array', items: { $ref: '#/Line' } } } }, Line: { type: 'object', properties: { sku: { type: 'string' } } } };
    const customer = { type: 'object', properties: { name: { type: 'string' } } };
    const schema = schemaOf([doc(entry), doc(order, 'file:///defs/api/schemas/order.yaml'), doc(customer, 'file:///defs/api/common/customer.yaml')]);
    expect(schema).not.toHaveProperty(NAME_KEY);
    expect(schema).toMatchObject({
      properties: {
        customer: { type: 'object', properties: { name: { type: 'string' } }, [REF_KEY]: ['common/customer.yaml#'] },
        lines: { items: { properties: { sku: { type: 'string' } }, [REF_KEY]: ['schemas/order.yaml#/Line'] } },
      },
    });
  });

  it('cuts a recursive schema with a marker naming the enclosing schema it stands for', () => {
    const Node = { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } };
    const schema = schemaOf([doc(oas('3.1.0', postBody({ 'application/json': { schema: { $ref: '#/components/schemas/Node' } } }), { schemas: { Node } }))]);
    expect(schema[REF_KEY]).toEqual(['#/components/schemas/Node']);
    expect(schema.properties).toEqual({ label: { type: 'string' }, children: { type: 'array', items: { [CYCLE_KEY]: '#/components/schemas/Node' } } });
  });

  it('turns 3.0 nullable into a null type, also over an allOf of one $ref; keeps 3.1 type arrays', () => {
    const schemas = { Tag: { type: 'object', properties: { id: { type: 'integer' } } } };
    const body = { type: 'object', properties: { note: { type: 'string', nullable: true }, tag: { nullable: true, allOf: [{ $ref: '#/components/schemas/Tag' }] } } };
    const s30 = schemaOf([doc(oas('3.0.3', postBody({ 'application/json': { schema: body } }), { schemas }))]);
    expect(s30.properties).toMatchObject({ note: { type: ['string', 'null'] }, tag: { type: ['object', 'null'], properties: { id: { type: 'integer' } }, [NAME_KEY]: 'Tag' } });
    expect((s30.properties as Record<string, object>).note).not.toHaveProperty('nullable');
    const s31 = schemaOf([doc(oas('3.1.0', postBody({ 'application/json': { schema: { type: ['integer', 'null'], nullable: true } } })))]);
    expect(s31).toEqual({ type: ['integer', 'null'] });
  });

  it('merges allOf where that keeps its meaning, and leaves it where it would not', () => {
    const schemas = {
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
      Closed: { type: 'object', additionalProperties: false, properties: { id: { type: 'integer' } } },
    };
    const body = {
      type: 'object',
      properties: {
        merged: { allOf: [{ $ref: '#/components/schemas/Base' }, { required: ['name'], properties: { name: { type: 'string' } } }] },
        conflicting: { allOf: [{ type: 'string', minLength: 1 }, { type: 'string', minLength: 3 }] },
        closed: { allOf: [{ $ref: '#/components/schemas/Closed' }, { properties: { extra: { type: 'string' } } }] },
        numbers: { allOf: [{ type: 'number' }, { type: 'integer', minimum: 0 }] },
      },
    };
    const s = schemaOf([doc(oas('3.0.3', postBody({ 'application/json': { schema: body } }), { schemas }))]);
    const props = s.properties as Record<string, Record<string, unknown>>;
    expect(props.merged).toEqual({ type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } }, [REF_KEY]: ['#/components/schemas/Base'], [NAME_KEY]: 'Base' });
    expect(props.conflicting!.allOf).toHaveLength(2);
    expect(props.closed!.allOf).toHaveLength(2);
    expect(props.numbers).toEqual({ type: 'integer', minimum: 0 });
  });

  it('keeps a cycle target whole inside an allOf so the marker still finds it', () => {
    const schemas = { Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } } };
    const body = { allOf: [{ $ref: '#/components/schemas/Tree' }, { properties: { rootOnly: { type: 'boolean' } } }] };
    const s = schemaOf([doc(oas('3.0.3', postBody({ 'application/json': { schema: body } }), { schemas }))]);
    expect(s.allOf).toHaveLength(2);
  });

  it('applies $ref siblings from 3.1 on (their annotations first) and ignores them before', () => {
    const schemas = { Name: { type: 'string', description: 'A name' } };
    const body = { type: 'object', properties: { n: { $ref: '#/components/schemas/Name', description: 'The pet name', maxLength: 10 } } };
    const s31 = schemaOf([doc(oas('3.1.0', postBody({ 'application/json': { schema: body } }), { schemas }))]);
    expect((s31.properties as Record<string, unknown>).n).toMatchObject({ type: 'string', description: 'The pet name', maxLength: 10, [NAME_KEY]: 'Name' });
    const s30 = schemaOf([doc(oas('3.0.3', postBody({ 'application/json': { schema: body } }), { schemas }))]);
    expect((s30.properties as Record<string, unknown>).n).toEqual({ type: 'string', description: 'A name', [REF_KEY]: ['#/components/schemas/Name'], [NAME_KEY]: 'Name' });
  });

  it('resolves 3.1 refs against $id, and discriminator mappings to the variants they name', () => {
    const schemas = {
      Customer: { $id: 'https://example.test/customer', type: 'object', properties: { address: { $ref: 'address' } } },
      Address: { $id: 'https://example.test/address', type: 'object', properties: { city: { type: 'string' } } },
      Cat: { type: 'object', properties: { kind: { const: 'cat' } } },
      Dog: { type: 'object', properties: { kind: { const: 'dog' } } },
    };
    const body = {
      type: 'object',
      properties: {
        customer: { $ref: '#/components/schemas/Customer' },
        pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog' } } },
      },
    };
    const s = schemaOf([doc(oas('3.1.0', postBody({ 'application/json': { schema: body } }), { schemas }))]);
    const props = s.properties as Record<string, Record<string, unknown>>;
    expect(props.customer).toMatchObject({ properties: { address: { properties: { city: { type: 'string' } }, [NAME_KEY]: 'Address' } } });
    expect(props.customer).not.toHaveProperty('$id');
    expect(props.pet!.discriminator).toEqual({ propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } });
    expect((props.pet!.oneOf as Record<string, unknown>[]).map((v) => v[NAME_KEY])).toEqual(['Cat', 'Dog']);
  });

  it('marks a $ref it cannot follow, and bounds a schema that would inline too many times', () => {
    const broken = schemaOf([doc(oas('3.1.0', postBody({ 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } })))]);
    expect(typeof broken[UNRESOLVED_KEY]).toBe('string');
    // S0 uses S1 twice, S1 uses S2 twice, ...: 2^22 inlined nodes unless bounded.
    const schemas: Record<string, unknown> = { S22: { type: 'string' } };
    for (let i = 0; i < 22; i++) schemas[`S${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/S${i + 1}` }, b: { $ref: `#/components/schemas/S${i + 1}` } } };
    const big = schemaOf([doc(oas('3.1.0', postBody({ 'application/json': { schema: { $ref: '#/components/schemas/S0' } } }), { schemas }))]);
    expect(JSON.stringify(big)).toContain(CUT_KEY);
  });

  it('reads a Swagger 2.0 body parameter (through #/parameters, path-level too) and its consumes', () => {
    const swagger = {
      swagger: '2.0',
      info: { title: 't', version: '1' },
      consumes: ['application/json'],
      parameters: { Body: { name: 'body', in: 'body', schema: { $ref: '#/definitions/Thing' } } },
      definitions: { Thing: { type: 'object', properties: { note: { type: 'string', 'x-nullable': true } } } },
      paths: {
        '/things': { post: { parameters: [{ $ref: '#/parameters/Body' }], responses: {} } },
        '/things/{id}': { parameters: [{ $ref: '#/parameters/Body' }], put: { consumes: ['application/xml'], responses: {} }, patch: { responses: {} } },
      },
    };
    expect(requestBodySchema([doc(swagger)], post)).toEqual({
      available: true,
      mediaType: 'application/json',
      schema: { type: 'object', properties: { note: { type: ['string', 'null'] } }, [REF_KEY]: ['#/definitions/Thing'], [NAME_KEY]: 'Thing' },
    });
    expect(requestBodySchema([doc(swagger)], { method: 'patch', path: '/things/{thingId}' })).toMatchObject({ available: true });
    expect(requestBodySchema([doc(swagger)], { method: 'put', path: '/things/{id}' })).toEqual({ available: false, reason: 'The body of PUT /things/{id} is not JSON (it takes application/xml).' });
  });

  it('says why there is no form', () => {
    const paths = { '/things': { get: { responses: {} }, put: { requestBody: { content: { 'application/xml': { schema: {} } } }, responses: {} }, patch: { requestBody: { content: { 'application/json': {} } }, responses: {} } } };
    const documents = [doc(oas('3.0.3', paths))];
    expect(requestBodySchema(documents, { method: 'get', path: '/things' }).reason).toBe('GET /things declares no request body.');
    expect(requestBodySchema(documents, { method: 'put', path: '/things' }).reason).toBe('The request body of PUT /things is not JSON (it takes application/xml).');
    expect(requestBodySchema(documents, { method: 'patch', path: '/things' }).reason).toBe('The application/json body of PATCH /things declares no schema.');
    expect(requestBodySchema(documents, { method: 'delete', path: '/things' }).reason).toBe('The definition has no operation DELETE /things.');
    expect(requestBodySchema(documents, { method: 'get', path: '/other' }).reason).toBe('The definition has no path /other.');
    expect(requestBodySchema([doc({ asyncapi: '2.6.0' })], post)).toEqual({ available: false, reason: 'The definition is not OpenAPI 3.x or Swagger 2.0.' });
  });

  it('finds a 3.2 operation under additionalOperations', () => {
    const paths = { '/things': { additionalOperations: { COPY: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: {} } } } };
    expect(requestBodySchema([doc(oas('3.2.0', paths))], { method: 'copy', path: '/things' })).toMatchObject({ available: true, schema: { type: 'object' } });
  });
});
