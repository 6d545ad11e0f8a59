/**
 * A client of gRPC server reflection (grpc.reflection.v1 and v1alpha ServerReflectionInfo) over
 * @grpc/grpc-js: lists the server's services, then asks for the file descriptors that define
 * each, and every file they depend on. Automatic tries v1, then v1alpha when the server answers
 * UNIMPLEMENTED. Every stream has a deadline; the descriptor bytes taken are capped, one message
 * by grpc-js before it is buffered, all of them here.
 */
import { rootCertificates } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { ParleyError, quote } from '../../../../../protocol/errors.js';
import { ServerReflectionRequest, ServerReflectionResponse, reflectionMethodPath } from './messages.js';

export type ReflectionVersion = 'v1' | 'v1alpha';

export interface ReflectOptions {
  /** host:port */
  address: string;
  version: ReflectionVersion | 'auto';
  tls: boolean;
  /** Accept a certificate that does not verify ("Ask even if the certificate does not verify"). */
  insecure: boolean;
  /** Extra trusted CAs (PEM), beside the system's. */
  caPem?: string;
  /** Each reflection stream's deadline. */
  deadlineMs?: number;
  /** The most descriptor bytes taken from the server in all. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface Reflected {
  version: ReflectionVersion;
  /** The services the server lists, reflection's own left out. */
  services: string[];
  /** Every file descriptor the services need, dependencies first. */
  files: descriptor.IFileDescriptorProto[];
  /** Files the server named as dependencies but could not give (well-known types are then built in). */
  missing: string[];
}

export const REFLECTION_DEADLINE_MS = 30_000;
export const MAX_REFLECTED_BYTES = 32 * 1024 * 1024;

const SELF = /^grpc\.reflection\./;

export async function reflect(options: ReflectOptions): Promise<Reflected> {
  const client = new grpc.Client(options.address, credentialsOf(options), {
    'grpc.max_receive_message_length': options.maxBytes ?? MAX_REFLECTED_BYTES,
    // One attempt, no retry behind the user's back: the import reports what happened.
    'grpc.enable_retries': 0,
  });
  try {
    if (options.version !== 'auto') return await reflectWith(client, options.version, options);
    try {
      return await reflectWith(client, 'v1', options);
    } catch (err) {
      if (!(err instanceof ParleyError) || err.code !== 'grpc-reflection-unimplemented') throw err;
      return await reflectWith(client, 'v1alpha', options);
    }
  } catch (err) {
    if (err instanceof ParleyError && err.code === 'grpc-reflection-unimplemented') {
      throw new ParleyError(
        'grpc-reflection-unavailable',
        options.version === 'auto'
          ? `The server at ${options.address} does not offer reflection (v1 or v1alpha): import its .proto files instead.`
          : `The server at ${options.address} does not offer reflection ${options.version}: choose Reflection automatic, or import its .proto files instead.`,
        { address: options.address },
      );
    }
    throw err;
  } finally {
    client.close();
  }
}

function credentialsOf(options: ReflectOptions): grpc.ChannelCredentials {
  if (!options.tls) return grpc.credentials.createInsecure();
  const roots = options.caPem?.trim() ? Buffer.from([...rootCertificates, options.caPem].join('\n')) : null;
  return grpc.credentials.createSsl(roots, null, null, options.insecure ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {});
}

/** One reflection stream: list the services, then fetch their files and every dependency. */
async function reflectWith(client: grpc.Client, version: ReflectionVersion, options: ReflectOptions): Promise<Reflected> {
  const deadlineMs = options.deadlineMs ?? REFLECTION_DEADLINE_MS;
  const maxBytes = options.maxBytes ?? MAX_REFLECTED_BYTES;
  const session = new Session(client, version, options.address, deadlineMs, maxBytes, options.signal);
  try {
    const listed = await session.ask({ list_services: '' });
    const services = ((listed.list_services_response as { service?: { name: string }[] } | undefined)?.service ?? []).map((s) => s.name).filter((name) => !SELF.test(name));
    const files = new Map<string, descriptor.IFileDescriptorProto>();
    const missing: string[] = [];
    const take = (answer: Record<string, unknown>) => {
      const protos = (answer.file_descriptor_response as { file_descriptor_proto?: Uint8Array[] } | undefined)?.file_descriptor_proto ?? [];
      for (const bytes of protos) {
        const file = descriptor.FileDescriptorProto.decode(bytes) as unknown as descriptor.IFileDescriptorProto;
        if (file.name && !files.has(file.name)) files.set(file.name, file);
      }
    };
    for (const service of services) take(await session.ask({ file_containing_symbol: service }, service));
    // Dependencies a server did not send with the symbol's file: asked for by name, until none is left.
    for (let pending = needed(files); pending.length > 0; pending = needed(files).filter((n) => !missing.includes(n))) {
      for (const name of pending) {
        const answer = await session.ask({ file_by_filename: name }, name, true);
        if (answer.error_response) missing.push(name);
        else take(answer);
      }
    }
    return { version, services, files: dependenciesFirst([...files.values()]), missing };
  } finally {
    session.close();
  }
}

function needed(files: Map<string, descriptor.IFileDescriptorProto>): string[] {
  const out = new Set<string>();
  for (const file of files.values()) for (const dep of file.dependency ?? []) if (!files.has(dep)) out.add(dep);
  return [...out];
}

/** protobufjs reads a descriptor set in order: a file's dependencies before it. */
function dependenciesFirst(files: descriptor.IFileDescriptorProto[]): descriptor.IFileDescriptorProto[] {
  const byName = new Map(files.map((f) => [f.name ?? '', f]));
  const out: descriptor.IFileDescriptorProto[] = [];
  const seen = new Set<string>();
  const visit = (file: descriptor.IFileDescriptorProto) => {
    const name = file.name ?? '';
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of file.dependency ?? []) {
      const d = byName.get(dep);
      if (d) visit(d);
    }
    out.push(file);
  };
  files.forEach(visit);
  return out;
}

/** One ServerReflectionInfo stream: a request, then its one response, in turn. */
class Session {
  private readonly call: grpc.ClientDuplexStream<Record<string, unknown>, Record<string, unknown>>;
  private readonly answers: Record<string, unknown>[] = [];
  private waiting: { resolve: (a: Record<string, unknown>) => void; reject: (e: unknown) => void } | null = null;
  private failure: ParleyError | null = null;
  private bytes = 0;
  private readonly onAbort = () => this.call.cancel();

  constructor(
    client: grpc.Client,
    private readonly version: ReflectionVersion,
    private readonly address: string,
    private readonly deadlineMs: number,
    private readonly maxBytes: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.call = client.makeBidiStreamRequest(
      reflectionMethodPath(version),
      (message: Record<string, unknown>) => Buffer.from(ServerReflectionRequest.encode(ServerReflectionRequest.fromObject(message)).finish()),
      (bytes: Buffer) => {
        this.bytes += bytes.length;
        if (this.bytes > this.maxBytes) throw new ParleyError('grpc-reflection-too-large', this.tooLarge());
        return ServerReflectionResponse.toObject(ServerReflectionResponse.decode(bytes), { defaults: false, bytes: Array }) as Record<string, unknown>;
      },
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
    );
    this.call.on('data', (answer: Record<string, unknown>) => {
      if (this.waiting) {
        const { resolve } = this.waiting;
        this.waiting = null;
        resolve(answer);
      } else this.answers.push(answer);
    });
    this.call.on('error', (err: grpc.ServiceError) => this.fail(this.errorOf(err)));
    this.call.on('end', () => this.fail(new ParleyError('grpc-reflection-failed', `The server at ${this.address} ended the reflection stream before it answered.`)));
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Sends one request and waits for its answer; an error answer is thrown unless `soft`. */
  async ask(request: Record<string, unknown>, subject?: string, soft = false): Promise<Record<string, unknown>> {
    if (this.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
    if (this.failure) throw this.failure;
    this.call.write(request);
    const answer = this.answers.shift() ?? (await new Promise<Record<string, unknown>>((resolve, reject) => (this.waiting = { resolve, reject })));
    const error = answer.error_response as { error_code?: number; error_message?: string } | undefined;
    if (error && !soft) {
      throw new ParleyError('grpc-reflection-failed', `The server at ${this.address} could not describe ${quote(subject ?? 'its services')}: ${quote(error.error_message || grpc.status[error.error_code ?? 2] || 'unknown error', 300)}.`);
    }
    return answer;
  }

  close(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.call.removeAllListeners('end');
    this.call.on('error', () => {});
    this.call.end();
    this.call.cancel();
  }

  private fail(err: ParleyError): void {
    this.failure ??= err;
    if (this.waiting) {
      const { reject } = this.waiting;
      this.waiting = null;
      reject(this.failure);
    }
  }

  private tooLarge(): string {
    return `The server at ${this.address} sent more than ${this.maxBytes / 1024 / 1024} MB of descriptors, the most an import takes; import its .proto files instead.`;
  }

  private errorOf(err: grpc.ServiceError): ParleyError {
    if (this.signal?.aborted) return new ParleyError('cancelled', 'The import was cancelled.');
    const details = err.details || err.message;
    switch (err.code) {
      case grpc.status.UNIMPLEMENTED:
        return new ParleyError('grpc-reflection-unimplemented', `The server at ${this.address} does not offer reflection ${this.version}.`);
      case grpc.status.DEADLINE_EXCEEDED:
        return new ParleyError('grpc-reflection-deadline', `The server at ${this.address} did not answer reflection within ${this.deadlineMs / 1000} s.`, { deadlineMs: this.deadlineMs });
      case grpc.status.RESOURCE_EXHAUSTED:
        return new ParleyError('grpc-reflection-too-large', /message larger than max|exceeds/i.test(details) ? this.tooLarge() : `The server at ${this.address} refused reflection: ${quote(details, 300)}.`);
      case grpc.status.UNAVAILABLE: {
        const certificate = /certificate|self.signed|ssl|tls|handshake/i.test(details);
        return new ParleyError(
          'grpc-unreachable',
          certificate
            ? `The server at ${this.address} could not be reached over TLS: ${quote(details, 300)}. If you trust it, choose "Ask even if the certificate does not verify".`
            : `The server at ${this.address} could not be reached: ${quote(details, 300)}.`,
          { address: this.address },
        );
      }
      default:
        if (err.code === grpc.status.INTERNAL && (/too large|exceed/i.test(details) || this.bytes > this.maxBytes)) return new ParleyError('grpc-reflection-too-large', this.tooLarge());
        return new ParleyError('grpc-reflection-failed', `Reflection at ${this.address} failed: ${grpc.status[err.code] ?? err.code} ${quote(details, 300)}.`, { status: err.code });
    }
  }
}
