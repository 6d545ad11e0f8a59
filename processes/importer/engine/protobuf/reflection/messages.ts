/**
 * The messages of gRPC server reflection, as protobufjs JSON. v1 and v1alpha declare the same
 * messages in two packages (proto/v1 and proto/v1alpha/reflection.proto, from @grpc/reflection
 * 1.0.4's build/proto, Apache-2.0; proto/README.md), so one set serves both: only the method's
 * path names the version. messages.test.ts checks this JSON against both files.
 */
import protobuf from 'protobufjs';

export const REFLECTION_MESSAGES_JSON: Record<string, protobuf.AnyNestedObject> =
{
  "ServerReflectionRequest": {
    "oneofs": {
      "message_request": {
        "oneof": [
          "file_by_filename",
          "file_containing_symbol",
          "file_containing_extension",
          "all_extension_numbers_of_type",
          "list_services"
        ]
      }
    },
    "fields": {
      "host": {
        "type": "string",
        "id": 1
      },
      "file_by_filename": {
        "type": "string",
        "id": 3
      },
      "file_containing_symbol": {
        "type": "string",
        "id": 4
      },
      "file_containing_extension": {
        "type": "ExtensionRequest",
        "id": 5
      },
      "all_extension_numbers_of_type": {
        "type": "string",
        "id": 6
      },
      "list_services": {
        "type": "string",
        "id": 7
      }
    }
  },
  "ExtensionRequest": {
    "fields": {
      "containing_type": {
        "type": "string",
        "id": 1
      },
      "extension_number": {
        "type": "int32",
        "id": 2
      }
    }
  },
  "ServerReflectionResponse": {
    "oneofs": {
      "message_response": {
        "oneof": [
          "file_descriptor_response",
          "all_extension_numbers_response",
          "list_services_response",
          "error_response"
        ]
      }
    },
    "fields": {
      "valid_host": {
        "type": "string",
        "id": 1
      },
      "original_request": {
        "type": "ServerReflectionRequest",
        "id": 2
      },
      "file_descriptor_response": {
        "type": "FileDescriptorResponse",
        "id": 4
      },
      "all_extension_numbers_response": {
        "type": "ExtensionNumberResponse",
        "id": 5
      },
      "list_services_response": {
        "type": "ListServiceResponse",
        "id": 6
      },
      "error_response": {
        "type": "ErrorResponse",
        "id": 7
      }
    }
  },
  "FileDescriptorResponse": {
    "fields": {
      "file_descriptor_proto": {
        "rule": "repeated",
        "type": "bytes",
        "id": 1
      }
    }
  },
  "ExtensionNumberResponse": {
    "fields": {
      "base_type_name": {
        "type": "string",
        "id": 1
      },
      "extension_number": {
        "rule": "repeated",
        "type": "int32",
        "id": 2
      }
    }
  },
  "ListServiceResponse": {
    "fields": {
      "service": {
        "rule": "repeated",
        "type": "ServiceResponse",
        "id": 1
      }
    }
  },
  "ServiceResponse": {
    "fields": {
      "name": {
        "type": "string",
        "id": 1
      }
    }
  },
  "ErrorResponse": {
    "fields": {
      "error_code": {
        "type": "int32",
        "id": 1
      },
      "error_message": {
        "type": "string",
        "id": 2
      }
    }
  }
};

const root = protobuf.Root.fromJSON({ nested: { reflection: { nested: REFLECTION_MESSAGES_JSON } } });

export const ServerReflectionRequest = root.lookupType('reflection.ServerReflectionRequest');
export const ServerReflectionResponse = root.lookupType('reflection.ServerReflectionResponse');

/** The bidirectional method every reflection version serves, by version. */
export function reflectionMethodPath(version: 'v1' | 'v1alpha'): string {
  return `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`;
}
