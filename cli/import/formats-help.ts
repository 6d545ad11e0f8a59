/**
 * The import formats as the CLI names them (`parley --help`, `parley import --help`, and the
 * advice when auto-detect recognises nothing), all read from protocol/import-formats.ts, the one
 * list the app's Format list reads too, so a new format shows up everywhere at once.
 */
import { builtFormats } from '../../protocol/import-formats.js';

/** Every `--format` value: auto, each built importer, and curl (a command line, not a document). */
export function formatIds(): string[] {
  return ['auto', ...builtFormats().map((f) => f.id), 'curl'];
}

/** One line per format, `id` then what it is, each starting with `indent`. */
export function formatLines(indent: string): string {
  const width = Math.max(...formatIds().map((id) => id.length)) + 2;
  return [
    ...builtFormats().map((f) => `${indent}${f.id.padEnd(width)}${f.label}${f.lands === 'workspace' ? ' (into the workspace)' : ''}`),
    `${indent}${'curl'.padEnd(width)}a curl command, as a request of an API`,
  ].join('\n');
}

/** What to do when auto-detect recognised nothing: give the format with --format. */
export function chooseFormatAdvice(): string {
  return ` If you know its format, give it with --format <format>: ${builtFormats()
    .map((f) => f.id)
    .join(', ')} (parley import --help says what each is).`;
}
