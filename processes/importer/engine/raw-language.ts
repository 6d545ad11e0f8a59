/** The editor language of a raw body an importer reads: by its Content-Type, else by its first character when it has none. */
import { essence, isJsonMediaType, isXmlMediaType } from '../../../protocol/media-type.js';
import type { RawLanguage } from '../../../protocol/model/request.js';

export function rawLanguageOf(contentType: string, text: string): RawLanguage {
  if (isJsonMediaType(contentType)) return 'json';
  if (isXmlMediaType(contentType)) return 'xml';
  const e = essence(contentType);
  if (e === 'text/html') return 'html';
  if (e === 'application/javascript' || e === 'text/javascript') return 'javascript';
  if (e === '') {
    const start = text.trimStart()[0];
    if (start === '{' || start === '[') return 'json';
    if (start === '<') return 'xml';
  }
  return 'text';
}
