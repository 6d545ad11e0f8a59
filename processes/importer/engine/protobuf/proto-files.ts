/**
 * Where the files a .proto imports are read from. protoc resolves `import "a/b.proto"` against
 * its import roots (-I), in order, and so does Parley: the entry file's folder (or the imported
 * folder) first, then the include paths the user chose. A name never leaves its root: no `..`,
 * no absolute path, no hidden folder, and no symbolic link is followed (the files read are cached
 * into the project, which is shared). A .proto read by URL imports from beside it on its server.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { DEFAULT_LIMITS, ReadBudget } from '../load/limits.js';
import type { DocumentLoader } from '../load/loader.js';
import { decodeText } from '../load/decode-text.js';
import { readRegularFile } from '../load/read-file.js';

/** A .proto file as read: `name` is its import name (relative to its root, '/'-separated). */
export interface ProtoFile {
  name: string;
  text: string;
  bytes: Uint8Array;
  /** Where it was read on disk, when it was: one file met under two names is read once. */
  path?: string;
}

export interface ProtoSource {
  /** The file an import names, or null when no root has it. */
  read(name: string): Promise<ProtoFile | null>;
  /** Where names are looked for, as messages say it ("the folder a/ and the include path b/"). */
  readonly where: string;
}

/** Refuses an import name that could leave its root, or name anything but a .proto file. */
export function checkImportName(name: string, importedBy: string): void {
  const refuse = (why: string) => new ParleyError('import-ref-refused', `${quote(name)}, imported by ${importedBy}, was not read: ${why}.`, { file: name, from: importedBy });
  if (name.includes('\0') || name.includes('\\')) throw refuse('an import name holds neither NUL nor backslashes');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw refuse('an import name is relative to an import root, never absolute');
  const segments = name.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) throw refuse('an import name may not climb out of its import root');
  if (segments.some((s) => s.startsWith('.'))) throw refuse('hidden files and folders are never read');
  if (!/\.proto$/i.test(name)) throw refuse('only .proto files are imported');
}

/**
 * Local import roots, each a real folder path (symbolic links resolved by the caller when the
 * user chose it). `budget` counts every byte read with the entry's.
 */
export function localProtoSource(roots: readonly string[], budget: ReadBudget = new ReadBudget(DEFAULT_LIMITS)): ProtoSource {
  return {
    where: roots.length === 1 ? `the folder ${roots[0]}` : `the folders ${roots.join(', ')}`,
    async read(name) {
      for (const root of roots) {
        const path = await regularFileIn(root, name);
        if (path === null) continue;
        const bytes = await readRegularFile(path, budget, name);
        return { name, text: decodeText(bytes), bytes, path };
      }
      return null;
    },
  };
}

/**
 * The path of `name` under `root` when every folder on the way is a real folder and the file a
 * regular file, none of them a symbolic link; null when it is not there. A link on the way is
 * refused, not skipped: the user should hear why a file they can see was not read.
 */
async function regularFileIn(root: string, name: string): Promise<string | null> {
  const segments = name.split('/');
  let at = root;
  for (const [i, segment] of segments.entries()) {
    at = join(at, segment);
    const info = await lstat(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
      throw new ParleyError('import-file-unreadable', `${quote(name)} could not be read in ${root} (${err.code ?? err.message}).`, { file: name });
    });
    if (info === null) return null;
    if (info.isSymbolicLink()) {
      throw new ParleyError('import-ref-refused', `${quote(name)} was not read: ${segments.slice(0, i + 1).join('/')} in ${root} is a symbolic link, and links are not followed.`, { file: name });
    }
    const last = i === segments.length - 1;
    if (last ? !info.isFile() : !info.isDirectory()) return null;
  }
  return at;
}

/** A .proto read by URL: its imports from the same server, at or below the entry's folder. */
export function urlProtoSource(entryUrl: string, loader: DocumentLoader): ProtoSource {
  const base = new URL('.', entryUrl);
  return {
    where: `beside ${loader.redactor.url(entryUrl)}`,
    async read(name) {
      const target = new URL(name, base);
      if (!target.href.startsWith(base.href)) return null;
      const got = await loader.load(target, 'ref', entryUrl);
      return { name, text: decodeText(got.bytes), bytes: got.bytes };
    },
  };
}
