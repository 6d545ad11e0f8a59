/**
 * The checker resolves `$ref` by the shared rule (protocol/ref-location): an odd form gives a
 * not-checked verdict whose note names the reference, the document and why, as an import would.
 */
import { describe, expect, test } from 'vitest';
import { validateValue } from './check.js';
import { PreparedDefinition } from './definition.js';

const uri = 'file:///home/me/project/apis/pets/definition/openapi.yaml';
const root = { docUri: uri, pointer: '/components/schemas/Root' };

describe('odd $ref forms in a checked schema', () => {
  test.each([
    ['%2e%2e%2foutside%2fsecret.json', /percent-encoded "\/"/],
    ['//169.254.169.254/latest/x.json', /names another machine/],
    ['/etc/secret.json', /absolute path/],
    ['..\\secret.json', /as a separator/],
    ['file:///etc/x.json', /file: address/],
  ])('%j: not checked, with the reason', (ref, why) => {
    const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { Root: { type: 'object', properties: { a: { $ref: ref } } } } } };
    const def = new PreparedDefinition([{ uri, document }], 'odd');
    const { verdict } = validateValue(def, root, { a: 1 }, 'response');
    expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' } });
    const note = verdict.notes.find((n) => n.startsWith(`The reference ${JSON.stringify(ref)} in openapi.yaml cannot be read: `));
    expect(note).toMatch(why);
  });
});
