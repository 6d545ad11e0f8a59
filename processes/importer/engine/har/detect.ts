/**
 * Recognising a HAR capture (SPEC "Auto-detect rules": by content or by a .har name). By
 * content: JSON whose root object opens with its `log` object, which is how every HAR writer
 * we know of writes it (HAR's root holds nothing else); the badge names `log.version` when it
 * comes first, as browsers write it.
 */
import { baseName, type DetectRule } from '../detect-rules.js';

const OPENS_WITH_LOG = /^\uFEFF?\s*\{\s*"log"\s*:\s*\{/;
const VERSION_FIRST = /^\uFEFF?\s*\{\s*"log"\s*:\s*\{\s*"version"\s*:\s*"([^"\\]{1,20})"/;

function label(text: string): { label: string; version?: string } {
  const version = VERSION_FIRST.exec(text)?.[1];
  return version ? { label: `HAR ${version}`, version: `har-${version}` } : { label: 'HAR' };
}

export const HAR_DETECT_RULES: DetectRule[] = [
  { format: 'har', by: 'file-name', match: (input) => (/\.har$/i.test(baseName(input.name ?? '')) ? label(input.text) : null) },
  { format: 'har', by: 'content', match: (input) => (OPENS_WITH_LOG.test(input.text.slice(0, 4096)) ? label(input.text.slice(0, 4096)) : null) },
];
