/**
 * A gRPC status's details: `grpc-status-details-bin`, a google.rpc.Status whose details are Any
 * messages. Each is shown as JSON when its type is known: the call's definition's types first,
 * then google/rpc/error_details.proto's (ErrorInfo, BadRequest, RetryInfo, ...), which servers
 * use most; an unknown one as its `@type` and bytes in base64.
 */
import protobuf from 'protobufjs';
import { anyToJson, lookupType } from '../../../../protocol/grpc/json-mapping.js';

// google/rpc/status.proto and google/rpc/error_details.proto (Apache 2.0), as their messages are.
const RPC_PROTO = `
syntax = "proto3";
package google.rpc;
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
message Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
message RetryInfo { google.protobuf.Duration retry_delay = 1; }
message DebugInfo { repeated string stack_entries = 1; string detail = 2; }
message QuotaFailure { message Violation { string subject = 1; string description = 2; } repeated Violation violations = 1; }
message PreconditionFailure { message Violation { string type = 1; string subject = 2; string description = 3; } repeated Violation violations = 1; }
message BadRequest { message FieldViolation { string field = 1; string description = 2; string reason = 3; } repeated FieldViolation field_violations = 1; }
message RequestInfo { string request_id = 1; string serving_data = 2; }
message ResourceInfo { string resource_type = 1; string resource_name = 2; string owner = 3; string description = 4; }
message Help { message Link { string description = 1; string url = 2; } repeated Link links = 1; }
message LocalizedMessage { string locale = 1; string message = 2; }
`;

let rpcRoot: protobuf.Root | undefined;
function rpc(): protobuf.Root {
  if (!rpcRoot) {
    const root = new protobuf.Root();
    for (const file of ['google/protobuf/any.proto', 'google/protobuf/duration.proto']) root.addJSON(protobuf.common.get(file)!.nested!);
    protobuf.parse(RPC_PROTO, root, { keepCase: true });
    root.resolveAll();
    rpcRoot = root;
  }
  return rpcRoot;
}

/** The details of `bytes` (a google.rpc.Status) as JSON text, or undefined when they do not decode. */
export function statusDetails(bytes: Uint8Array, definition: protobuf.Root): string | undefined {
  try {
    const status = rpc().lookupType('google.rpc.Status');
    const decoded = status.toObject(status.decode(bytes), { longs: String, enums: String, bytes: String, defaults: true, arrays: true });
    const details = (decoded.details as Record<string, unknown>[]).map((any) => {
      const url = String(any.type_url ?? '');
      const name = url.slice(url.lastIndexOf('/') + 1);
      return anyToJson(lookupType(definition, name) ? definition : rpc(), any, 0);
    });
    return JSON.stringify({ code: decoded.code, message: decoded.message, details }, null, 2);
  } catch {
    return undefined;
  }
}
