/**
 * A gRPC message type as a JSON Schema (draft 2020-12 subset) of its proto3 JSON form (the form
 * json-mapping.ts reads): what the request editor validates, completes and makes an example
 * from, without protobufjs in the page. Each message type is one entry of `$defs` by its full
 * name and referenced by `$ref`, so a recursive type is a finite schema. Scalars: 32-bit
 * integers as integers, 64-bit ones as strings or integers, bytes as base64 text; enums by name
 * (`enum`); repeated fields arrays; maps objects; a oneof's members listed in `x-oneof`; the
 * well-known types in their JSON forms (Timestamp a date-time string, Duration `1.5s`, wrappers
 * their value, Struct any object, Value anything, Any an object with `@type`).
 */
import protobuf from 'protobufjs';
import { typeName } from './json-mapping.js';
import type { MessageSchema, SchemaNode } from './message-check.js';

export type { MessageSchema, SchemaNode };

/** Message types in one schema: past this, the rest are `{}` (anything) so a huge definition stays bounded. */
const MAX_TYPES = 2_000;

const WKT: Record<string, SchemaNode> = {
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time', description: 'RFC 3339 (2024-01-31T12:00:00Z)' },
  'google.protobuf.Duration': { type: 'string', pattern: '^-?\\d+(\\.\\d{1,9})?s$', description: 'seconds with an "s" (1.5s)' },
  'google.protobuf.FieldMask': { type: 'string', description: 'paths joined by commas' },
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.ListValue': { type: 'array' },
  'google.protobuf.Value': {},
  'google.protobuf.Empty': { type: 'object', properties: {}, additionalProperties: false },
  'google.protobuf.Any': { type: 'object', properties: { '@type': { type: 'string' } } },
  'google.protobuf.DoubleValue': { type: 'number' },
  'google.protobuf.FloatValue': { type: 'number' },
  'google.protobuf.Int64Value': { type: ['string', 'integer'], format: 'int64' },
  'google.protobuf.UInt64Value': { type: ['string', 'integer'], format: 'uint64' },
  'google.protobuf.Int32Value': { type: 'integer', format: 'int32' },
  'google.protobuf.UInt32Value': { type: 'integer', format: 'uint32' },
  'google.protobuf.BoolValue': { type: 'boolean' },
  'google.protobuf.StringValue': { type: 'string' },
  'google.protobuf.BytesValue': { type: 'string', contentEncoding: 'base64' },
};

function scalar(type: string): SchemaNode {
  switch (type) {
    case 'double':
    case 'float':
      return { type: 'number', format: type };
    case 'int32':
    case 'sint32':
    case 'sfixed32':
    case 'uint32':
    case 'fixed32':
      return { type: 'integer', format: type };
    case 'int64':
    case 'sint64':
    case 'sfixed64':
    case 'uint64':
    case 'fixed64':
      return { type: ['string', 'integer'], format: type };
    case 'bool':
      return { type: 'boolean' };
    case 'bytes':
      return { type: 'string', contentEncoding: 'base64', format: 'bytes' };
    default:
      return { type: 'string' };
  }
}

/** The JSON Schema of `type` and every message type it reaches. */
export function messageSchema(type: protobuf.Type): MessageSchema {
  const defs: Record<string, SchemaNode> = Object.create(null) as Record<string, SchemaNode>;
  const queue: protobuf.Type[] = [type];
  const ref = (t: protobuf.Type): SchemaNode => {
    const name = typeName(t);
    if (Object.hasOwn(WKT, name)) return { ...WKT[name]!, title: name };
    if (!Object.hasOwn(defs, name)) {
      if (Object.keys(defs).length + queue.length >= MAX_TYPES) return { title: name };
      defs[name] = {};
      queue.push(t);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const rootName = typeName(type);
  if (Object.hasOwn(WKT, rootName)) return { $ref: `#/$defs/${rootName}`, $defs: { [rootName]: { ...WKT[rootName]!, title: rootName } } };
  defs[rootName] = {};
  while (queue.length > 0) {
    const t = queue.shift()!;
    const properties: Record<string, SchemaNode> = Object.create(null) as Record<string, SchemaNode>;
    for (const field of t.fieldsArray) {
      field.resolve();
      const resolved = field.resolvedType;
      const one: SchemaNode =
        resolved instanceof protobuf.Type
          ? ref(resolved)
          : resolved instanceof protobuf.Enum
            ? { type: ['string', 'integer'], enum: Object.keys(resolved.values), title: typeName(resolved) }
            : scalar(field.type);
      let node: SchemaNode = one;
      if (field.map) node = { type: 'object', additionalProperties: one, propertyNames: scalar((field as unknown as protobuf.MapField).keyType) };
      else if (field.repeated) node = { type: 'array', items: one };
      const json = field.name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
      if (field.comment) node = { ...node, description: field.comment };
      if (json !== field.name) node = { ...node, 'x-json-name': json };
      properties[field.name] = node;
    }
    const oneofs: Record<string, string[]> = {};
    for (const oneof of t.oneofsArray) {
      // proto3 `optional` is a synthetic oneof of one member: not a choice.
      if (oneof.fieldsArray.length > 1 || !oneof.name.startsWith('_')) oneofs[oneof.name] = oneof.fieldsArray.map((f) => f.name);
    }
    defs[typeName(t)] = {
      type: 'object',
      title: typeName(t),
      properties,
      additionalProperties: false,
      ...(Object.keys(oneofs).length > 0 ? { 'x-oneof': oneofs } : {}),
      ...(t.comment ? { description: t.comment } : {}),
    };
  }
  return { $ref: `#/$defs/${rootName}`, $defs: defs };
}
