/**
 * `pattern` and `patternProperties` on the linear engine (regex.ts): a catastrophically
 * backtracking pattern is answered at once; one only V8's backtracking engine can run is run where
 * the caller allows it (a worker that is killed past the budget) and is otherwise a schema error.
 */
import { expect, test } from 'vitest';
import { validateValue } from './check.js';
import { PreparedDefinition } from './definition.js';

const def = new PreparedDefinition(
  [
    {
      uri: 'https://patterns.test/api.json',
      document: {
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {},
        components: {
          schemas: {
            Nested: { type: 'string', pattern: '^(a+)+$' },
            Lookahead: { type: 'string', pattern: '^(?!admin)\\w+$' },
            Keys: { type: 'object', patternProperties: { '^(x+)+$': { type: 'integer' }, '^(?=y)y+$': { type: 'string' } } },
          },
        },
      },
    },
  ],
  'patterns',
);
const at = (name: string) => ({ docUri: 'https://patterns.test/api.json', pointer: `/components/schemas/${name}` });
const catastrophic = `${'a'.repeat(40)}!`;

test('a nested quantifier runs in linear time: the problem is found, not a timeout', () => {
  const started = performance.now();
  const { verdict } = validateValue(def, at('Nested'), catastrophic, 'response');
  expect(verdict).toMatchObject({ kind: 'problems', problems: [{ pointer: '', keyword: 'pattern' }] });
  expect(validateValue(def, at('Nested'), 'aaaa', 'response').verdict.kind).toBe('pass');
  // Not a timing assertion on the machine: V8's engine would need minutes, not seconds, here.
  expect(performance.now() - started).toBeLessThan(20_000);
});

test('patternProperties keys go through the same engine', () => {
  const { verdict } = validateValue(def, at('Keys'), { [`${'x'.repeat(40)}`]: 'no', [`${'x'.repeat(40)}!`]: 1 }, 'response', { backtracking: true });
  expect(verdict).toMatchObject({ kind: 'problems', problems: [{ pointer: `/${'x'.repeat(40)}`, keyword: 'type' }] });
  expect(validateValue(def, at('Keys'), { yy: 2 }, 'response', { backtracking: true }).verdict).toMatchObject({ kind: 'problems', problems: [{ pointer: '/yy' }] });
});

test('a lookahead runs on the backtracking engine only where allowed; elsewhere it is never a pass', () => {
  expect(validateValue(def, at('Lookahead'), 'admin1', 'response', { backtracking: true }).verdict.kind).toBe('problems');
  expect(validateValue(def, at('Lookahead'), 'user1', 'response', { backtracking: true }).verdict.kind).toBe('pass');

  const { verdict } = validateValue(def, at('Lookahead'), 'user1', 'response');
  expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' }, partial: true });
  expect(verdict.notes[0]).toBe(
    'the pattern "^(?!admin)\\\\w+$" at #/components/schemas/Lookahead was not evaluated: it uses a lookahead, which needs a backtracking engine, run only where a check can be stopped',
  );
  // The same for a patternProperties key.
  expect(validateValue(def, at('Keys'), { yy: 'ok' }, 'response').verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'schema-error' } });
});
