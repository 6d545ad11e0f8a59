/**
 * What would make Send refuse, said before Send: empty path parameters, a `${name}` that resolves
 * nowhere, a URL that is not one, an auth without its values (the request's own or the API's it
 * inherits). The same rules the send applies (protocol/request-checks.ts, the send's Expander),
 * on the values as typed.
 */
import type { Request } from '../../../../../protocol/model/request.js';
import type { Api } from '../../../../../protocol/model/api.js';
import { pathParamNames, sentUrlText } from '../../../../../protocol/request-url.js';
import { emptyAuthFields, emptyAuthMessage, urlProblem, withStandIns } from '../../../../../protocol/request-checks.js';
import type { Auth } from '../../../../../protocol/model/auth.js';
import type { InheritedSettings, SettingSource } from '../../../../../protocol/model/project.js';
import { effectiveAuth, inheritedHeadersFor, sourceLabel } from '../../../../../protocol/inheritance.js';
import { SECRET_PREFIX } from '../../../../../protocol/variables.js';
import { unresolvedIn, type EditorScope } from '../../state/variable-scope.js';
import type { Section } from '../../state/request-tabs.js';

export interface SendProblem {
  text: string;
  /** The section where it is fixed, when that is not the URL. */
  section?: Section;
}

/**
 * `inherited`: what the request's folders and API hand down (null until known: then the API's auth
 * is what Inherit uses). A name a folder's variables define counts as resolved.
 */
export function sendProblems(draft: Request, api: Api | null, scope: EditorScope, inherited: InheritedSettings | null = null): SendProblem[] {
  const problems: SendProblem[] = [];
  const empty = draft.pathParams.filter((p) => p.value.trim() === '').map((p) => `{${p.name}}`);
  if (empty.length > 0) problems.push({ text: `Path parameter ${empty.join(', ')} has no value.`, section: 'params' });
  const fromFolders = new Set(inherited?.variables.map((v) => v.name) ?? []);
  const unresolved = unresolvedIn(sentTexts(draft, api, inherited), scope).filter((name) => !fromFolders.has(name));
  const variables = unresolved.filter((name) => !name.startsWith(SECRET_PREFIX)).map((name) => `\${${name}}`);
  if (variables.length > 0) {
    const where = scope.environment ? `environment ${scope.environment}, the project's properties or the globals` : "the project's properties or the globals (no environment is active)";
    problems.push({ text: `${list(variables)} ${variables.length === 1 ? 'is' : 'are'} not defined in ${where}.` });
  }
  const secrets = unresolved.filter((name) => name.startsWith(SECRET_PREFIX)).map((name) => `\${${name}}`);
  if (secrets.length > 0) problems.push({ text: `${list(secrets)} ${secrets.length === 1 ? 'names no secret' : 'name no secrets'} stored by this workspace (Add secret… under Environments).` });
  const url = urlProblem(withStandIns(sentUrlText(draft.url.trim())));
  if (url) problems.push({ text: `The URL is not valid: ${url}.` });
  const { auth, from } = authSent(draft, api, inherited);
  const fields = auth ? emptyAuthFields(auth) : [];
  if (auth && fields.length > 0) problems.push({ text: `${emptyAuthMessage(auth, fields, from && sourceLabel(from))}: it is not sent that way.`, section: 'auth' });
  return problems;
}

/** The auth a send uses: the request's own, or what Inherit finds (the nearest folder's, or the API's). */
function authSent(draft: Request, api: Api | null, inherited: InheritedSettings | null): { auth?: Auth; from?: SettingSource } {
  if (inherited) return effectiveAuth(draft.auth, inherited.auth);
  if (draft.auth.type !== 'inherit') return { auth: draft.auth };
  return api ? { auth: api.auth, from: { kind: 'api', id: api.id, name: api.name } } : {};
}

/** Every text of `draft` a send expands (processes/supervisor/send/resolve.ts): what is switched off or not of the body's kind is not sent. */
export function sentTexts(draft: Request, api: Api | null, inherited: InheritedSettings | null = null): string[] {
  const url = sentUrlText(draft.url);
  const texts = [url];
  if (api && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim())) texts.push(api.baseUrl);
  const used = new Set(pathParamNames(draft.url));
  for (const p of draft.pathParams) if (used.has(p.name)) texts.push(p.value);
  for (const row of draft.query) if (row.enabled) texts.push(row.name, row.value);
  for (const row of draft.headers) if (row.enabled && row.name.trim()) texts.push(row.name, row.value);
  if (inherited) for (const row of inheritedHeadersFor(draft.headers, inherited.headers)) texts.push(row.name, row.value);
  const body = draft.body;
  if (body.kind === 'raw') texts.push(body.raw.text);
  if (body.kind === 'form') for (const row of body.form) if (row.enabled && row.name) texts.push(row.name, row.value);
  if (body.kind === 'multipart') for (const part of body.multipart) if (part.enabled && part.name) texts.push(part.name, part.kind === 'text' ? part.value : part.file);
  if (body.kind === 'binary') texts.push(body.binary.file);
  const { auth } = authSent(draft, api, inherited);
  // Every text field of the auth (its kind is not one: `type`).
  if (auth) for (const [key, value] of Object.entries(auth)) if (key !== 'type' && typeof value === 'string') texts.push(value);
  return texts;
}

function list(items: string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
