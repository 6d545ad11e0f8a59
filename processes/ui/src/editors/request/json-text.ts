/**
 * JSON as a body holds it: JSON text where a `${name}` expansion may stand for a value outside a
 * string (`{"n": ${count}}`) as well as inside one. The Form view, the formatter and the editor's
 * parse-error marks all read a body through here, so they agree on what parses. Parsing is
 * jsonc-parser's, strict (no comments, no trailing commas).
 */
import { format, applyEdits, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

const EXPANSION = /^\$\{[^{}"\n]+\}$/;
/** A mock response's template value, `{{name}}`, which stands for a value as an expansion does. */
const TEMPLATE = /^\{\{[^{}"\n]+\}\}$/;

export function isExpansion(text: string): boolean {
  return EXPANSION.test(text);
}

/** What stands for a value in the text besides JSON: request expansions, or mock templates too. */
export interface Placeholders {
  templates?: boolean;
}

/**
 * Replaces each `${...}` outside strings with a string of the same length, so the parser accepts
 * it and every offset (an error's, a formatter edit's) still points into the text as written.
 */
export function shieldExpansions(text: string, placeholders: Placeholders = {}): { shielded: string; expansions: Map<number, string> } {
  const expansions = new Map<number, string>();
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '$' && text[i + 1] === '{') {
      const end = text.indexOf('}', i);
      const token = end < 0 ? '' : text.slice(i, end + 1);
      if (isExpansion(token)) {
        expansions.set(i, token);
        out += `"${'_'.repeat(token.length - 2)}"`;
        i = end;
        continue;
      }
    } else if (placeholders.templates && c === '{' && text[i + 1] === '{') {
      const end = text.indexOf('}}', i);
      const token = end < 0 ? '' : text.slice(i, end + 2);
      if (TEMPLATE.test(token)) {
        expansions.set(i, token);
        out += `"${'_'.repeat(token.length - 2)}"`;
        i = end + 1;
        continue;
      }
    }
    out += c;
  }
  return { shielded: out, expansions };
}

const ERROR_WORDS = new Map<string, string>([
  ['InvalidSymbol', 'an unexpected character'],
  ['InvalidNumberFormat', 'a number written wrongly'],
  ['PropertyNameExpected', 'a property name in double quotes is expected'],
  ['ValueExpected', 'a value is expected'],
  ['ColonExpected', 'a colon is expected'],
  ['CommaExpected', 'a comma is expected'],
  ['CloseBraceExpected', 'a closing } is expected'],
  ['CloseBracketExpected', 'a closing ] is expected'],
  ['EndOfFileExpected', 'there is more after the end of the value'],
  ['InvalidCommentToken', 'comments are not JSON'],
  ['UnexpectedEndOfComment', 'a comment is not closed'],
  ['UnexpectedEndOfString', 'a string is not closed'],
  ['UnexpectedEndOfNumber', 'a number is cut short'],
  ['InvalidUnicode', 'a \\u escape is wrong'],
  ['InvalidEscapeCharacter', 'a backslash escape is wrong'],
  ['InvalidCharacter', 'a control character inside a string'],
]);

export function describeJsonError(error: ParseError): string {
  return ERROR_WORDS.get(printParseErrorCode(error.error)) ?? 'the text does not parse';
}

export function lineAndColumn(text: string, offset: number): string {
  const { line, column } = position(text, offset);
  return `line ${line}, column ${column}`;
}

export function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** Where a body's JSON first fails to parse, in the text as written; null when it parses. */
export interface JsonProblem {
  from: number;
  to: number;
  message: string;
}

export function jsonProblem(text: string, placeholders: Placeholders = {}): JsonProblem | null {
  if (!text.trim()) return null;
  const errors: ParseError[] = [];
  parse(shieldExpansions(text, placeholders).shielded, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first) return null;
  return { from: first.offset, to: first.offset + Math.max(1, first.length), message: `${capitalise(describeJsonError(first))} (${lineAndColumn(text, first.offset)}).` };
}

/**
 * Lays JSON out with two spaces. Only the whitespace between tokens changes: numbers, escapes and
 * every `${...}` stay exactly as written (JSON.stringify would turn 1.50 into 1.5).
 */
export function formatJsonText(text: string, placeholders: Placeholders = {}): { ok: true; text: string } | { ok: false; problem: JsonProblem } {
  const problem = jsonProblem(text, placeholders);
  if (problem) return { ok: false, problem };
  // The shield keeps every token's length and place, so edits made on it apply to the text itself.
  const edits = format(shieldExpansions(text, placeholders).shielded, undefined, { tabSize: 2, insertSpaces: true, eol: '\n' });
  return { ok: true, text: applyEdits(text, edits) };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
