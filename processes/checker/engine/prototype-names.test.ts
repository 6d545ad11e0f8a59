/**
 * Schema names and body keys named after Object.prototype's members (`__proto__`, `constructor`,
 * `toString`, ...) are ordinary names: every keyword that looks a name up finds only what the
 * schema or the body really holds, also after the definition crossed the bus (the codec).
 */
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../../protocol/codec.js';
import { PROTOTYPE_NAMES, withKey } from '../../../test/support/prototype-names.js';
import { checkExchange } from './check.js';
import { PreparedDefinition } from './definition.js';

function definition(schema: unknown, extra: Record<string, unknown> = {}): PreparedDefinition {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    ...extra,
    paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
  };
  // As the checker process receives it: through the bus codec.
  return new PreparedDefinition([{ uri: 'file:///t/openapi.json', document: decode(encode(document)) }], 'fp');
}

function check(def: PreparedDefinition, body: string, url = 'http://h/x') {
  return checkExchange(def, { method: 'GET', url, status: 200, contentType: 'application/json', body: new TextEncoder().encode(body) });
}

const member = (name: string, value: string) => `{${JSON.stringify(name)}: ${value}}`;

describe.each(PROTOTYPE_NAMES)('the name %s', (name) => {
  it('properties and required find only what the schema and the body hold', () => {
    const def = definition({ type: 'object', properties: withKey(name, { type: 'number' }), required: [name] });
    expect(check(def, member(name, '"a string"'))).toMatchObject({ kind: 'problems', problems: [{ pointer: `/${name}`, keyword: 'type' }] });
    expect(check(def, '{}')).toMatchObject({ kind: 'problems', problems: [{ keyword: 'required' }] });
    expect(check(def, member(name, '42')).kind).toBe('pass');
  });

  it('additionalProperties: false refuses a body key the schema does not declare', () => {
    const def = definition({ type: 'object', properties: { a: {} }, additionalProperties: false });
    expect(check(def, member(name, '1'))).toMatchObject({ kind: 'problems', problems: [{ keyword: 'additionalProperties' }] });
  });

  it('dependentRequired and dependentSchemas apply only when the body has the key', () => {
    const def = definition({ type: 'object', dependentRequired: withKey(name, ['other']), dependentSchemas: withKey(name, { required: ['third'] }) });
    expect(check(def, '{"x": 1}').kind).toBe('pass');
    expect(check(def, member(name, '1'))).toMatchObject({ kind: 'problems', problems: [{ keyword: 'dependentRequired' }, { keyword: 'required' }] });
  });

  it('an unknown format of that name is reported as unknown, not passed as checked', () => {
    const def = definition({ type: 'string', format: name });
    const verdict = check(def, '"x"');
    expect(verdict.kind).toBe('pass');
    expect(verdict.notes.join('\n')).toMatch(/format/);
  });

  it('a discriminator on that property reads only the body\'s own member', () => {
    const def = definition({ type: 'object', discriminator: { propertyName: name }, oneOf: [{ $ref: '#/components/schemas/Cat' }] }, {
      components: { schemas: { Cat: { type: 'object', required: [name] } } },
    });
    expect(check(def, '{}')).toMatchObject({ kind: 'problems', problems: [{ keyword: 'discriminator' }] });
    expect(check(def, member(name, '"Cat"')).kind).toBe('pass');
  });

  it('an unknown keyword of that name is noted as unknown', () => {
    const def = definition(withKey(name, 1));
    expect(check(def, '1').notes.join('\n')).toContain(`unknown keyword "${name}"`);
  });

  it('a server variable of that name takes its own default', () => {
    const def = definition({ type: 'number' }, { servers: [{ url: `https://api.test/{${name}}/v1`, variables: withKey(name, { default: 'v2' }) }] });
    expect(check(def, '1', 'https://api.test/v2/v1/x')).toMatchObject({ kind: 'pass', operation: { path: '/x' } });
  });
});
