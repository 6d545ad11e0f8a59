/** checkExchange end to end on real definitions from the corpus (copied to test/fixtures/checker/). */
import { describe, expect, test } from 'vitest';
import { json, loadDocuments, petstoreSeparate } from '../../../test/fixtures/checker/load.js';
import { checkExchange, validateValue, type ExchangeInput } from './check.js';
import { PreparedDefinition } from './definition.js';
import { isObject } from '../../../protocol/json-pointer.js';

const museum = new PreparedDefinition(loadDocuments('redocly-museum.yaml'), 'museum');
const petstore = new PreparedDefinition(petstoreSeparate(), 'petstore');
const bruno = new PreparedDefinition(loadDocuments('bruno-comprehensive.yaml'), 'bruno');

const hours = [
  { date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' },
  { date: '2023-09-12', timeOpen: '09:00', timeClose: '18:00' },
];

function exchange(over: Partial<ExchangeInput> & { url: string }): ExchangeInput {
  return { method: 'GET', status: 200, contentType: 'application/json', body: json({}), ...over };
}

describe('OpenAPI 3.1 (museum)', () => {
  test('a matching body passes, on another host, with the server prefix removed', () => {
    const v = checkExchange(museum, exchange({ url: 'http://127.0.0.1:4010/_mock/docs/openapi/museum-api/museum-hours', body: json(hours) }));
    expect(v).toMatchObject({ kind: 'pass', operation: { method: 'get', path: '/museum-hours' }, responseKey: '200', mediaType: 'application/json' });
  });

  test('the path still matches without the server prefix', () => {
    const v = checkExchange(museum, exchange({ url: 'http://localhost:3000/museum-hours?page=2', body: json(hours) }));
    expect(v.kind).toBe('pass');
  });

  test('problems point into the body and say what the schema wanted', () => {
    const body = [{ date: '2023-02-30', timeOpen: '9 o clock' }];
    const v = checkExchange(museum, exchange({ url: 'https://x.test/museum-hours', body: json(body) }));
    expect(v.kind).toBe('problems');
    expect(v.problems).toEqual([
      { pointer: '/0', keyword: 'required', message: 'expected the required property "timeClose"' },
      { pointer: '/0/date', keyword: 'format', message: 'expected format date' },
      { pointer: '/0/timeOpen', keyword: 'pattern', message: 'expected to match the pattern ^([01]\\d|2[0-3]):?([0-5]\\d)$' },
    ]);
  });

  test('application/problem+json is matched exactly through a $ref response', () => {
    const v = checkExchange(museum, exchange({ url: 'https://x.test/special-events', status: 400, contentType: 'application/problem+json; charset=utf-8', body: json({ type: 'about:blank', title: 'Bad' }) }));
    expect(v).toMatchObject({ kind: 'pass', responseKey: '400', mediaType: 'application/problem+json' });
  });

  test('an undeclared status is unexpected', () => {
    const v = checkExchange(museum, exchange({ url: 'https://x.test/museum-hours', status: 500 }));
    expect(v).toMatchObject({ kind: 'unexpected-status', operation: { path: '/museum-hours' } });
  });

  test('a response without content has no schema', () => {
    const v = checkExchange(museum, exchange({ method: 'DELETE', url: 'https://x.test/special-events/3be6453c-03eb-4357-ae5a-984a0e574a54', status: 204, body: new Uint8Array() }));
    expect(v).toMatchObject({ kind: 'no-schema', responseKey: '204' });
  });

  test('a binary response gets no chip', () => {
    const v = checkExchange(museum, exchange({ url: 'https://x.test/tickets/1/qr', contentType: 'image/png', body: new Uint8Array([0x89, 0x50]) }));
    expect(v).toMatchObject({ kind: 'none', reason: { code: 'not-json' } });
  });

  test('no operation matches: no chip', () => {
    const v = checkExchange(museum, exchange({ url: 'https://x.test/nowhere' }));
    expect(v).toMatchObject({ kind: 'none', reason: { code: 'no-operation' } });
  });

  test('every example the document gives for a JSON response or request passes its own schema', () => {
    const doc = museum.entry as { paths: Record<string, Record<string, unknown>> };
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!isObject(op)) continue;
        const bodies: [string, unknown][] = [];
        if (isObject(op.requestBody)) bodies.push([`/paths/${path.replace(/\//g, '~1')}/${method}/requestBody/content/application~1json`, op.requestBody]);
        for (const [status, resp] of Object.entries(isObject(op.responses) ? op.responses : {})) {
          bodies.push([`/paths/${path.replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json`, resp]);
        }
        for (const [pointer] of bodies) {
          const media = museum.follow({ docUri: museum.entryUri, pointer });
          if (typeof media === 'string' || !isObject(media.value) || !isObject(media.value.examples)) continue;
          for (const example of Object.values(media.value.examples)) {
            const ex = museum.follow({ docUri: museum.entryUri, pointer: (example as { $ref: string }).$ref.slice(1) });
            if (typeof ex === 'string' || !isObject(ex.value)) continue;
            const direction = pointer.includes('requestBody') ? 'request' : 'response';
            const { verdict } = validateValue(museum, { docUri: museum.entryUri, pointer: `${pointer}/schema` }, ex.value.value, direction);
            expect(verdict.problems, pointer).toEqual([]);
            expect(verdict.kind).toBe('pass');
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(8);
  });
});

describe('Swagger 2.0 (petstore in separate files)', () => {
  test('basePath is removed and refs across files resolve', () => {
    const v = checkExchange(petstore, exchange({ url: 'http://localhost:8080/api/pets', body: json([{ id: 1, name: 'Rex' }]) }));
    expect(v).toMatchObject({ kind: 'pass', operation: { method: 'get', path: '/pets' }, responseKey: '200', mediaType: 'application/json' });
  });

  test('a problem in a schema from another file', () => {
    const v = checkExchange(petstore, exchange({ url: 'http://localhost:8080/api/pets/7', body: json({ id: '7', name: 'Rex' }) }));
    expect(v.problems).toEqual([{ pointer: '/id', keyword: 'type', message: 'expected integer, found string' }]);
  });

  test('default catches other statuses', () => {
    const v = checkExchange(petstore, exchange({ url: 'http://localhost:8080/api/pets/7', status: 404, body: json({ code: 2 ** 40, message: 'gone' }) }));
    expect(v).toMatchObject({ kind: 'problems', responseKey: 'default', problems: [{ pointer: '/code', keyword: 'format' }] });
  });
});

describe('OpenAPI 3.0 (bruno comprehensive)', () => {
  test('server /v1 prefix, templated path, formats', () => {
    const user = { id: '123e4567-e89b-12d3-a456-426614174000', email: 'not-an-email', createdAt: '2024-01-01T00:00:00Z' };
    const v = checkExchange(bruno, exchange({ url: 'http://localhost:3000/v1/users/123e4567-e89b-12d3-a456-426614174000', body: json(user) }));
    expect(v).toMatchObject({ kind: 'problems', operation: { path: '/users/{userId}' }, problems: [{ pointer: '/email', keyword: 'format' }] });
  });
});

describe('bodies', () => {
  const url = 'https://x.test/museum-hours';

  test('a body declared JSON that does not parse is one problem at the root, without quoting it', () => {
    const v = checkExchange(museum, exchange({ url, body: new TextEncoder().encode('{"token": "sk_live_abc123" oops') }));
    expect(v.kind).toBe('problems');
    expect(v.problems).toHaveLength(1);
    expect(v.problems[0]).toMatchObject({ pointer: '', keyword: 'json' });
    expect(v.problems[0]!.message).not.toMatch(/sk_live|oops|token/);
  });

  test('JSON without a Content-Type is checked as application/json', () => {
    const v = checkExchange(museum, exchange({ url, contentType: undefined, body: json(hours) }));
    expect(v).toMatchObject({ kind: 'pass', mediaType: 'application/json' });
  });

  test('text without a Content-Type gets no chip', () => {
    const v = checkExchange(museum, exchange({ url, contentType: undefined, body: new TextEncoder().encode('hello') }));
    expect(v).toMatchObject({ kind: 'none', reason: { code: 'not-json' } });
  });

  test('an event stream gets no chip', () => {
    const v = checkExchange(museum, exchange({ url, contentType: 'text/event-stream', body: new TextEncoder().encode('data: 1\n\n') }));
    expect(v).toMatchObject({ kind: 'none', reason: { code: 'event-stream' } });
  });

  test('a body over 1 MiB is skipped without parsing', () => {
    const v = checkExchange(museum, exchange({ url, body: new Uint8Array(0), size: 1_048_577 }));
    expect(v).toMatchObject({ kind: 'skipped', reason: { code: 'too-large' }, operation: { path: '/museum-hours' } });
  });

  test('a body of exactly 1 MiB is still checked', () => {
    const text = JSON.stringify(hours);
    const bytes = new TextEncoder().encode(text.padEnd(1_048_576, ' '));
    const v = checkExchange(museum, exchange({ url, body: bytes }));
    expect(v.kind).toBe('pass');
  });

  test('a body that is not UTF-8 is not valid JSON', () => {
    const v = checkExchange(museum, exchange({ url, body: new Uint8Array([0x5b, 0xff, 0x5d]) }));
    expect(v.problems[0]).toMatchObject({ pointer: '', keyword: 'json' });
  });
});

describe('wire shapes', () => {
  test('verdicts and jobs fit their TypeBox schemas', async () => {
    const { Value } = await import('@sinclair/typebox/value');
    const { CheckJob, Verdict } = await import('../../../protocol/model/verdict.js');
    const url = 'https://x.test/museum-hours';
    const verdicts = [
      checkExchange(museum, exchange({ url, body: json(hours) })),
      checkExchange(museum, exchange({ url, body: json([{}]) })),
      checkExchange(museum, exchange({ url, status: 599 })),
      checkExchange(museum, exchange({ url, body: new Uint8Array(0), size: 2_000_000 })),
      checkExchange(museum, exchange({ url: 'https://x.test/none' })),
    ];
    for (const v of verdicts) expect(Value.Errors(Verdict, v).First()).toBeUndefined();
    const job = { definition: { fingerprint: 'f' }, request: { method: 'GET', url, operation: { method: 'get', path: '/museum-hours' } }, response: { status: 200, body: json(hours) } };
    expect(Value.Check(CheckJob, job)).toBe(true);
  });

  test('a large body without Content-Type that was not sent along is still skipped, not dropped', () => {
    const v = checkExchange(museum, exchange({ url: 'https://x.test/museum-hours', contentType: undefined, body: new Uint8Array(0), size: 2_000_000 }));
    expect(v).toMatchObject({ kind: 'skipped' });
  });
});
