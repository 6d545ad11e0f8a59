/**
 * The CLI's checker session with the real checker child (dist/checker.js): it starts the child
 * only for a check that needs it, so a capture whose calls no operation describes never pays for
 * one, and a check that does need it is answered by it.
 */
import { afterEach, expect, it } from 'vitest';
import { CheckerSession } from './checker-session.js';
import type { CommandLineDefinition } from '../definition-source.js';

const definition: CommandLineDefinition = {
  name: 'pets.json',
  shortName: 'pets.json',
  fingerprint: 'sha256:pets-session-test',
  warnings: [],
  documents: [
    {
      uri: 'file:///tmp/pets.json',
      document: {
        openapi: '3.0.3',
        info: { title: 'Pets', version: '1' },
        paths: {
          '/pets/{id}': {
            get: {
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } } },
            },
          },
        },
      },
    },
  ],
};

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
let session: CheckerSession | undefined;
afterEach(async () => {
  await session?.stop();
  session = undefined;
});

it('answers calls no operation describes without starting the checker, and starts it for one that needs it', async () => {
  session = CheckerSession.create(definition);
  const none = await session.check({ method: 'GET', url: 'https://api.example/owners/1', status: 200, contentType: 'application/json', body: json({}) });
  expect(none).toMatchObject({ kind: 'none', reason: { code: 'no-operation' } });
  expect(session.pid).toBeUndefined();

  const problems = await session.check({ method: 'GET', url: 'https://api.example/pets/1', status: 200, contentType: 'application/json', body: json({ name: 7 }) });
  expect(problems).toMatchObject({ kind: 'problems', problems: [expect.objectContaining({ pointer: '/name' })] });
  expect(session.pid).toEqual(expect.any(Number));
});
