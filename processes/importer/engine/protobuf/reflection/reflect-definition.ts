/**
 * A gRPC API's definition from a running server: its reflection's file descriptors as one
 * protobufjs Root (Root.fromDescriptor over a FileDescriptorSet), with the well-known types the
 * server did not send built in.
 */
import protobuf from 'protobufjs';
import type descriptor from 'protobufjs/ext/descriptor/index.js';
import { ParleyError, quote } from '../../../../../protocol/errors.js';
import type { GrpcServerSource } from '../../../../../protocol/model/import.js';
import type { ImportContext } from '../../importer.js';
import { builtInProto } from '../built-in.js';
import type { GrpcDefinitionRead } from '../convert.js';
import { reflect } from './reflection-client.js';

export async function reflectDefinition(server: GrpcServerSource, ctx: Pick<ImportContext, 'onProgress' | 'signal' | 'network'>): Promise<GrpcDefinitionRead> {
  const address = server.address.trim();
  if (!/^[^\s/]+:\d{1,5}$/.test(address)) throw new ParleyError('bad-input', `${quote(address)} is not an address as host:port (for example localhost:50051).`);
  ctx.onProgress?.({ phase: 'read', message: `Asking ${address} for its services` });
  const reflected = await reflect({
    address,
    version: server.reflection,
    tls: server.tls,
    insecure: server.insecure,
    ...(ctx.network?.caPem ? { caPem: ctx.network.caPem } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  ctx.onProgress?.({ phase: 'resolve', message: `Read ${reflected.files.length} file descriptor${reflected.files.length === 1 ? '' : 's'} by reflection ${reflected.version}`, done: reflected.files.length });
  let root: protobuf.Root;
  try {
    const fromDescriptor = (protobuf.Root as unknown as { fromDescriptor(set: descriptor.IFileDescriptorSet): protobuf.Root }).fromDescriptor;
    root = fromDescriptor({ file: reflected.files });
    for (const name of reflected.missing) {
      const builtIn = builtInProto(name);
      if (builtIn) root.addJSON(builtIn.nested ?? {});
    }
    root.resolveAll();
  } catch (err) {
    const left = reflected.missing.filter((n) => !builtInProto(n));
    throw new ParleyError(
      'import-malformed',
      `The descriptors the server at ${address} sent do not fit together: ${quote((err as Error).message, 300)}${left.length > 0 ? ` (it could not give ${left.join(', ')})` : ''}.`,
    );
  }
  return {
    root,
    files: [],
    skipped: [],
    source: { kind: 'grpc-reflection', location: address, reflection: { version: reflected.version, tls: server.tls, insecure: server.insecure } },
    from: `reflection ${reflected.version} at ${address}`,
    foundAt: { address, tls: server.tls },
    declaredVersion: `reflection-${reflected.version}`,
  };
}
