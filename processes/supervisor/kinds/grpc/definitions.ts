/**
 * A gRPC API's definition in the supervisor (docs/grpc.md): its descriptor file read and parsed
 * once per content (kept by path, size and mtime; parsed off no other loop: the file is the
 * importer's output, bounded by MAX_GRPC_DESCRIPTOR_BYTES), named by the SHA-256 of its text.
 * The texts of the definitions lately used are kept by that hash for the sender, which asks for
 * one (`grpc.descriptor`) only when it has not parsed it yet.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type protobuf from 'protobufjs';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { GRPC_DEFINITION_FORMAT, GRPC_DESCRIPTOR_FILE, MAX_GRPC_DESCRIPTOR_BYTES, loadGrpcRoot } from '../../../../protocol/grpc/definition.js';
import type { Api } from '../../../../protocol/model/api.js';
import { resolveInside } from '../../../../protocol/project/safe-path.js';

export interface LoadedDefinition {
  hash: string;
  text: string;
  root: protobuf.Root;
}

/** Definitions kept parsed, and texts kept for the sender: the few APIs called lately. */
const KEPT = 4;
const byFile = new Map<string, { size: number; mtimeMs: number; loaded: LoadedDefinition }>();
const texts = new Map<string, string>();

function keep<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > KEPT) map.delete(map.keys().next().value!);
}

export function isGrpcApi(api: Pick<Api, 'definition'>): boolean {
  return api.definition?.format === GRPC_DEFINITION_FORMAT;
}

/** The API's definition, parsed; an API without one, or a file that cannot be read, is refused naming why. */
export async function loadApiDefinition(api: Api, apiDir: string): Promise<LoadedDefinition> {
  if (!isGrpcApi(api)) throw new ParleyError('grpc-no-definition', `The API ${quote(api.name)} has no gRPC definition: import its .proto files or reflect its server first.`);
  const relative = api.definition!.cached[0] ?? GRPC_DESCRIPTOR_FILE;
  const path = resolveInside(apiDir, relative, 'gRPC definition file');
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new ParleyError('grpc-no-definition', `The gRPC definition of ${quote(api.name)} (${relative}) could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): import it again.`);
  }
  if (info.size > MAX_GRPC_DESCRIPTOR_BYTES) throw new ParleyError('grpc-definition-invalid', `The gRPC definition ${relative} is over ${MAX_GRPC_DESCRIPTOR_BYTES / 1024 / 1024} MB.`);
  const kept = byFile.get(path);
  if (kept && kept.size === info.size && kept.mtimeMs === info.mtimeMs) {
    keep(byFile, path, kept);
    keep(texts, kept.loaded.hash, kept.loaded.text);
    return kept.loaded;
  }
  const text = await readFile(path, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex');
  const loaded = { hash, text, root: loadGrpcRoot(text, relative) };
  keep(byFile, path, { size: info.size, mtimeMs: info.mtimeMs, loaded });
  keep(texts, hash, text);
  return loaded;
}

/** The descriptor text the sender asks for by its hash. */
export function descriptorByHash(hash: string): string {
  const text = texts.get(hash);
  if (text === undefined) throw new ParleyError('not-found', 'The gRPC definition asked for is no longer loaded: send the call again.');
  return text;
}
