/**
 * A send from start to finish, in the supervisor: expand and resolve the request, hand it to
 * the sender process, check the response against the contract, record it in History.
 * Secrets are fetched from the keychain only here, and masked in everything recorded.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ParleyError } from '../../../protocol/errors.js';
import type { Exchange } from '../../../protocol/model/history.js';
import type { Api } from '../../../protocol/model/api.js';
import type { Request } from '../../../protocol/model/request.js';
import type { SendResult, SendSpec } from '../../../protocol/model/exchange.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { Supervisor } from '../supervisor.js';
import type { ProjectStore } from '../store/project-store.js';
import { Expander, redactSecrets, secretNamesIn } from './expand.js';
import { resolveRequest } from './resolve.js';
import { literalSecrets } from './secure-auth.js';
import { historyEntry, recordSent } from './record.js';

const INLINE_LIMIT = 10 * 1024 * 1024;

export interface SendDeps {
  /** OAuth 2 tokens, cached per request or API. */
  oauthToken: (auth: Parameters<Parameters<typeof resolveRequest>[2]['oauthToken']>[0], cacheKey: string) => Promise<string>;
  /** The contract verdict of a response, or undefined when no chip applies. */
  verdict: (projectRoot: string, request: Request, result: SendResult, signal?: AbortSignal) => Promise<Verdict | undefined>;
}

/** A request resolved for the wire, with the secret values it used (to mask them in what is recorded). */
export interface PreparedSend {
  store: ProjectStore;
  api: Api;
  request: Request;
  spec: SendSpec;
  /** Secret values by name (keychain names, and `unsaved-<field>` for secrets typed into a draft). */
  secrets: Map<string, string>;
}

export async function sendRequest(sup: Supervisor, deps: SendDeps, projectRoot: string, request: Request, signal?: AbortSignal): Promise<Exchange> {
  const prepared = await prepareSend(sup, deps, projectRoot, request);
  return dispatchSend(sup, deps, prepared, prepared.spec, signal);
}

/** Expands and resolves a request as it would be sent now (refused here when something does not resolve). */
export async function prepareSend(sup: Supervisor, deps: SendDeps, projectRoot: string, request: Request): Promise<PreparedSend> {
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
  return { store, api, request, spec, secrets: expander.secretValues };
}

/** Puts `spec` on the wire for `prepared.request`, checks the response and records the send in History. */
export async function dispatchSend(sup: Supervisor, deps: SendDeps, prepared: PreparedSend, spec: SendSpec, signal?: AbortSignal): Promise<Exchange> {
  const { store, request, secrets } = prepared;
  spec = withDefaultAccept(spec);
  const sent = recordSent(spec, secrets);
  const at = new Date().toISOString();
  let response: SendResult;
  try {
    response = await sup.sender.call('sender.send', spec, { signal });
  } catch (err) {
    const e = err as ParleyError;
    const message = redactSecrets(e.message, secrets);
    if (e.code !== 'cancelled') {
      await sup.history.add(store.root, { id: randomUUID(), at, requestId: request.id, request: sent.request, error: { code: e.code, message }, redacted: sent.masked || secrets.size > 0 });
    }
    throw new ParleyError(e.code, message, e.data);
  }
  const verdict = await deps.verdict(store.root, request, response, signal).catch((err: Error) => {
    sup.log(`contract check failed: ${err.message}`);
    return undefined;
  });
  const entry = historyEntry({ id: randomUUID(), at, requestId: request.id, sent, response, verdict, secrets });
  await sup.history.add(store.root, entry);
  return { id: entry.id, at, request: sent.request, response, redacted: entry.redacted, ...(verdict ? { verdict } : {}) };
}

/** Like curl and other HTTP clients, a request that names no Accept asks for anything. */
function withDefaultAccept(spec: SendSpec): SendSpec {
  if (spec.headers.some(([n]) => n.toLowerCase() === 'accept')) return spec;
  return { ...spec, headers: [...spec.headers, ['Accept', '*/*']] };
}

async function readCaBundle(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ParleyError('bad-input', `Not sent: the CA bundle ${path} in Preferences could not be read (${(err as NodeJS.ErrnoException).code}).`);
  }
}
