/**
 * A send from start to finish, in the supervisor: expand and resolve the request, hand it to
 * the sender process, check the response against the contract, record it in History.
 * Secrets are fetched from the keychain only here, and masked in everything recorded.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ParleyError } from '../../../protocol/errors.js';
import type { Exchange, HistoryEntry, SentRequest } from '../../../protocol/model/history.js';
import type { Request } from '../../../protocol/model/request.js';
import type { SendResult, SendSpec } from '../../../protocol/model/exchange.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { Supervisor } from '../supervisor.js';
import { Expander, redactSecrets, secretNamesIn } from './expand.js';
import { resolveRequest } from './resolve.js';
import { literalSecrets } from './secure-auth.js';

const INLINE_LIMIT = 10 * 1024 * 1024;
const PREVIEW_LIMIT = 256 * 1024;

export interface SendDeps {
  /** OAuth 2 tokens, cached per request or API. */
  oauthToken: (auth: Parameters<Parameters<typeof resolveRequest>[2]['oauthToken']>[0], cacheKey: string) => Promise<string>;
  /** The contract verdict of a response, or undefined when no chip applies. */
  verdict: (projectRoot: string, request: Request, result: SendResult, signal?: AbortSignal) => Promise<Verdict | undefined>;
}

export async function sendRequest(sup: Supervisor, deps: SendDeps, projectRoot: string, request: Request, signal?: AbortSignal): Promise<Exchange> {
  const store = sup.project(projectRoot);
  const api = store.apiOf(request.id);
  const ws = sup.workspace.get();
  const environment = ws.environments.find((e) => e.id === ws.activeEnvironment)?.variables ?? [];
  const scopeRows = { environment, project: store.properties, globals: ws.globals };

  const texts = [JSON.stringify(request), JSON.stringify(api.auth), api.baseUrl];
  const secrets = new Map<string, string>();
  for (const name of secretNamesIn(texts, scopeRows)) {
    const value = await sup.secrets.get(name).catch((err: ParleyError) => {
      throw new ParleyError(err.code, `Not sent: ${err.message}`);
    });
    if (value !== null) secrets.set(name, value);
  }
  const expander = new Expander({ ...scopeRows, secrets });
  // A secret typed into an unsaved draft is masked like a stored one in everything recorded.
  const auth = request.auth.type === 'inherit' ? api.auth : request.auth;
  for (const [field, value] of literalSecrets(auth)) expander.secretValues.set(`unsaved-${field}`, value);
  const caPem = ws.preferences.caBundle ? await readCaBundle(ws.preferences.caBundle) : '';
  const resolved = await resolveRequest(request, api, {
    expander,
    projectRoot: store.root,
    proxy: ws.preferences.proxy,
    caPem,
    inlineLimit: INLINE_LIMIT,
    secretNames: ws.secrets,
    oauthToken: deps.oauthToken,
  });
  // Every response's cookies go into the workspace's jar; its cookies go out only with Send cookies on.
  const spec: SendSpec = { ...resolved, cookies: { send: request.settings.sendCookies } };

  const sent = recordSent(spec, expander.secretValues);
  const at = new Date().toISOString();
  let response: SendResult;
  try {
    response = await sup.sender.call('sender.send', spec, { signal });
  } catch (err) {
    const e = err as ParleyError;
    const message = redactSecrets(e.message, expander.secretValues);
    if (e.code !== 'cancelled') {
      await sup.history.add(store.root, { id: randomUUID(), at, requestId: request.id, request: sent, error: { code: e.code, message }, redacted: expander.secretValues.size > 0 });
    }
    throw new ParleyError(e.code, message, e.data);
  }
  const verdict = await deps.verdict(store.root, request, response, signal).catch((err: Error) => {
    sup.log(`contract check failed: ${err.message}`);
    return undefined;
  });
  const exchange: Exchange = { id: randomUUID(), at, request: sent, response, redacted: expander.secretValues.size > 0, ...(verdict ? { verdict } : {}) };
  await sup.history.add(store.root, historyEntry(exchange, request.id));
  return exchange;
}

function recordSent(spec: SendSpec, secrets: Map<string, string>): SentRequest {
  const mask = (text: string) => redactSecrets(text, secrets);
  return {
    method: spec.method,
    url: mask(spec.url),
    headers: spec.headers.map(([name, value]) => [name, /^(authorization|proxy-authorization|cookie)$/i.test(name) ? maskCredential(value, secrets) : mask(value)]),
    body: mask(bodyPreview(spec)),
  };
}

/** A credential header is kept only as its scheme unless every secret in it is a known reference. */
function maskCredential(value: string, secrets: Map<string, string>): string {
  const masked = redactSecrets(value, secrets);
  if (masked !== value) return masked;
  const scheme = value.split(' ')[0] ?? '';
  return value.includes(' ') ? `${scheme} ••••••` : '••••••';
}

function bodyPreview(spec: SendSpec): string {
  switch (spec.body.type) {
    case 'none':
      return '';
    case 'bytes':
      return new TextDecoder().decode(spec.body.data.subarray(0, PREVIEW_LIMIT));
    case 'file':
      return `[file ${spec.body.path}]`;
    case 'multipart':
      return spec.body.parts.map((p) => (p.kind === 'text' ? `${p.name}=${p.value}` : `${p.name}=[file ${p.path}]`)).join('\n');
  }
}

function historyEntry(exchange: Exchange, requestId: string): HistoryEntry {
  const r = exchange.response;
  return {
    id: exchange.id,
    at: exchange.at,
    requestId,
    request: exchange.request,
    response: {
      status: r.status,
      statusText: r.statusText,
      // Set-Cookie values are cookie values: never recorded.
      headers: r.headers.map(([n, v]) => [n, /^set-cookie$/i.test(n) ? v.replace(/=([^;]*)/, '=••••••') : v]),
      body: new TextDecoder().decode(r.body.bytes.subarray(0, PREVIEW_LIMIT)),
      size: r.body.size,
      timeMs: r.timing.total,
    },
    ...(exchange.verdict ? { verdict: exchange.verdict } : {}),
    redacted: exchange.redacted,
  };
}

async function readCaBundle(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ParleyError('bad-input', `Not sent: the CA bundle ${path} in Preferences could not be read (${(err as NodeJS.ErrnoException).code}).`);
  }
}
