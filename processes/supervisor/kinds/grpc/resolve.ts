/**
 * A gRPC request made ready for the sender (docs/grpc.md): its target, metadata, messages and
 * auth expanded with the send's scope as an HTTP request's are (send/resolve.ts for the auth:
 * Bearer, Basic, OAuth 2 and an API key in a header become metadata), its method found in the
 * API's definition, each message checked against the method's input type (the error names the
 * field), its TLS files read from inside the project.
 */
import { readFile } from 'node:fs/promises';
import type protobuf from 'protobufjs';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { callKindOf, grpcMethods, grpcTarget, type GrpcCallKind, type GrpcMethodInfo } from '../../../../protocol/grpc/definition.js';
import { objectFromJson } from '../../../../protocol/grpc/json-mapping.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { Header, SendSpec } from '../../../../protocol/model/exchange.js';
import type { GrpcRequest } from '../../../../protocol/model/grpc.js';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import { resolveInside } from '../../../../protocol/project/safe-path.js';
import { effectiveAuth, inheritedHeadersFor } from '../../../../protocol/inheritance.js';
import { STREAM_LIMITS } from '../../../../protocol/model/stream.js';
import { Expander, redactSecrets, type ExpansionScope } from '../../send/expand.js';
import { applyAuth, unresolvedRefusal, type ResolveContext } from '../../send/resolve.js';
import type { LoadedDefinition } from './definitions.js';

/** The most one message may hold, as the sender's channels take one. */
export const MAX_GRPC_MESSAGE_BYTES = STREAM_LIMITS.finished.bytes;
/** Metadata keys gRPC allows (lower case; grpc-js lower-cases what it is given). */
const METADATA_KEY = /^[0-9a-zA-Z_.-]+$/;
/** The largest PEM file read for TLS. */
const MAX_PEM_BYTES = 1024 * 1024;

export interface ResolvedCall {
  spec: SendSpec;
  kind: GrpcCallKind;
  method: GrpcMethodInfo;
  input: protobuf.Type;
}

/** The method a request names in the definition, or why not. */
export function methodIn(definition: LoadedDefinition, request: Pick<GrpcRequest, 'service' | 'method'>): { method: GrpcMethodInfo; input: protobuf.Type } {
  if (request.service === '' || request.method === '') throw new ParleyError('bad-input', 'Not sent: choose a method first.');
  const found = methodsOf(definition.root).get(`${request.service}/${request.method}`);
  if (!found) throw new ParleyError('not-found', `Not sent: the API's definition has no method ${quote(`${request.service}/${request.method}`)}. Choose another, or update the definition.`);
  return found;
}

/** A definition's methods by `service/method`, made once per parsed definition (a run calls one method thousands of times). */
const methodIndex = new WeakMap<protobuf.Root, Map<string, { method: GrpcMethodInfo; input: protobuf.Type }>>();
function methodsOf(root: protobuf.Root): Map<string, { method: GrpcMethodInfo; input: protobuf.Type }> {
  let index = methodIndex.get(root);
  if (!index) {
    index = new Map(grpcMethods(root).map((method) => [`${method.service}/${method.method}`, { method, input: root.lookupType(`.${method.requestType}`) }]));
    methodIndex.set(root, index);
  }
  return index;
}

/** `text` checked as a message of `input`: a refusal names the message and the field. */
export function checkMessage(input: protobuf.Type, text: string, which: string): void {
  if (Buffer.byteLength(text) > MAX_GRPC_MESSAGE_BYTES) throw new ParleyError('bad-input', `Not sent: ${which} is over 32 MiB, the most one message may hold.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ParleyError('grpc-message-invalid', `Not sent: ${which} is not JSON (${(err as Error).message.slice(0, 200)}).`);
  }
  try {
    objectFromJson(input, value);
  } catch (err) {
    const e = err as ParleyError;
    throw new ParleyError(e.code ?? 'grpc-message-invalid', `Not sent: ${which} is not a ${input.fullName.slice(1)}: ${e.message}`, e.data);
  }
}

export async function resolveGrpc(
  request: GrpcRequest,
  api: Api,
  ctx: ResolveContext,
  inherited: InheritedSettings,
  definition: LoadedDefinition,
  options: { open: boolean; insecure?: boolean; deadlineMs?: number },
): Promise<ResolvedCall> {
  const x = (text: string) => ctx.expander.expand(text);
  const { method, input } = methodIn(definition, request);
  const kind = callKindOf(method);
  const typed = x(request.url.trim() === '' ? api.baseUrl.trim() : request.url.trim());
  const metadata: Header[] = [
    ...inheritedHeadersFor(request.metadata, inherited.headers).map((h): Header => [x(h.name.trim()), x(h.value)]),
    ...request.metadata.filter((h) => h.enabled && h.name.trim()).map((h): Header => [x(h.name.trim()), x(h.value)]),
  ];
  const texts = kind === 'client-stream' || kind === 'bidi' ? [request.message, ...request.messages.map((m) => m.text)] : [request.message];
  const messages = texts.map((text) => x(text));
  const query: [string, string][] = [];
  const { auth, from } = effectiveAuth(request.auth, inherited.auth);
  if (auth.type === 'kerberos') throw new ParleyError('bad-input', 'Not sent: Kerberos is offered for HTTP requests only, not for a gRPC call. Choose another auth on the Auth tab.');
  if (auth.type === 'apikey' && auth.in !== 'header') throw new ParleyError('bad-input', 'Not sent: a gRPC call has no query string: send the API key as metadata (a header).');
  const authRefusal = await applyAuth(auth, metadata, query, x, ctx, from ? `${from.kind}:${from.id}` : `request:${request.id}`, from);

  const unresolved = [...ctx.expander.unresolved];
  if (unresolved.length > 0) throw unresolvedRefusal(unresolved, ctx);
  if (authRefusal) throw authRefusal;

  if (typed === '') throw new ParleyError('bad-url', `Not sent: the API ${api.name} has no target yet. Set its base URL (grpc://host:port or grpcs://host:port), or the request's.`);
  const target = grpcTarget(typed);
  if (!target) throw new ParleyError('bad-url', redactSecrets(`Not sent: ${quote(typed)} is not a gRPC target: use grpc://host:port (plaintext) or grpcs://host:port (TLS).`, ctx.expander.secretValues));
  for (const [name, value] of metadata) {
    if (!METADATA_KEY.test(name)) throw new ParleyError('bad-header', `Not sent: ${quote(name)} is not a valid metadata key (letters, digits, -, _ and . only).`);
    if (/^grpc-/i.test(name)) throw new ParleyError('bad-header', `Not sent: the metadata key ${quote(name)} is reserved by gRPC (keys starting grpc-).`);
    if (/[\r\n\0]/.test(value)) throw new ParleyError('bad-header', `Not sent: the value of metadata ${name} contains a line break or NUL.`);
  }
  messages.forEach((text, i) => checkMessage(input, text, messages.length > 1 ? `message ${i + 1}` : 'the message'));

  const tls = request.tls;
  const files = [tls.caFile, tls.certFile, tls.keyFile].some((f) => f.trim() !== '');
  if (files && !target.tls) throw new ParleyError('bad-input', `Not sent: TLS files are set but ${quote(typed)} is plaintext: use grpcs://.`);
  if ((tls.certFile.trim() === '') !== (tls.keyFile.trim() === '')) throw new ParleyError('bad-input', 'Not sent: a client certificate needs both its certificate file and its key file.');
  const caFile = tls.caFile.trim() === '' ? '' : await pemFile(ctx.projectRoot, tls.caFile.trim(), 'CA certificate file');
  return {
    kind,
    method,
    input,
    spec: {
      method: 'POST',
      url: `${target.tls ? 'grpcs' : 'grpc'}://${target.address}/${method.service}/${method.method}`,
      headers: metadata,
      body: { type: 'bytes', data: new TextEncoder().encode(messages[0] ?? '') },
      timeoutMs: 0,
      httpVersion: '2',
      followRedirects: false,
      maxRedirects: 0,
      proxy: '',
      caPem: [ctx.caPem, caFile].filter((p) => p !== '').join('\n'),
      inlineLimit: ctx.inlineLimit,
      ...(tls.insecure || options.insecure ? { insecure: true } : {}),
      grpc: {
        address: target.address,
        tls: target.tls,
        service: method.service,
        method: method.method,
        descriptor: definition.hash,
        messages,
        open: options.open && (kind === 'client-stream' || kind === 'bidi'),
        deadlineMs: request.deadlineMs > 0 ? request.deadlineMs : (options.deadlineMs ?? 0),
        certPem: tls.certFile.trim() === '' ? '' : await pemFile(ctx.projectRoot, tls.certFile.trim(), 'client certificate file'),
        keyPem: tls.keyFile.trim() === '' ? '' : await pemFile(ctx.projectRoot, tls.keyFile.trim(), 'client key file'),
      },
    },
  };
}

/** A PEM file inside the project, read for TLS; outside it, missing or too big: refused naming it. */
async function pemFile(projectRoot: string, relative: string, what: string): Promise<string> {
  const path = resolveInside(projectRoot, relative, what);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ParleyError('not-found', `Not sent: the ${what} ${quote(relative)} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  if (text.length > MAX_PEM_BYTES) throw new ParleyError('bad-input', `Not sent: the ${what} ${quote(relative)} is over 1 MB: it is not a PEM file.`);
  if (!text.includes('-----BEGIN ')) throw new ParleyError('bad-input', `Not sent: the ${what} ${quote(relative)} is not PEM (no -----BEGIN line).`);
  return text;
}

/** A message from the composer as the sender puts it on the stream: `${...}` expanded with the call's scope, checked against the input type. */
export function composedMessage(text: string, input: protobuf.Type, scope: ExpansionScope, ctx: Pick<ResolveContext, 'secretNames' | 'secretSource'>, secretValues: Map<string, string>): { text: string } {
  const expander = new Expander(scope);
  const expanded = expander.expand(text);
  if (expander.unresolved.size > 0) throw unresolvedRefusal([...expander.unresolved], ctx);
  for (const [name, value] of expander.secretValues) secretValues.set(name, value);
  checkMessage(input, expanded, 'the message');
  return { text: expanded };
}
