/**
 * .proto files into one protobufjs Root, as protoc reads them: each entry, then every file it
 * imports, looked up by its import name in the source's roots (proto-files.ts); Google's
 * well-known types are built in (built-in.ts). proto2 and proto3; options and extensions are
 * kept as protobufjs reads them, never interpreted; aggregate option values are read as empty
 * (aggregate-options.ts).
 *
 * Choices (docs/grpc-import.md): a file that imports itself, directly or through others, is
 * refused as protoc refuses it ("File recursively imports itself"). A missing import is an error
 * naming the file and who imports it, except a `google/api/...` file (HTTP annotations, field
 * behaviour: options a gRPC call never needs), which is left out with a warning; a type the
 * definition uses from one is then an error naming it.
 */
import protobuf from 'protobufjs';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { blankAggregateOptions } from './aggregate-options.js';
import { builtInProto } from './built-in.js';
import { checkImportName, type ProtoFile, type ProtoSource } from './proto-files.js';

/** Files one import may read (entries and their imports). */
export const MAX_PROTO_FILES = 2_000;

export interface ProtoRead {
  root: protobuf.Root;
  /** Every file read from the source, entries first then imports in the order they were met. */
  files: ProtoFile[];
  /** Imports left out: `google/api/...` files no root has. */
  skipped: { name: string; importedBy: string }[];
}

export interface ReadProtoOptions {
  signal?: AbortSignal;
  /** Says "Reading x.proto" as each file is read. */
  onFile?: (name: string, count: number) => void;
}

/** Annotations for HTTP gateways; a gRPC call never needs them, and most repositories do not vendor them. */
const OPTIONAL_IMPORT = /^google\/api\//;

export async function readProtos(entries: readonly ProtoFile[], source: ProtoSource | null, options: ReadProtoOptions = {}): Promise<ProtoRead> {
  const root = new protobuf.Root();
  const files: ProtoFile[] = [];
  const skipped: ProtoRead['skipped'] = [];
  /** Names parsed (or built in, or left out), so each is read once. */
  const done = new Set<string>();
  const entryNames = new Set(entries.map((e) => e.name));

  const parse = (file: ProtoFile): { imports: string[]; weak: string[] } => {
    // protobufjs names the file in its parse errors through this module-level field.
    (protobuf.parse as unknown as { filename: string | null }).filename = file.name;
    try {
      const parsed = protobuf.parse(blankAggregateOptions(file.text), root, { keepCase: true, alternateCommentMode: true });
      root.files.push(file.name);
      return { imports: parsed.imports ?? [], weak: parsed.weakImports ?? [] };
    } catch (err) {
      throw new ParleyError('import-malformed', `${file.name} cannot be read as a .proto file: ${quote(cleanMessage(err), 300)}`, { file: file.name });
    } finally {
      (protobuf.parse as unknown as { filename: string | null }).filename = null;
    }
  };

  /** Files read from disk by where they are: one under two names (an entry of a folder, imported by a shorter name) is parsed once. */
  const paths = new Set<string>();

  const visit = async (file: ProtoFile, stack: readonly string[]): Promise<void> => {
    if (options.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
    done.add(file.name);
    if (file.path !== undefined) {
      if (paths.has(file.path)) return;
      paths.add(file.path);
    }
    files.push(file);
    if (files.length > MAX_PROTO_FILES) throw new ParleyError('import-too-large', `The import reads more than ${MAX_PROTO_FILES.toLocaleString('en')} .proto files; import a smaller folder.`, { limit: MAX_PROTO_FILES });
    options.onFile?.(file.name, files.length);
    const { imports, weak } = parse(file);
    const chain = [...stack, file.name];
    for (const name of [...imports, ...weak]) {
      if (chain.includes(name)) {
        const cycle = [...chain.slice(chain.indexOf(name)), name].join(' -> ');
        throw new ParleyError('import-malformed', `${name} imports itself (${cycle}); protoc refuses such a cycle, and so does Parley.`, { file: name });
      }
      if (done.has(name)) continue;
      const builtIn = builtInProto(name);
      if (builtIn) {
        done.add(name);
        root.addJSON(builtIn.nested ?? {});
        continue;
      }
      checkImportName(name, file.name);
      const read = source ? await source.read(name) : null;
      if (read) {
        // An entry met as another entry's import is read once, here, where its importer needs it.
        await visit(read, chain);
        continue;
      }
      if (OPTIONAL_IMPORT.test(name) || weak.includes(name)) {
        done.add(name);
        skipped.push({ name, importedBy: file.name });
        continue;
      }
      const where = source ? `not found in ${source.where}` : 'not built in, and pasted text has no folder to read it from: import the .proto file or its folder instead';
      throw new ParleyError('import-file-unreadable', `${name}, imported by ${file.name}, was ${where}.`, { file: name, from: file.name });
    }
  };

  for (const entry of entries) {
    if (!done.has(entry.name)) await visit(entry, []);
  }
  try {
    root.resolveAll();
  } catch (err) {
    const message = cleanMessage(err);
    const missing = /no such type: ([\w.]+)/.exec(message)?.[1];
    const fromSkipped = missing !== undefined && skipped.length > 0 && /^\.?google\.api\./.test(missing);
    throw new ParleyError(
      'import-malformed',
      fromSkipped
        ? `The definition uses ${missing}, from ${skipped.map((s) => s.name).join(', ')}, which ${skipped.length === 1 ? 'is' : 'are'} not in the chosen folders: add the googleapis folder as an include path.`
        : `The .proto files do not fit together: ${quote(message, 300)}`,
      missing ? { type: missing } : undefined,
    );
  }
  // Entries not met by name keep their place first in `files` (read order otherwise).
  files.sort((a, b) => Number(entryNames.has(b.name)) - Number(entryNames.has(a.name)));
  return { root, files, skipped };
}

function cleanMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
