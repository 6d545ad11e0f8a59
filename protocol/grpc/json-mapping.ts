/**
 * A gRPC message as JSON (docs/grpc.md), both ways, by the method's protobufjs Type: the request
 * message the user wrote is checked field by field (a wrong field is named by its path) and
 * made into the object `Type.fromObject` takes; a received message is made into JSON. The JSON
 * form is proto3's JSON mapping: field names as in the .proto (their lowerCamelCase JSON names
 * are read too), 64-bit integers as strings (numbers read too), enums by name, bytes as base64,
 * and the well-known types in their JSON forms (Timestamp as RFC 3339, Duration as `1.5s`,
 * wrappers as their value, Struct/Value/ListValue as plain JSON, FieldMask as `a.b,c`, Any with
 * `@type`). protobufjs knows none of these forms but Any's, so both directions walk the type.
 * The supervisor checks with this before a send; the sender encodes with it: one rule.
 */
import protobuf from 'protobufjs';
import { ParleyError, quote } from '../errors.js';
import { ownValue, setOwn } from '../own.js';
import { stepText } from './message-check.js';

/** Nesting deeper than this is refused (a recursive type written without end, or a hostile message). */
export const MAX_MESSAGE_DEPTH = 100;

const INT32 = new Set(['int32', 'sint32', 'sfixed32']);
const UINT32 = new Set(['uint32', 'fixed32']);
const INT64 = new Set(['int64', 'sint64', 'sfixed64']);
const UINT64 = new Set(['uint64', 'fixed64']);
const WRAPPERS = new Map([
  ['google.protobuf.DoubleValue', 'double'],
  ['google.protobuf.FloatValue', 'float'],
  ['google.protobuf.Int64Value', 'int64'],
  ['google.protobuf.UInt64Value', 'uint64'],
  ['google.protobuf.Int32Value', 'int32'],
  ['google.protobuf.UInt32Value', 'uint32'],
  ['google.protobuf.BoolValue', 'bool'],
  ['google.protobuf.StringValue', 'string'],
  ['google.protobuf.BytesValue', 'bytes'],
]);
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;

export function typeName(type: protobuf.ReflectionObject): string {
  return type.fullName.replace(/^\./, '');
}

/** A type's fields by their name and their JSON name (built once per type). */
const fieldIndex = new WeakMap<protobuf.Type, Map<string, protobuf.Field>>();
function fieldsOf(type: protobuf.Type): Map<string, protobuf.Field> {
  let index = fieldIndex.get(type);
  if (!index) {
    index = new Map();
    for (const field of type.fieldsArray) {
      field.resolve();
      index.set(field.name, field);
      const json = lowerCamel(field.name);
      if (!index.has(json)) index.set(json, field);
    }
    fieldIndex.set(type, index);
  }
  return index;
}

function lowerCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function bad(path: string, message: string): ParleyError {
  return new ParleyError('grpc-message-invalid', `${path}: ${message}`, { path });
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The JSON `value` as `Type.fromObject` takes it, checked against `type`: an unknown field, a
 * value of the wrong kind, two members of one oneof, a bad enum name are refused with a
 * `grpc-message-invalid` naming the field's path (`$.user.id`).
 */
export function objectFromJson(type: protobuf.Type, value: unknown, path = '$', depth = 0): Record<string, unknown> {
  if (depth > MAX_MESSAGE_DEPTH) throw bad(path, `nested deeper than ${MAX_MESSAGE_DEPTH} messages.`);
  const wkt = wktFromJson(type, value, path, depth);
  if (wkt !== undefined) return wkt;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(path, `${typeName(type)} is a message: expected an object, found ${kindOf(value)}.`);
  const out: Record<string, unknown> = {};
  const oneofs = new Map<protobuf.OneOf, string>();
  const fields = fieldsOf(type);
  for (const key of Object.keys(value)) {
    const field = fields.get(key);
    const at = `${path}${stepText(key)}`;
    if (!field) throw bad(at, `${typeName(type)} has no field ${quote(key)}.`);
    const item = ownValue(value, key);
    // proto3 JSON: null is the field's default (unset), except a google.protobuf.Value's null.
    if (item === null && !(field.resolvedType && typeName(field.resolvedType) === 'google.protobuf.Value')) continue;
    if (field.partOf) {
      const other = oneofs.get(field.partOf);
      if (other !== undefined) throw bad(at, `${quote(key)} and ${quote(other)} are both members of the oneof ${quote(field.partOf.name)}: set one.`);
      oneofs.set(field.partOf, key);
    }
    setOwn(out, field.name, fieldFromJson(field, item, at, depth));
  }
  return out;
}

function fieldFromJson(field: protobuf.Field, value: unknown, path: string, depth: number): unknown {
  if (field.map) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(path, `a map: expected an object, found ${kindOf(value)}.`);
    const out: Record<string, unknown> = {};
    const keyType = (field as unknown as protobuf.MapField).keyType;
    for (const key of Object.keys(value)) {
      checkMapKey(keyType, key, `${path}${stepText(key)}`);
      setOwn(out, key, singleFromJson(field, ownValue(value, key), `${path}${stepText(key)}`, depth));
    }
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) throw bad(path, `a repeated field: expected an array, found ${kindOf(value)}.`);
    return value.map((item, i) => {
      if (item === null && !(field.resolvedType && typeName(field.resolvedType) === 'google.protobuf.Value')) throw bad(`${path}[${i}]`, 'null is not a value of a repeated field.');
      return singleFromJson(field, item, `${path}[${i}]`, depth);
    });
  }
  return singleFromJson(field, value, path, depth);
}

function singleFromJson(field: protobuf.Field, value: unknown, path: string, depth: number): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return objectFromJson(resolved, value, path, depth + 1);
  if (resolved instanceof protobuf.Enum) return enumFromJson(resolved, value, path);
  return scalarFromJson(field.type, value, path);
}

function enumFromJson(type: protobuf.Enum, value: unknown, path: string): string | number {
  if (typeof value === 'string') {
    if (Object.hasOwn(type.values, value)) return value;
    throw bad(path, `${quote(value)} is not a value of the enum ${typeName(type)} (${Object.keys(type.values).slice(0, 20).join(', ')}).`);
  }
  if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 0x7fffffff) return value;
  throw bad(path, `the enum ${typeName(type)}: expected one of its names, found ${kindOf(value)}.`);
}

function checkMapKey(keyType: string, key: string, path: string): void {
  if (keyType === 'string') return;
  if (keyType === 'bool') {
    if (key !== 'true' && key !== 'false') throw bad(path, `a map key of type bool is "true" or "false".`);
    return;
  }
  if (!/^-?\d+$/.test(key)) throw bad(path, `a map key of type ${keyType} is an integer.`);
  scalarFromJson(keyType, key, path);
}

/** A scalar as protobufjs takes it: numbers for 32-bit and floating types, decimal strings for 64-bit ones. */
export function scalarFromJson(type: string, value: unknown, path: string): unknown {
  if (INT32.has(type) || UINT32.has(type)) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw bad(path, `${type}: expected an integer, found ${describe(value)}.`);
    const [min, max] = INT32.has(type) ? [-0x80000000, 0x7fffffff] : [0, 0xffffffff];
    if (n < min || n > max) throw bad(path, `${n} is out of the range of ${type}.`);
    return n;
  }
  if (INT64.has(type) || UINT64.has(type)) {
    let text: string;
    if (typeof value === 'number' && Number.isSafeInteger(value)) text = String(value);
    else if (typeof value === 'string' && /^-?\d+$/.test(value)) text = value;
    else throw bad(path, `${type}: expected an integer (as a string or a number), found ${describe(value)}.`);
    const n = BigInt(text);
    const [min, max] = INT64.has(type) ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
    if (n < min || n > max) throw bad(path, `${text} is out of the range of ${type}.`);
    return text;
  }
  switch (type) {
    case 'double':
    case 'float':
      if (typeof value === 'number') return value;
      if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return Number(value);
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      throw bad(path, `${type}: expected a number, found ${describe(value)}.`);
    case 'bool':
      if (typeof value === 'boolean') return value;
      throw bad(path, `bool: expected true or false, found ${describe(value)}.`);
    case 'string':
      if (typeof value === 'string') return value;
      throw bad(path, `string: expected a string, found ${describe(value)}.`);
    case 'bytes':
      if (typeof value === 'string' && BASE64.test(value)) return value.replace(/-/g, '+').replace(/_/g, '/');
      throw bad(path, `bytes: expected base64 text, found ${describe(value)}.`);
    default:
      throw bad(path, `the field's type ${quote(type)} is not one Parley knows.`);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return quote(value, 40);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return kindOf(value);
}

/** The well-known types' JSON forms as protobufjs objects; undefined: not a well-known type with a JSON form of its own. */
function wktFromJson(type: protobuf.Type, value: unknown, path: string, depth: number): Record<string, unknown> | undefined {
  const name = typeName(type);
  const wrapped = WRAPPERS.get(name);
  if (wrapped !== undefined) return { value: scalarFromJson(wrapped, value, path) };
  switch (name) {
    case 'google.protobuf.Timestamp': {
      const m = typeof value === 'string' ? RFC3339.exec(value) : null;
      const ms = m ? Date.parse(value as string) : NaN;
      if (!m || Number.isNaN(ms)) throw bad(path, `a Timestamp is RFC 3339 text (2024-01-31T12:00:00Z), found ${describe(value)}.`);
      const nanos = m[7] ? Number(m[7].slice(1).padEnd(9, '0')) : 0;
      return { seconds: String(Math.floor(ms / 1000)), nanos };
    }
    case 'google.protobuf.Duration': {
      const m = typeof value === 'string' ? DURATION.exec(value) : null;
      if (!m) throw bad(path, `a Duration is seconds with an "s" (1.5s), found ${describe(value)}.`);
      const sign = m[1] ? -1 : 1;
      const nanos = m[3] ? Number(m[3].padEnd(9, '0')) : 0;
      return { seconds: m[1] ? `-${m[2]}` : m[2], nanos: sign * nanos };
    }
    case 'google.protobuf.FieldMask':
      if (typeof value !== 'string') throw bad(path, `a FieldMask is text (paths joined by commas), found ${describe(value)}.`);
      return { paths: value === '' ? [] : value.split(',').map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)) };
    case 'google.protobuf.Struct':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(path, `a Struct is an object, found ${kindOf(value)}.`);
      return { fields: structFields(value, path, depth) };
    case 'google.protobuf.ListValue':
      if (!Array.isArray(value)) throw bad(path, `a ListValue is an array, found ${kindOf(value)}.`);
      return { values: value.map((v, i) => jsonValue(v, `${path}[${i}]`, depth + 1)) };
    case 'google.protobuf.Value':
      return jsonValue(value, path, depth);
    case 'google.protobuf.Any':
      return anyFromJson(type, value, path, depth);
    default:
      return undefined;
  }
}

function structFields(value: object, path: string, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, jsonValue(ownValue(value, key), `${path}${stepText(key)}`, depth + 1));
  return out;
}

function jsonValue(value: unknown, path: string, depth: number): Record<string, unknown> {
  if (depth > MAX_MESSAGE_DEPTH) throw bad(path, `nested deeper than ${MAX_MESSAGE_DEPTH} values.`);
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map((v, i) => jsonValue(v, `${path}[${i}]`, depth + 1)) } };
  if (typeof value === 'object') return { structValue: { fields: structFields(value, path, depth) } };
  throw bad(path, `${kindOf(value)} is not JSON.`);
}

/** An Any: `@type` names a type of the definition; its fields beside it (a well-known type's JSON under `value`). */
function anyFromJson(anyType: protobuf.Type, value: unknown, path: string, depth: number): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(path, `an Any is an object with "@type", found ${kindOf(value)}.`);
  const url = ownValue(value, '@type');
  if (typeof url !== 'string' || url === '') throw bad(path, 'an Any needs "@type" (type.googleapis.com/package.Message).');
  const inner = lookupType(anyType.root, url.slice(url.lastIndexOf('/') + 1));
  if (!inner) throw bad(`${path}.@type`, `${quote(url)} names no message type of this definition.`);
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (key !== '@type') setOwn(rest, key, ownValue(value, key));
  const isWkt = WRAPPERS.has(typeName(inner)) || typeName(inner).startsWith('google.protobuf.');
  const object = objectFromJson(inner, isWkt && Object.hasOwn(rest, 'value') ? rest.value : rest, path, depth + 1);
  return { type_url: url, value: inner.encode(inner.fromObject(object)).finish() };
}

export function lookupType(root: protobuf.NamespaceBase, name: string): protobuf.Type | undefined {
  try {
    return root.lookupType(name.startsWith('.') ? name : `.${name}`);
  } catch {
    return undefined;
  }
}

/** The protobuf bytes of the JSON text `text` as a message of `type`: parsed, checked, encoded. */
export function encodeJson(type: protobuf.Type, text: string): Uint8Array {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ParleyError('grpc-message-invalid', `The message is not JSON: ${(err as Error).message.slice(0, 200)}`);
  }
  const object = objectFromJson(type, value);
  return type.encode(type.fromObject(object)).finish();
}

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, defaults: true, arrays: true, objects: true };

/** A received message of `type` as its JSON value: every field with its default, 64-bit integers as strings, enums by name. */
export function jsonOfMessage(type: protobuf.Type, message: protobuf.Message): unknown {
  return jsonOfObject(type, type.toObject(message, TO_OBJECT), 0);
}

export function decodeToJson(type: protobuf.Type, bytes: Uint8Array): unknown {
  return jsonOfMessage(type, type.decode(bytes));
}

function jsonOfObject(type: protobuf.Type, object: Record<string, unknown>, depth: number): unknown {
  const wkt = wktToJson(type, object, depth);
  if (wkt !== undefined) return wkt.value;
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(object, field.name)) continue;
    const value = object[field.name];
    const resolved = field.resolvedType;
    if (value === null || value === undefined) continue;
    if (resolved instanceof protobuf.Type && depth < MAX_MESSAGE_DEPTH) {
      const one = (v: unknown) => jsonOfObject(resolved, v as Record<string, unknown>, depth + 1);
      if (field.map) {
        const map: Record<string, unknown> = {};
        for (const key of Object.keys(value as object)) setOwn(map, key, one(ownValue(value as object, key)));
        setOwn(out, field.name, map);
      } else setOwn(out, field.name, field.repeated ? (value as unknown[]).map(one) : one(value));
    } else setOwn(out, field.name, value);
  }
  return out;
}

function wktToJson(type: protobuf.Type, o: Record<string, unknown>, depth: number): { value: unknown } | undefined {
  const name = typeName(type);
  if (WRAPPERS.has(name)) return { value: o.value };
  switch (name) {
    case 'google.protobuf.Timestamp': {
      const ms = Number(o.seconds) * 1000;
      const nanos = Number(o.nanos ?? 0);
      const iso = new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');
      const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
      return { value: Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? `${iso}${fraction}Z` : `${String(o.seconds)}s since 1970` };
    }
    case 'google.protobuf.Duration': {
      const seconds = BigInt(String(o.seconds ?? '0'));
      const nanos = Number(o.nanos ?? 0);
      const negative = seconds < 0n || nanos < 0;
      const abs = (seconds < 0n ? -seconds : seconds).toString();
      const fraction = nanos === 0 ? '' : `.${String(Math.abs(nanos)).padStart(9, '0').replace(/0+$/, '')}`;
      return { value: `${negative ? '-' : ''}${abs}${fraction}s` };
    }
    case 'google.protobuf.FieldMask':
      return { value: ((o.paths as string[] | undefined) ?? []).map(lowerCamel).join(',') };
    case 'google.protobuf.Struct':
      return { value: structJson(o, depth) };
    case 'google.protobuf.ListValue':
      return { value: ((o.values as Record<string, unknown>[] | undefined) ?? []).map((v) => valueJson(v, depth + 1)) };
    case 'google.protobuf.Value':
      return { value: valueJson(o, depth) };
    case 'google.protobuf.Any':
      return { value: anyToJson(type, o, depth) };
    default:
      return undefined;
  }
}

function structJson(o: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = (o.fields ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(fields)) setOwn(out, key, valueJson(ownValue(fields, key) as Record<string, unknown>, depth + 1));
  return out;
}

function valueJson(o: Record<string, unknown>, depth: number): unknown {
  const has = (key: string) => o[key] !== undefined && o[key] !== null;
  if (depth > MAX_MESSAGE_DEPTH) return null;
  if (has('structValue')) return structJson(o.structValue as Record<string, unknown>, depth + 1);
  if (has('listValue')) return (((o.listValue as Record<string, unknown>).values as Record<string, unknown>[] | undefined) ?? []).map((v) => valueJson(v, depth + 1));
  if (has('stringValue')) return o.stringValue;
  if (has('numberValue')) return o.numberValue;
  if (has('boolValue')) return o.boolValue;
  return null;
}

/** An Any as JSON: its `@type` and the message it holds, when the definition knows the type; else its bytes in base64. */
export function anyToJson(anyType: protobuf.Type | protobuf.NamespaceBase, o: Record<string, unknown>, depth: number): unknown {
  const url = String(o.type_url ?? o.typeUrl ?? '');
  const root = anyType instanceof protobuf.Type ? anyType.root : anyType;
  const inner = lookupType(root, url.slice(url.lastIndexOf('/') + 1));
  const bytes = typeof o.value === 'string' ? Buffer.from(o.value, 'base64') : (o.value as Uint8Array | undefined);
  if (!inner || !bytes || depth >= MAX_MESSAGE_DEPTH) return { '@type': url, value: typeof o.value === 'string' ? o.value : Buffer.from(bytes ?? []).toString('base64') };
  try {
    const json = jsonOfObject(inner, inner.toObject(inner.decode(bytes), TO_OBJECT), depth + 1);
    const isObject = typeof json === 'object' && json !== null && !Array.isArray(json) && !typeName(inner).startsWith('google.protobuf.');
    return isObject ? { '@type': url, ...(json as object) } : { '@type': url, value: json };
  } catch {
    return { '@type': url, value: Buffer.from(bytes).toString('base64') };
  }
}
