/**
 * The .proto files every import has without reading them: Google's well-known types as
 * protobufjs ships them (`protobuf.common`: any, duration, empty, field_mask, struct, timestamp,
 * wrappers) and the descriptor, api, type and source_context files (custom options extend
 * descriptor.proto's messages).
 */
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/google/protobuf/descriptor.json' with { type: 'json' };
import api from 'protobufjs/google/protobuf/api.json' with { type: 'json' };
import type from 'protobufjs/google/protobuf/type.json' with { type: 'json' };
import sourceContext from 'protobufjs/google/protobuf/source_context.json' with { type: 'json' };

const SHIPPED = new Map<string, protobuf.INamespace>([
  ['google/protobuf/descriptor.proto', descriptor as protobuf.INamespace],
  ['google/protobuf/api.proto', api as protobuf.INamespace],
  ['google/protobuf/type.proto', type as protobuf.INamespace],
  ['google/protobuf/source_context.proto', sourceContext as protobuf.INamespace],
]);

/** The descriptors of a built-in file, or null when `name` is not one. */
export function builtInProto(name: string): protobuf.INamespace | null {
  return SHIPPED.get(name) ?? protobuf.common.get(name) ?? null;
}
