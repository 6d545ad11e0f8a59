/**
 * gRPC channels in the sender: one @grpc/grpc-js client per target and TLS setting, kept open
 * between calls (a channel's connection is what makes the next call cheap, as undici's pool is
 * for HTTP), the least lately used closed past a few.
 */
import { createHash } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import grpc from '@grpc/grpc-js';
import { STREAM_LIMITS } from '../../../../protocol/model/stream.js';

/** The largest message either way (SPEC Limits: what a finished stream keeps in all, 32 MB). */
export const MAX_GRPC_MESSAGE_BYTES = STREAM_LIMITS.finished.bytes;
const KEPT = 16;

export interface ChannelTarget {
  address: string;
  tls: boolean;
  /** Extra trusted CAs, PEM ('' for none). */
  caPem: string;
  certPem: string;
  keyPem: string;
  /** Accept a certificate that does not verify (`insecure`), its name unchecked too. */
  insecure: boolean;
}

const clients = new Map<string, grpc.Client>();

export function clientFor(target: ChannelTarget): grpc.Client {
  const key = createHash('sha256').update(JSON.stringify([target.address, target.tls, target.caPem, target.certPem, target.keyPem, target.insecure])).digest('hex');
  const kept = clients.get(key);
  if (kept) {
    clients.delete(key);
    clients.set(key, kept);
    return kept;
  }
  const client = new grpc.Client(target.address, credentialsOf(target), {
    'grpc.max_receive_message_length': MAX_GRPC_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_GRPC_MESSAGE_BYTES,
    // Parley's own calls are what the user asked for: no retries the user did not ask for.
    'grpc.enable_retries': 0,
  });
  clients.set(key, client);
  while (clients.size > KEPT) {
    const oldest = clients.keys().next().value!;
    clients.get(oldest)!.close();
    clients.delete(oldest);
  }
  return client;
}

function credentialsOf(target: ChannelTarget): grpc.ChannelCredentials {
  if (!target.tls) return grpc.credentials.createInsecure();
  const roots = target.caPem === '' ? null : Buffer.from([...rootCertificates, target.caPem].join('\n'));
  const verify: grpc.VerifyOptions = target.insecure ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {};
  return grpc.credentials.createSsl(roots, target.keyPem === '' ? null : Buffer.from(target.keyPem), target.certPem === '' ? null : Buffer.from(target.certPem), verify);
}

/** Closes every channel (the sender's shutdown). */
export function closeChannels(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}
