/**
 * A WebSocket request made ready for the sender (docs/websocket.md): its URL, headers,
 * subprotocols and auth expanded with the send's scope, as an HTTP request's are (send/resolve.ts
 * for the auth), and each message it sends expanded the same way when it goes.
 */
import { readFile, stat } from 'node:fs/promises';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { Header, SendSpec } from '../../../../protocol/model/exchange.js';
import type { OutgoingSocketMessage, SocketMessage, WebSocketRequest } from '../../../../protocol/model/websocket.js';
import { resolveInside } from '../../../../protocol/project/safe-path.js';
import { STREAM_LIMITS } from '../../../../protocol/model/stream.js';
import { Expander, redactSecrets, type ExpansionScope } from '../../send/expand.js';
import { applyAuth, unresolvedRefusal, type ResolveContext } from '../../send/resolve.js';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import { effectiveAuth, inheritedHeadersFor } from '../../../../protocol/inheritance.js';

/** The most a message may hold, as the sender takes one (a received one closes the socket past it). */
export const MAX_MESSAGE_BYTES = STREAM_LIMITS.finished.bytes;

/** A subprotocol is an HTTP token (RFC 6455, 4.1). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export async function resolveSocket(request: WebSocketRequest, api: Api, ctx: ResolveContext, inherited: InheritedSettings): Promise<SendSpec> {
  const x = (text: string) => ctx.expander.expand(text);
  const typed = x(request.url.trim());
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed);
  const base = absolute ? '' : x(api.baseUrl.trim());
  // The folders' headers first (outermost first), then the request's own, as for HTTP.
  const headers: Header[] = [
    ...inheritedHeadersFor(request.headers, inherited.headers).map((h): Header => [x(h.name.trim()), x(h.value)]),
    ...request.headers.filter((h) => h.enabled && h.name.trim()).map((h): Header => [x(h.name.trim()), x(h.value)]),
  ];
  const protocols = request.subprotocols.map((p) => x(p).trim()).filter((p) => p !== '');
  const query: [string, string][] = [];
  const { auth, from } = effectiveAuth(request.auth, inherited.auth);
  if (auth.type === 'kerberos') throw new ParleyError('bad-input', 'Not sent: Kerberos is offered for HTTP requests only, not for a WebSocket handshake. Choose another auth on the Auth tab.');
  const authRefusal = await applyAuth(auth, headers, query, x, ctx, from ? `${from.kind}:${from.id}` : `request:${request.id}`, from);

  const unresolved = [...ctx.expander.unresolved];
  if (unresolved.length > 0) throw unresolvedRefusal(unresolved, ctx);
  if (authRefusal) throw authRefusal;

  const joined = absolute ? typed : `${base.replace(/\/+$/, '')}/${typed.replace(/^\/+/, '')}`;
  if (!absolute && !base) throw new ParleyError('bad-url', `Not sent: "${typed}" is a path and the API ${api.name} has no base URL. Use a full ws:// or wss:// URL.`);
  let url: URL;
  try {
    url = new URL(joined);
  } catch {
    throw new ParleyError('bad-url', redactSecrets(`Not sent: "${joined}" is not a valid URL.`, ctx.expander.secretValues));
  }
  // An API's http(s) base URL serves its WebSocket paths too: ws: for http:, wss: for https:.
  if (url.protocol === 'http:' || url.protocol === 'https:') url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new ParleyError('bad-url', `Not sent: ${url.protocol} URLs are not WebSocket ones: use ws:// or wss://.`);
  url.hash = '';
  for (const [name, value] of query) url.searchParams.append(name, value);
  for (const [name, value] of headers) {
    if (!TOKEN.test(name)) throw new ParleyError('bad-header', `Not sent: "${name}" is not a valid header name.`);
    if (/[\r\n\0]/.test(value)) throw new ParleyError('bad-header', `Not sent: the value of header ${name} contains a line break or NUL.`);
  }
  for (const protocol of protocols) if (!TOKEN.test(protocol)) throw new ParleyError('bad-input', `Not sent: the subprotocol ${quote(protocol)} is not a token (letters, digits and !#$%&'*+-.^_\`|~ only).`);
  if (new Set(protocols).size !== protocols.length) throw new ParleyError('bad-input', 'Not sent: a subprotocol is asked for twice.');
  return {
    method: 'GET',
    url: url.toString(),
    headers,
    body: { type: 'none' },
    timeoutMs: request.settings.timeoutMs,
    httpVersion: '1.1',
    followRedirects: false,
    maxRedirects: 0,
    proxy: ctx.proxy,
    caPem: ctx.caPem,
    inlineLimit: ctx.inlineLimit,
    socket: { protocols },
  };
}

/**
 * A message as the sender puts it on the socket: text and JSON with `${...}` expanded from the
 * scope of the session's connect (JSON checked after), a binary message's file read from the project.
 */
export async function socketMessage(message: SocketMessage, scope: ExpansionScope, ctx: Pick<ResolveContext, 'projectRoot' | 'secretNames' | 'secretSource'>, secretValues: Map<string, string>): Promise<OutgoingSocketMessage> {
  const projectRoot = ctx.projectRoot;
  if (message.format === 'binary') {
    if (message.file.trim() === '') throw new ParleyError('bad-input', 'Not sent: the binary message has no file chosen.');
    const path = resolveInside(projectRoot, message.file.trim(), 'message file');
    const size = await stat(path).then(
      (s) => s.size,
      (err: NodeJS.ErrnoException) => {
        throw new ParleyError('not-found', `Not sent: the message file ${quote(message.file)} could not be read (${err.code ?? err.message}).`);
      },
    );
    if (size > MAX_MESSAGE_BYTES) throw new ParleyError('bad-input', `Not sent: the message file ${quote(message.file)} is over 32 MiB, the most one message may hold.`);
    return { binary: new Uint8Array(await readFile(path)) };
  }
  const expander = new Expander(scope);
  const text = expander.expand(message.text);
  if (expander.unresolved.size > 0) throw unresolvedRefusal([...expander.unresolved], ctx);
  // A secret the message named is masked in the session's records like the connect's own.
  for (const [name, value] of expander.secretValues) secretValues.set(name, value);
  if (message.format === 'json') {
    try {
      JSON.parse(text);
    } catch (err) {
      throw new ParleyError('bad-input', `Not sent: the message is not JSON (${(err as Error).message.slice(0, 200)}).`);
    }
  }
  if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) throw new ParleyError('bad-input', 'Not sent: the message is over 32 MiB, the most one message may hold.');
  return { text };
}
