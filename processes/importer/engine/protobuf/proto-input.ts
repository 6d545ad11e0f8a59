/**
 * The .proto files of an import, whatever the source: a file (imports from its folder, then the
 * include paths), a folder (every .proto below it, imports from inside it, then the include
 * paths), a URL (imports from beside it on its server) or pasted text (imports from the include
 * paths only). Include paths are folders the user chose; symbolic links to them are resolved
 * once, here, and nothing below them is followed.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import type { DefinitionSource } from '../../../../protocol/model/api.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { baseName } from '../detect-rules.js';
import { DEFAULT_LIMITS, ReadBudget } from '../load/limits.js';
import { localProtoSource, urlProtoSource, type ProtoFile } from './proto-files.js';
import { MAX_PROTO_FILES, readProtos, type ProtoRead } from './read-protos.js';

/** Folders a folder import never looks into. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export interface ProtoInputRead extends ProtoRead {
  /** Where the definition was read from, for the API's record (a definition update reads it again). */
  source?: DefinitionSource;
}

export async function readProtoInput(input: ImportInput, ctx: Pick<ImportContext, 'loader' | 'options' | 'signal' | 'onProgress'>): Promise<ProtoInputRead> {
  const includes = await includeRoots(ctx.options.protoIncludePaths ?? []);
  const budget = new ReadBudget(DEFAULT_LIMITS);
  const onFile = (name: string, count: number) => ctx.onProgress?.({ phase: 'resolve', message: `Reading ${name}`, done: count });
  const options = { onFile, ...(ctx.signal ? { signal: ctx.signal } : {}) };
  const includeRecord = includes.length > 0 ? { includePaths: includes } : {};
  const location = input.location;
  if (location?.kind === 'folder') {
    const folder = await realFolder(location.path, 'The folder');
    const entries = await protoFilesBelow(folder, budget);
    if (entries.length === 0) throw new ParleyError('import-nothing-found', `The folder ${location.path} holds no .proto file.`, { file: location.path });
    const read = await readProtos(entries, localProtoSource([folder, ...includes], budget), options);
    return { ...read, source: { kind: 'folder', location: location.path, ...includeRecord } };
  }
  if (location?.kind === 'file') {
    const entry = { ...entryFile(baseName(location.path), input), path: await realpath(location.path) };
    const read = await readProtos([entry], localProtoSource([await realFolder(dirname(location.path), 'The folder of'), ...includes], budget), options);
    return { ...read, source: { kind: 'file', location: location.path, ...includeRecord } };
  }
  if (location?.kind === 'url') {
    const url = location.finalUrl ?? location.url;
    const entry = entryFile(baseName(url) || 'definition.proto', input);
    const read = await readProtos([entry], urlProtoSource(url, ctx.loader), options);
    return { ...read, source: { kind: 'url', location: location.url } };
  }
  if (location?.kind === 'grpc-server') throw new ParleyError('internal', 'A gRPC server is read by reflection, not as .proto files.');
  // Pasted text has no folder of its own: its imports come from the include paths, if any.
  const read = await readProtos([entryFile('pasted.proto', input)], includes.length > 0 ? localProtoSource(includes, budget) : null, options);
  return read;
}

function entryFile(name: string, input: ImportInput): ProtoFile {
  const safe = /\.proto$/i.test(name) ? name : `${name}.proto`;
  return { name: safe, text: input.text, bytes: input.bytes ?? new TextEncoder().encode(input.text) };
}

/** The real path of a folder the user chose (a link to it is the user's own choice, resolved once). */
async function realFolder(path: string, what: string): Promise<string> {
  const real = await realpath(path).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError('import-file-unreadable', `${what} ${quote(path)} could not be read (${err.code ?? err.message}).`, { file: path });
  });
  const info = await lstat(real);
  if (!info.isDirectory()) throw new ParleyError('import-not-a-file', `${quote(path)} is not a folder.`, { file: path });
  return real;
}

async function includeRoots(paths: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (const path of paths) roots.push(await realFolder(path, 'The include path'));
  return roots;
}

/**
 * Every .proto file below `folder`, by its path inside it ('/'-separated), in name order: no
 * hidden entry, no node_modules or .git, no symbolic link followed, at most MAX_PROTO_FILES.
 */
async function protoFilesBelow(folder: string, budget: ReadBudget): Promise<ProtoFile[]> {
  const names: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(dir, entry.name), rel);
      else if (entry.isFile() && /\.proto$/i.test(entry.name)) {
        names.push(rel);
        if (names.length > MAX_PROTO_FILES) throw new ParleyError('import-too-large', `The folder holds more than ${MAX_PROTO_FILES.toLocaleString('en')} .proto files; import a smaller folder.`, { limit: MAX_PROTO_FILES });
      }
    }
  };
  await walk(folder, '');
  const source = localProtoSource([folder], budget);
  const files: ProtoFile[] = [];
  for (const name of names) {
    const file = await source.read(name);
    if (file) files.push(file);
  }
  return files;
}
