/**
 * Recognising Protocol Buffers text (SPEC "Import operations": URL, file, paste). By name: a
 * `.proto` file. By content: after comments and white space, the text opens with what a .proto
 * file opens with (`syntax = "proto3";`, `edition = ...`, `package x.y;`, an import, or a
 * message, enum or service block), which no other format Parley reads begins with.
 */
import { baseName, type DetectRule } from '../detect-rules.js';

const LEADING = /^\uFEFF?(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[^]*?\*\/)*/;
const OPENING = /^(?:syntax\s*=\s*["']proto[23]["']|edition\s*=\s*["']\d+["']|package\s+[A-Za-z_][\w.]*\s*;|import\s+(?:public\s+|weak\s+)?["'][^"'\n]+\.proto["']\s*;|option\s+[\w.]+\s*=|(?:message|enum|service)\s+[A-Za-z_]\w*\s*\{)/;

/** True when the text opens as a .proto file does. Looks at the first 64 KB. */
export function looksLikeProto(text: string): boolean {
  const head = text.slice(0, 64 * 1024);
  return OPENING.test(head.slice(LEADING.exec(head)?.[0].length ?? 0));
}

function labelOf(text: string): { label: string; version: string } {
  const syntax = /\bsyntax\s*=\s*["'](proto[23])["']/.exec(text.slice(0, 64 * 1024))?.[1];
  // A file without a syntax statement is proto2, as protoc reads it.
  return syntax === 'proto3' ? { label: 'Protocol Buffers (proto3)', version: 'proto3' } : { label: 'Protocol Buffers (proto2)', version: 'proto2' };
}

export const PROTOBUF_DETECT_RULES: DetectRule[] = [
  { format: 'protobuf', by: 'file-name', match: (input) => (/\.proto$/i.test(baseName(input.name ?? '')) ? labelOf(input.text) : null) },
  { format: 'protobuf', by: 'content', match: (input) => (looksLikeProto(input.text) ? labelOf(input.text) : null) },
];
