/**
 * The page's message check (message-check.ts, by the JSON Schema message-schema.ts makes) and the
 * send's (json-mapping.ts, by the protobufjs type) apply one rule: the same messages are refused
 * at the same path, the same accepted; the example of a type is a message of it.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { GREETER_PROTO } from '../../test/support/grpc-server.js';
import { objectFromJson } from './json-mapping.js';
import { checkMessageValue, exampleMessage, pathText } from './message-check.js';
import { messageSchema } from './message-schema.js';

const root = new protobuf.Root();
root.addJSON(protobuf.common.get('google/protobuf/timestamp.proto')!.nested!);
protobuf.parse(GREETER_PROTO, root, { keepCase: true });
root.resolveAll();
const type = root.lookupType('parley.test.HelloRequest');
const schema = messageSchema(type);

/** The path the send refuses `value` at, or null when it takes it. */
function sendRefusal(value: unknown): string | null {
  try {
    objectFromJson(type, value);
    return null;
  } catch (err) {
    return (err as { data?: { path?: string } }).data?.path ?? 'no path';
  }
}

const cases: [string, unknown][] = [
  ['unknown field', { nmae: 'x' }],
  ['wrong scalar', { name: 5 }],
  ['bad enum', { mood: 'SLEEPY' }],
  ['int64 text', { times: 'many' }],
  ['map value', { counts: { a: 'x' } }],
  ['repeated item', { tags: ['a', 2] }],
  ['nested', { inner: { next: { note: false } } }],
  ['timestamp', { at: 'yesterday' }],
  ['both oneof members', { word: 'a', number: 1 }],
  ['fine', { name: 'x', times: '9007199254740993', mood: 'HAPPY', tags: ['a'], counts: { a: 1 }, at: '2024-01-31T12:00:00Z', inner: { next: { note: 'n' } }, number: 2 }],
  ['JSON names', { name: 'x', everyMs: undefined }],
];

describe('one rule in the page and in the send', () => {
  it.each(cases)('%s', (_name, value) => {
    const page = checkMessageValue(schema, value);
    const send = sendRefusal(value);
    expect(page.length > 0 ? pathText(page[0]!.path) : null).toBe(send);
  });

  it('the example of a recursive type is a message of it, its nesting bounded', () => {
    const example = exampleMessage(schema) as Record<string, unknown>;
    expect(sendRefusal(example)).toBeNull();
    expect(checkMessageValue(schema, example)).toEqual([]);
    expect(example).toMatchObject({ name: '', times: '0', mood: 'MOOD_UNSPECIFIED', word: '' });
    expect(example).not.toHaveProperty('number');
  });
});
