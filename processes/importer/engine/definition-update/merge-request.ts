/**
 * Definition update rule 3 for one linked request: each generated field (URL, path, query and
 * header rows, body content type and sample, auth) is rewritten only while it still equals
 * what the old document generated. Without a record of the old generation nothing is taken
 * for generated: every field counts as the user's, and only rows the new document adds arrive.
 */
import type { GeneratedFields, Request } from '../../../../protocol/model/request.js';
import { queryAsRows, queryBackInUrl, queryInUrl } from '../../../../protocol/request-url.js';
import { bodyIsGenerated, withGeneratedBody } from '../openapi/generate/body.js';
import { mergeRows, samePathParam, sameRow } from './merge-rows.js';

export function mergeRequest(request: Request, before: GeneratedFields | undefined, after: GeneratedFields): Request {
  // A generation is a URL without its query and the query as rows: the request's URL text is
  // merged in that shape, then its rows go back into its text, unchanged pairs as the user wrote them.
  const current = queryAsRows(request);
  const out: Request = structuredClone(current);
  if (before && current.url === before.url) out.url = after.url;
  out.pathParams = mergeRows(request.pathParams, before?.pathParams, after.pathParams, { same: samePathParam });
  out.query = mergeRows(current.query, before?.query, after.query, { same: sameRow, switchOnNewlyRequired: true });
  out.headers = mergeRows(request.headers, before?.headers, after.headers, { same: sameRow, caseInsensitive: true });
  if (before && bodyIsGenerated(request.body, before.contentType, before.body)) out.body = withGeneratedBody(request.body, after.contentType, after.body);
  if (before && sameValue(request.auth, before.auth)) out.auth = structuredClone(after.auth);
  out.generated = structuredClone(after);
  return queryBackInUrl(out, request.url);
}

/** Whether anything a user sees changed (not the bookkeeping fields). */
export function visiblyChanged(a: Request, b: Request): boolean {
  const view = (r: Request) => ({ url: r.url, pathParams: r.pathParams, query: r.query, headers: r.headers, body: r.body, auth: r.auth });
  return !sameValue(view(queryInUrl(a)), view(queryInUrl(b)));
}

/** Structural equality for plain data (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
