/**
 * What the command line's <file-or-folder-or-url> means as an import source: an http(s) URL,
 * `-` for text on standard input, a folder (its top-level OpenAPI document), or a file.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ParleyError } from '../../protocol/errors.js';
import type { FetchCredentials, ImportJobSource } from '../../protocol/model/import.js';

/** The import's cap over all documents (docs/importers.md), applied to standard input as it is read. */
const MAX_STDIN_BYTES = 50 * 1024 * 1024;

/** The document names the folder form looks for, in the order one is preferred. */
export const FOLDER_DOCUMENT_NAMES = ['openapi.yaml', 'openapi.yml', 'openapi.json', 'swagger.yaml', 'swagger.yml', 'swagger.json'];

/** `folder`: a folder of .proto files (no OpenAPI document at its top), imported as Protocol Buffers. */
export type SourceArg = { kind: 'url'; url: string } | { kind: 'file'; path: string; foundIn?: string } | { kind: 'folder'; path: string } | { kind: 'stdin' };

/** Anything that starts like `scheme://` is meant as a URL, never as a file name. */
export function looksLikeUrl(arg: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(arg);
}

/** Classifies the argument, looking at the disk for a file or folder. Throws ParleyError with a message for the user. */
export async function sourceArgOf(arg: string, options: { allowStdin: boolean; allowFolder?: boolean }): Promise<SourceArg> {
  if (arg === '-') {
    if (!options.allowStdin) throw new ParleyError('bad-input', 'A definition update reads a file or a URL; standard input cannot be read again later.');
    return { kind: 'stdin' };
  }
  if (looksLikeUrl(arg)) {
    let url: URL;
    try {
      url = new URL(arg);
    } catch {
      throw new ParleyError('bad-input', `${arg} is not a valid URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParleyError('bad-input', `Only http and https URLs can be imported, not ${url.protocol.slice(0, -1)}.`);
    return { kind: 'url', url: arg };
  }
  const path = resolve(arg);
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new ParleyError('import-file-unreadable', `${arg} was not found.`, { file: arg });
    throw new ParleyError('import-file-unreadable', `${arg} could not be read (${err.code ?? err.message}).`, { file: arg });
  });
  if (info.isDirectory()) {
    if (options.allowFolder && !(await hasFolderDocument(path)) && (await hasProtoFile(path))) return { kind: 'folder', path };
    return { kind: 'file', path: await documentInFolder(path, arg), foundIn: arg };
  }
  // Anything else that is not a regular file (a FIFO, a device) is refused by the importer before it reads.
  return { kind: 'file', path };
}

/**
 * SPEC's `parley import <folder>` is for collection folders, a format Parley does not read yet.
 * Until then a folder means the OpenAPI or Swagger document at its top level, by its usual name.
 */
async function documentInFolder(folder: string, shown: string): Promise<string> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError('import-file-unreadable', `The folder ${shown} could not be read (${err.code ?? err.message}).`, { file: shown });
  });
  const byName = new Map<string, string>();
  for (const entry of entries) {
    const lower = entry.name.toLowerCase();
    if (FOLDER_DOCUMENT_NAMES.includes(lower) && (entry.isFile() || entry.isSymbolicLink())) byName.set(lower, entry.name);
  }
  const found = FOLDER_DOCUMENT_NAMES.filter((name) => byName.has(name)).map((name) => byName.get(name)!);
  if (found.length === 0) {
    throw new ParleyError(
      'import-nothing-found',
      `No importable document was found in the folder ${shown}. A folder is imported through its OpenAPI or Swagger document at the top level ` +
        `(${FOLDER_DOCUMENT_NAMES.join(', ')}); collection folders are not supported yet. Pass the document's file instead.`,
      { file: shown },
    );
  }
  // Two of them may be the same document in two syntaxes, or two different APIs: only the user knows.
  if (found.length > 1) throw new ParleyError('import-ambiguous', `The folder ${shown} has ${found.join(' and ')}; pass the one to import as a file.`, { file: shown });
  return join(folder, found[0]!);
}

/** The import source for the bus: a URL with its credentials, a file, a folder of .proto files, or the text read from `stdin`. */
export async function importSourceOf(arg: SourceArg, credentials: FetchCredentials | undefined, stdin: Readable, signal: AbortSignal): Promise<ImportJobSource> {
  if (arg.kind === 'url') return { kind: 'url', url: arg.url, ...(credentials ? { credentials } : {}) };
  if (arg.kind === 'file') return { kind: 'file', path: arg.path };
  if (arg.kind === 'folder') return { kind: 'folder', path: arg.path };
  return { kind: 'paste', text: await readAll(stdin, signal) };
}

async function readAll(stream: Readable, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Standard input is not closed by the signal by itself.
  const stop = () => stream.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > MAX_STDIN_BYTES) throw new ParleyError('import-too-large', `Standard input was refused: an import may read at most ${MAX_STDIN_BYTES / 1024 / 1024} MB in all.`);
      chunks.push(buffer);
    }
  } catch (err) {
    if (signal.aborted) throw new ParleyError('cancelled', 'Cancelled.');
    throw err;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  if (signal.aborted) throw new ParleyError('cancelled', 'Cancelled.');
  return Buffer.concat(chunks).toString('utf8');
}

async function hasFolderDocument(folder: string): Promise<boolean> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  return entries.some((name) => FOLDER_DOCUMENT_NAMES.includes(name.toLowerCase()));
}

/** Whether a .proto file is somewhere below `folder` (hidden folders, node_modules and links not looked into; bounded). */
async function hasProtoFile(folder: string): Promise<boolean> {
  const queue = [folder];
  for (let looked = 0; queue.length > 0 && looked < 1000; looked++) {
    const dir = queue.shift()!;
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (entry.isFile() && /\.proto$/i.test(entry.name)) return true;
      if (entry.isDirectory()) queue.push(join(dir, entry.name));
    }
  }
  return false;
}
