/** Never fail open: broken schemas are diagnostics, not passes; unsupported keywords are notes. */
import { describe, expect, test } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { json } from '../../../test/fixtures/checker/load.js';
import { checkExchange, validateValue } from './check.js';
import { PreparedDefinition } from './definition.js';

function define(openapi: string, schemas: Record<string, unknown>, extra: { uri: string; document: unknown }[] = []) {
  const document = { openapi, info: { title: 't', version: '1' }, paths: {}, components: { schemas } };
  return new PreparedDefinition([{ uri: 'https://diag.test/api/openapi.json', document }, ...extra], 'diag');
}
const root = { docUri: 'https://diag.test/api/openapi.json', pointer: '/components/schemas/Root' };

describe('schema errors give not-checked, never pass', () => {
  test('a $ref that does not resolve', () => {
    const def = define('3.1.0', { Root: { type: 'object', properties: { a: { $ref: '#/components/schemas/Missing' } } } });
    const { verdict } = validateValue(def, root, { a: 1 }, 'response');
    expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' } });
    expect(verdict.notes.join('\n')).toContain('#/components/schemas/Missing');
  });

  test('a $ref to a document the definition does not hold', () => {
    const def = define('3.0.3', { Root: { $ref: 'common.yaml#/Thing' } });
    const { verdict } = validateValue(def, root, {}, 'response');
    expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' } });
  });

  test('a pattern that is not a regular expression', () => {
    const def = define('3.0.3', { Root: { type: 'string', pattern: '([a-z' } });
    expect(validateValue(def, root, 'abc', 'response').verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' } });
  });

  test('a schema that refers to itself without going deeper into the body', () => {
    const def = define('3.1.0', { Root: { allOf: [{ $ref: '#/components/schemas/Root' }] } });
    expect(validateValue(def, root, 1, 'response').verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' } });
  });

  test('real problems found beside a broken part are still listed', () => {
    const def = define('3.1.0', { Root: { properties: { a: { $ref: '#/nope' }, b: { type: 'string' } } } });
    const { verdict } = validateValue(def, root, { a: 1, b: 2 }, 'response');
    expect(verdict).toMatchObject({ kind: 'not-checked', partial: true, problems: [{ pointer: '/b' }] });
  });

  test('a definition that is not OpenAPI 3 or Swagger 2.0 is refused with a code', () => {
    let caught: unknown;
    try {
      new PreparedDefinition([{ uri: 'api.json', document: { swaggerVersion: '1.2', apis: [] } }], 'old');
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, 'unsupported-definition')).toBe(true);
  });
});

describe('what the check could not evaluate is reported as a note', () => {
  test('a keyword of a later draft in a 3.0 schema', () => {
    const def = define('3.0.3', { Root: { type: 'string', const: 'a', 'x-internal': true } });
    const { verdict } = validateValue(def, root, 'b', 'response');
    expect(verdict.kind).toBe('pass');
    expect(verdict.notes).toEqual(['"const" is not a keyword of OpenAPI 3.0; not checked at #/components/schemas/Root']);
  });

  test('an unknown keyword and an unknown format', () => {
    const def = define('3.1.0', { Root: { type: 'string', format: 'decimal', requird: ['x'] } });
    const { verdict } = validateValue(def, root, 'b', 'response');
    expect(verdict.kind).toBe('pass');
    expect(verdict.notes).toEqual([
      'unknown keyword "requird"; not checked at #/components/schemas/Root',
      'format "decimal" is not known; not checked (#/components/schemas/Root)',
    ]);
  });

  test('nullable in 3.1 says what to use instead', () => {
    const def = define('3.1.0', { Root: { type: 'string', nullable: true } });
    expect(validateValue(def, root, 'x', 'response').verdict.notes[0]).toMatch(/"nullable" is not a keyword of JSON Schema 2020-12 \(use a type list with "null"\)/);
  });

  test('notes reach the verdict of a whole check', () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', if: {} } } } } } } } },
    };
    const def = new PreparedDefinition([{ uri: 'api.json', document }], 'n');
    const v = checkExchange(def, { method: 'GET', url: '/x', status: 200, contentType: 'application/json', body: json({}) });
    expect(v).toMatchObject({ kind: 'pass', notes: ['"if" is not a keyword of OpenAPI 3.0; not checked at #/paths/~1x/get/responses/200/content/application~1json/schema'] });
  });

  test('a response content that does not match the Content-Type says what is declared', () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/xml': { schema: {} } } } } } } },
    };
    const def = new PreparedDefinition([{ uri: 'api.json', document }], 'n');
    const v = checkExchange(def, { method: 'GET', url: '/x', status: 200, contentType: 'application/json', body: json({}) });
    expect(v).toMatchObject({ kind: 'no-schema', notes: ['the response declares no content for application/json (it declares application/xml)'] });
  });
});

describe('references across documents and base URIs', () => {
  test('relative refs resolve against the referring document', () => {
    const def = define('3.1.0', { Root: { $ref: '../schemas/pet.json#/$defs/Pet' } }, [
      { uri: 'https://diag.test/schemas/pet.json', document: { $defs: { Pet: { type: 'object', required: ['name'], properties: { tag: { $ref: 'tag.json' } } } } } },
      { uri: 'https://diag.test/schemas/tag.json', document: { type: 'string', maxLength: 3 } },
    ]);
    const { verdict } = validateValue(def, root, { name: 'x', tag: 'long' }, 'response');
    expect(verdict.problems).toEqual([{ pointer: '/tag', keyword: 'maxLength', message: 'expected at most 3 characters' }]);
  });

  test('OpenAPI 3.2 $self sets the base for relative refs', () => {
    const document = {
      openapi: '3.2.0',
      $self: 'https://example.com/apis/pets/openapi.yaml',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { Root: { $ref: 'shared.yaml#/Id' } } },
    };
    const def = new PreparedDefinition(
      [
        { uri: 'file:///tmp/openapi.yaml', document },
        { uri: 'https://example.com/apis/pets/shared.yaml', document: { Id: { type: 'integer' } } },
      ],
      's',
    );
    const { verdict } = validateValue(def, { docUri: 'file:///tmp/openapi.yaml', pointer: '/components/schemas/Root' }, 'x', 'response');
    expect(verdict.problems).toEqual([{ pointer: '', keyword: 'type', message: 'expected integer, found string' }]);
  });
});
