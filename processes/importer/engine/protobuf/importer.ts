/**
 * Protocol Buffers (gRPC): .proto files by URL, file, paste or folder, or a running server by
 * reflection (the dialog's Server tab), become a gRPC API (docs/grpc-import.md).
 */
import { runDetectRules } from '../detect-rules.js';
import type { Importer } from '../importer.js';
import { PROTOBUF_DETECT_RULES } from './detect.js';

export const protobufImporter: Importer = {
  id: 'protobuf',
  label: 'Protocol Buffers (gRPC)',
  // One .proto file is text a person wrote; 10 MB is far beyond any real one.
  limits: { fileBytes: 10 * 1024 * 1024, pasteChars: 10 * 1024 * 1024 },
  detect: (input) => runDetectRules(PROTOBUF_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./convert.js')).convertProtobuf(input, ctx),
};
