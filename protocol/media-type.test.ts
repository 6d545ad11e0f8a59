/** The one "is this JSON" (issue 12): what the checker, the mock, the importer and the body form all go by. */
import { expect, test } from 'vitest';
import { isJsonMediaType, preferJsonMediaType } from './media-type.js';

test.each([
  ['application/json', true],
  ['Application/JSON; charset=utf-8', true],
  ['text/json', true],
  ['application/x-json', true],
  ['application/problem+json', true],
  ['application/vnd.api+json;v=2', true],
  ['application/*+json', true],
  ['application/jsonl', false],
  ['application/json-seq', false],
  ['text/plain', false],
  ['json', false],
  ['', false],
])('%s is JSON: %s', (type, json) => {
  expect(isJsonMediaType(type)).toBe(json);
});

test('a definition\'s JSON media type: application/json first, then any other JSON type, as written', () => {
  expect(preferJsonMediaType(['application/vnd.x+json', 'Application/JSON'])).toBe('Application/JSON');
  expect(preferJsonMediaType(['text/plain', 'text/json'])).toBe('text/json');
  expect(preferJsonMediaType(['text/plain', 'application/xml'])).toBeUndefined();
});
