/**
 * Parses a definition document (JSON or YAML) and answers "which line is this JSON Pointer on"
 * for the report. JSON goes through JSON.parse (fast for large files); its line map is built
 * only when a report item asks for one, and only for files small enough to re-read cheaply. YAML
 * of a megabyte or more goes the same way when the value-only fast path reads it (js-yaml, about
 * 10x quicker than `yaml`'s document and a fifteenth of its memory: a 20 MB definition took 13 s
 * and 800 MB as a document, past the importer's heap cap, and 1.2 s and 61 MB this way).
 */
import { LineCounter, isMap, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { ParleyError } from '../../../../protocol/errors.js';
import { pointerSegments } from '../../../../protocol/json-pointer.js';
import { FAST_VALUE_FROM_CHARS, fastLoadValue } from '../../../../protocol/project/yaml-file.js';
import { looksLikeJson } from './decode-text.js';

export { decodeText, looksLikeJson } from './decode-text.js';

export interface ParsedText {
  value: unknown;
  syntax: 'json' | 'yaml';
  /** 1-based line of the value (or key) a JSON Pointer names, when it can be found. */
  locate(pointer: string): number | undefined;
}

/** JSON files, and YAML read by the fast path, larger than this get no line numbers: re-reading them as YAML's document costs too much. */
const LINE_MAP_LIMIT = 8 * 1024 * 1024;
/** Aliases a YAML document may expand, against "billion laughs" documents. */
const MAX_ALIAS_COUNT = 10_000;

/** Throws `import-malformed` naming the file and line when the text does not parse. */
export function parseText(text: string, file: string, options: { fastYamlFrom?: number } = {}): ParsedText {
  if (text.trim() === '') throw new ParleyError('import-malformed', `${file} is empty.`, { file });
  if (looksLikeJson(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      const line = jsonErrorLine(err, text);
      const reason = err instanceof Error ? err.message.replace(/\s*\(line \d+ column \d+\)$/, '') : 'invalid JSON';
      throw new ParleyError('import-malformed', `${file} is not valid JSON${line ? ` (line ${line})` : ''}: ${reason}.`, { file, ...(line ? { line } : {}) });
    }
    return { value, syntax: 'json', locate: lazyLines(text) };
  }
  if (text.length >= (options.fastYamlFrom ?? FAST_VALUE_FROM_CHARS)) {
    const value = fastLoadValue(text);
    if (value !== undefined) return { value, syntax: 'yaml', locate: lazyLines(text) };
  }
  const view = yamlViewOf(text);
  const first = view.doc.errors[0];
  if (first) {
    const line = view.lines.linePos(first.pos[0]).line;
    throw new ParleyError('import-malformed', `${file} is not valid YAML (line ${line}): ${first.message.split('\n')[0]}`, { file, line });
  }
  let value: unknown;
  try {
    value = view.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    throw new ParleyError('import-malformed', `${file} could not be read as YAML: ${err instanceof Error ? err.message : String(err)}`, { file });
  }
  return { value, syntax: 'yaml', locate: (pointer) => view.locate(pointer) };
}

/** Lines found by `yaml`'s document, made when first asked for and only for texts small enough to read again cheaply. */
function lazyLines(text: string): ParsedText['locate'] {
  let view: YamlView | null | undefined;
  return (pointer) => {
    if (view === undefined) view = text.length <= LINE_MAP_LIMIT ? yamlViewOf(text) : null;
    return view ? view.locate(pointer) : undefined;
  };
}

interface YamlView {
  doc: Document;
  lines: LineCounter;
  locate(pointer: string): number | undefined;
}

function yamlViewOf(text: string): YamlView {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, merge: true, uniqueKeys: false, prettyErrors: false });
  return {
    doc,
    lines,
    locate(pointer) {
      const offset = offsetOf(doc, pointer);
      return offset === undefined ? undefined : lines.linePos(offset).line;
    },
  };
}

/** Start offset of the key (for a map member) or item a pointer names. */
function offsetOf(doc: Document, pointer: string): number | undefined {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0];
  for (const segment of pointerSegments(pointer)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === segment);
      if (!pair) return offset;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item) return offset;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

function keyText(key: unknown): string | undefined {
  if (key === null || key === undefined) return undefined;
  const value = (key as { value?: unknown }).value;
  return value === undefined ? undefined : String(value);
}

function jsonErrorLine(err: unknown, text: string): number | undefined {
  const message = err instanceof Error ? err.message : '';
  const explicit = /line (\d+) column \d+/.exec(message);
  if (explicit) return Number(explicit[1]);
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  const at = Number(position[1]);
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
