/**
 * The addresses an API's cached definition documents are read by, in every process: each cached
 * file by its path in the API folder below one fixed folder, `file:///api/`. Relative `$ref`s
 * between them resolve exactly as they did on disk, the checker and the mock host read the same
 * addresses (so they cannot disagree on what a reference names), and no real path of the machine
 * travels on the bus or shows in a message. A reference that leaves the folder is refused by the
 * shared rule (`apiFolderScope`, protocol/ref-location.ts). Pure: no node: modules.
 */
import { ParleyError } from './errors.js';
import type { RefScope } from './ref-location.js';

export const API_FOLDER_URI = 'file:///api/';

/** The address of the cached document at `relPath` (a path in the API folder, `/`-separated). */
export function cachedDocumentUri(relPath: string): string {
  // As pathToFileURL writes a path: these characters are part of the file's name, not URL syntax.
  const escaped = relPath.replace(/[%\\\n\r\t#?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  const href = new URL(escaped, API_FOLDER_URI).href;
  if (!href.startsWith(API_FOLDER_URI) || href === API_FOLDER_URI) {
    throw new ParleyError('path-escape', `The cached definition file ${JSON.stringify(relPath.slice(0, 200))} is not a path inside the API's folder.`);
  }
  return href;
}

/** True for an address `cachedDocumentUri` gives: a project's cached document, not a file or URL read directly. */
export function isCachedDocumentUri(uri: string): boolean {
  return uri.startsWith(API_FOLDER_URI);
}

/** A cached document's path in the API folder, as the user knows it (`definition/schemas.yaml`). */
export function cachedDocumentPath(uri: string): string {
  const rel = uri.slice(API_FOLDER_URI.length);
  try {
    return decodeURIComponent(rel);
  } catch {
    return rel;
  }
}

/** The folder every reference of a definition must stay in: the API folder for a cached one, none for a document read from its own address. */
export function apiFolderScope(entryUri: string): RefScope['within'] {
  return isCachedDocumentUri(entryUri) ? { folder: API_FOLDER_URI, name: "the API's folder" } : undefined;
}
