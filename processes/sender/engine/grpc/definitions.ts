/**
 * gRPC definitions in the sender, parsed once: kept by the SHA-256 of their descriptor text, the
 * name the supervisor's spec carries. A call whose definition is not here asks for the text
 * (`grpc.descriptor`, answered by the supervisor) and checks it hashes to the name it came by;
 * a run of 10,000 calls parses a multi-MB definition once and sends it over the bus once.
 */
import { createHash } from 'node:crypto';
import type protobuf from 'protobufjs';
import { ParleyError } from '../../../../protocol/errors.js';
import { loadGrpcRoot } from '../../../../protocol/grpc/definition.js';

/** Definitions kept: the few APIs called lately (each may be tens of MB parsed). */
const KEPT = 4;

const roots = new Map<string, protobuf.Root>();
const loading = new Map<string, Promise<protobuf.Root>>();

/** Where the descriptor text of a hash comes from (the supervisor, over the bus). */
export type DescriptorSource = (hash: string) => Promise<string>;

export function descriptorHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function rootFor(hash: string, source: DescriptorSource | undefined): Promise<protobuf.Root> {
  const kept = roots.get(hash);
  if (kept) {
    // The newest used goes last: the oldest is the one let go.
    roots.delete(hash);
    roots.set(hash, kept);
    return kept;
  }
  let pending = loading.get(hash);
  if (!pending) {
    if (!source) throw new ParleyError('internal', 'A gRPC call came without a way to read its definition.');
    pending = source(hash).then((text) => {
      if (descriptorHash(text) !== hash) throw new ParleyError('grpc-definition-changed', 'The gRPC definition changed while the call was made: send it again.');
      const root = loadGrpcRoot(text);
      roots.set(hash, root);
      while (roots.size > KEPT) roots.delete(roots.keys().next().value!);
      return root;
    });
    loading.set(hash, pending);
    void pending.finally(() => loading.delete(hash)).catch(() => undefined);
  }
  return pending;
}
