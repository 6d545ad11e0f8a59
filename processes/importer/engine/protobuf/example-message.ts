/**
 * A first request message for a method: its input type as JSON, every field present with a
 * neutral value, so the user edits rather than types. Values follow proto3's JSON mapping (64-bit
 * integers as strings, enums by name, Timestamp and Duration as text); names are the fields'
 * names as declared, which every JSON reader of protobuf messages accepts. Of a oneof, only its
 * first field is given. A recursive type stops where it would repeat, and the whole example is
 * bounded (`MAX_NODES`), so a wide, deep definition still gives a small message.
 */
import protobuf from 'protobufjs';

const MAX_DEPTH = 8;
const MAX_NODES = 2_000;

/** The JSON text of an example message of `type`. */
export function exampleMessageText(type: protobuf.Type): string {
  return JSON.stringify(exampleOf(type, { nodes: 0 }, []), null, 2);
}

interface Budget {
  nodes: number;
}

function exampleOf(type: protobuf.Type, budget: Budget, path: readonly string[]): unknown {
  const wellKnown = WELL_KNOWN.get(type.fullName);
  if (wellKnown !== undefined) return wellKnown;
  const out: Record<string, unknown> = {};
  if (path.length >= MAX_DEPTH) return out;
  const inner = [...path, type.fullName];
  for (const field of type.fieldsArray) {
    if (++budget.nodes > MAX_NODES) break;
    // One member of each oneof: setting two is an error on the wire.
    if (field.partOf && field.partOf.oneof[0] !== field.name) continue;
    const resolved = field.resolvedType;
    // A field whose type is on the way here would repeat forever: left out.
    if (resolved instanceof protobuf.Type && inner.includes(resolved.fullName) && !WELL_KNOWN.has(resolved.fullName)) continue;
    const value = valueOf(field, budget, inner);
    if (field instanceof protobuf.MapField) out[field.name] = { [mapKeyOf(field.keyType)]: value };
    else out[field.name] = field.repeated ? [value] : value;
  }
  return out;
}

function valueOf(field: protobuf.Field, budget: Budget, path: readonly string[]): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return Object.keys(resolved.values)[0] ?? 0;
  if (resolved instanceof protobuf.Type) return exampleOf(resolved, budget, path);
  return scalarOf(field.type);
}

function scalarOf(type: string): unknown {
  switch (type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return '0';
    default:
      return 0;
  }
}

function mapKeyOf(keyType: string): string {
  return keyType === 'bool' ? 'false' : keyType === 'string' ? 'key' : '0';
}

/** The well-known types by their JSON form (proto3 JSON mapping). */
const WELL_KNOWN = new Map<string, unknown>([
  ['.google.protobuf.Timestamp', '1970-01-01T00:00:00Z'],
  ['.google.protobuf.Duration', '0s'],
  ['.google.protobuf.FieldMask', ''],
  ['.google.protobuf.Empty', {}],
  ['.google.protobuf.Struct', {}],
  ['.google.protobuf.Value', null],
  ['.google.protobuf.ListValue', []],
  ['.google.protobuf.Any', {}],
  ['.google.protobuf.DoubleValue', 0],
  ['.google.protobuf.FloatValue', 0],
  ['.google.protobuf.Int32Value', 0],
  ['.google.protobuf.UInt32Value', 0],
  ['.google.protobuf.Int64Value', '0'],
  ['.google.protobuf.UInt64Value', '0'],
  ['.google.protobuf.BoolValue', false],
  ['.google.protobuf.StringValue', ''],
  ['.google.protobuf.BytesValue', ''],
]);
