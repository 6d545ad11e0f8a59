/**
 * The body formatter: pretty-prints JSON or XML, and reports a body that does not parse
 * (with where) instead of rewriting it. A `${name}` expansion is kept as written, in a string or
 * standing for a value.
 */
import { XMLValidator } from 'fast-xml-parser';
import { formatJsonText, jsonProblem, lineAndColumn, type JsonProblem, type Placeholders } from './json-text.js';

/** A parse problem in the text as written: where (offsets) and what, in the user's words. */
export type TextProblem = JsonProblem;

export type FormatResult = { ok: true; text: string } | { ok: false; message: string; problem: TextProblem };

export function formatBody(language: string, text: string, placeholders: Placeholders = {}): FormatResult {
  if (language === 'json') return formatJson(text, placeholders);
  if (language === 'xml') return formatXml(text);
  return { ok: true, text };
}

export function formatJson(text: string, placeholders: Placeholders = {}): FormatResult {
  const result = formatJsonText(text, placeholders);
  if (result.ok) return result;
  return { ok: false, message: `The JSON does not parse: ${result.problem.message} It was left as it is.`, problem: result.problem };
}

export function formatXml(text: string): FormatResult {
  const problem = xmlProblem(text);
  if (problem) return { ok: false, message: `The XML does not parse: ${problem.message} It was left as it is.`, problem };
  return { ok: true, text: text.trim() ? indentXml(text) : text };
}

/** Where a body's text first fails to parse in its language, or null (text and HTML always pass). */
export function parseProblem(language: string, text: string, placeholders: Placeholders = {}): TextProblem | null {
  if (language === 'json') return jsonProblem(text, placeholders);
  if (language === 'xml') return xmlProblem(text);
  return null;
}

export function xmlProblem(text: string): TextProblem | null {
  if (!text.trim()) return null;
  const result = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (result === true) return null;
  const { line, col, msg } = result.err;
  const from = offsetOf(text, line, col);
  return { from, to: Math.min(text.length, from + 1), message: `${msg.replace(/\.$/, '')} (${lineAndColumn(text, from)}).` };
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + Math.max(0, column - 1));
}

/** Re-indents XML by tags, keeping text content and CDATA as they are. */
export function indentXml(xml: string): string {
  const parts = xml.replace(/>\s+</g, '><').split(/(<[^>]+>)/).filter((p) => p !== '');
  let depth = 0;
  const lines: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      lines.push('  '.repeat(depth) + part);
    } else if (part.startsWith('<') && !part.startsWith('<?') && !part.startsWith('<!') && !part.endsWith('/>')) {
      const text = parts[i + 1];
      const close = parts[i + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</')) {
        lines.push('  '.repeat(depth) + part + text + close);
        i += 2;
      } else {
        lines.push('  '.repeat(depth) + part);
        depth++;
      }
    } else {
      lines.push('  '.repeat(depth) + part);
    }
  }
  return lines.join('\n');
}
