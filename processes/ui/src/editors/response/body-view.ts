/** How a response body is shown: decoded text, its kind, and a pretty form when it parses. */
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import { html as beautifyHtml } from 'js-beautify';
import { indentXml } from '../request/format.js';

export type BodyKind = 'json' | 'xml' | 'html' | 'text' | 'image' | 'binary' | 'empty';

export const HIGHLIGHT_LIMIT = 512 * 1024;

export function header(result: SendResult, name: string): string | undefined {
  const lower = name.toLowerCase();
  return result.headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

export function bodyKind(result: SendResult): BodyKind {
  if (result.body.size === 0) return 'empty';
  const type = (header(result, 'content-type') ?? '').toLowerCase();
  if (/[/+]json\b/.test(type)) return 'json';
  if (type.startsWith('image/')) return 'image';
  if (/html/.test(type)) return 'html';
  if (/[/+]xml\b/.test(type)) return 'xml';
  if (type.startsWith('text/') || /javascript|ecmascript|x-www-form-urlencoded|yaml|csv/.test(type)) return 'text';
  const head = result.body.bytes.subarray(0, 512);
  if (head.some((b) => b === 0)) return 'binary';
  const start = new TextDecoder().decode(head).trimStart();
  if (start.startsWith('{') || start.startsWith('[')) return 'json';
  if (start.startsWith('<')) return /^<(!doctype html|html)/i.test(start) ? 'html' : 'xml';
  return type ? 'binary' : 'text';
}

export function decodeText(result: SendResult): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(result.body.bytes);
}

export function prettyText(kind: BodyKind, text: string): string {
  if (kind === 'json') {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }
  if (kind === 'xml') return indentXml(text);
  return text;
}

/**
 * HTML laid out one element a line with two-space indents (js-beautify's, the formatter VS Code
 * ships); scripts and styles inside are laid out too. Past HTML_LAYOUT_LIMIT the text is shown as
 * it came: laying out megabytes would hold the page.
 */
export function prettyHtml(text: string): string {
  if (text.length > HTML_LAYOUT_LIMIT) return text;
  return beautifyHtml(text, { indent_size: 2, wrap_line_length: 0, preserve_newlines: false, end_with_newline: false });
}

const HTML_LAYOUT_LIMIT = 2 * 1024 * 1024;
