/**
 * The entry of an import job, read from where the user chose it: a URL (through the job's
 * loader, so credentials and the network settings apply), a file, or pasted text.
 */
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ParleyError } from '../../../../protocol/errors.js';
import type { ImportSource } from '../../../../protocol/model/import.js';
import type { ImportInput } from '../importer.js';
import { DEFAULT_LIMITS, tooLarge } from './limits.js';
import type { DocumentLoader } from './loader.js';
import { decodeText } from './decode-text.js';

export async function readImportInput(source: ImportSource, loader: DocumentLoader): Promise<ImportInput> {
  if (source.kind === 'paste') {
    const bytes = new TextEncoder().encode(source.text);
    if (bytes.length > DEFAULT_LIMITS.totalBytes) throw tooLarge('The pasted text', DEFAULT_LIMITS.totalBytes);
    return { text: source.text, bytes };
  }
  if (source.kind === 'file') {
    const path = resolve(source.path);
    const read = await loader.load(pathToFileURL(path), 'entry');
    return { name: basename(path), text: decodeText(read.bytes), bytes: read.bytes, location: { kind: 'file', path } };
  }
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw new ParleyError('bad-input', `${loader.redactor.text(source.url)} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ParleyError('bad-input', `${loader.redactor.url(url)} is not an http or https URL.`);
  }
  const read = await loader.load(url, 'entry');
  const shown = loader.redactor.url(url);
  return { name: shown, text: decodeText(read.bytes), bytes: read.bytes, location: { kind: 'url', url: shown, ...(read.url !== shown ? { finalUrl: read.url } : {}) } };
}
