/** The reflection messages Parley carries as JSON are those of both reflection .proto files, which declare the same messages. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { expect, test } from 'vitest';
import { REFLECTION_MESSAGES_JSON } from './messages.js';

test.each(['v1', 'v1alpha'] as const)('the messages equal reflection.proto %s', (version) => {
  const text = readFileSync(join(import.meta.dirname, 'proto', version, 'reflection.proto'), 'utf8');
  const parsed = protobuf.parse(text, { keepCase: true }).root.lookup(`grpc.reflection.${version}`) as protobuf.Namespace;
  const nested = { ...parsed.toJSON().nested };
  expect(Object.keys(nested)).toContain('ServerReflection');
  delete nested.ServerReflection;
  expect(JSON.parse(JSON.stringify(nested))).toEqual(REFLECTION_MESSAGES_JSON);
});
