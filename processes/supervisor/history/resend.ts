/**
 * Re-send from History (SPEC "User operations"): the entry's method, URL, headers and body go out
 * again through the request with its current auth and settings; values History masked are
 * filled from what the request would send now, and `${secret:name}` references from the
 * keychain. An entry that ended on another host (a redirect, another environment), or one whose
 * masked values the request can no longer fill, is re-sent from the request instead, and the
 * answer says why.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { Auth } from '../../../protocol/model/auth.js';
import type { Header, OutgoingBody, SendProgress, SendSpec } from '../../../protocol/model/exchange.js';
import type { HistoryEntry, ResendResult } from '../../../protocol/model/history.js';
import type { Request } from '../../../protocol/model/request.js';
import { bodySyntax, fillMaskedBody, fillMaskedUrl, holdsMask } from '../../../protocol/credentials/index.js';
import type { Supervisor } from '../supervisor.js';
import { dispatchSend, prepareSend, type PreparedSend, type SendDeps } from '../send/send-service.js';

export async function resendEntry(
  sup: Supervisor,
  deps: SendDeps,
  projectRoot: string,
  entryId: string,
  draft: Request | undefined,
  signal?: AbortSignal,
  onProgress?: (progress: SendProgress) => void,
  /** Bytes of progress still on their way to the caller (a stream's rows wait while it is high, as for a send). */
  backlog?: () => number,
): Promise<ResendResult> {
  const store = sup.project(projectRoot);
  const entry = await sup.history.get(store.root, entryId);
  let request = draft;
  if (!request) {
    try {
      request = store.getRequest(entry.requestId);
    } catch {
      throw new ParleyError('not-found', 'The request this entry was sent from is no longer in the project, so it cannot be re-sent.');
    }
  }
  if (request.id !== entry.requestId) throw new ParleyError('bad-input', 'That History entry belongs to another request.');
  const prepared = await prepareSend(sup, deps, store.root, request);
  const fromEntry = await specFromEntry(sup, entry, prepared);
  if ('reason' in fromEntry) {
    return { exchange: await dispatchSend(sup, deps, prepared, prepared.spec, signal, onProgress, backlog), from: 'request', reason: fromEntry.reason };
  }
  return { exchange: await dispatchSend(sup, deps, prepared, fromEntry.spec, signal, onProgress, backlog), from: 'entry', ...(fromEntry.note ? { note: fromEntry.note } : {}) };
}

type FromEntry = { spec: SendSpec; note?: string } | { reason: string };

async function specFromEntry(sup: Supervisor, entry: HistoryEntry, prepared: PreparedSend): Promise<FromEntry> {
  const current = prepared.spec;
  const now = origin(current.url);
  for (const url of [entry.request.url, entry.response?.url]) {
    if (url !== undefined && origin(url) !== now) {
      return { reason: `This entry ended on ${origin(url) ?? url}, and the request now goes to ${now}: re-sent from the request.` };
    }
  }
  const secrets = new Secrets(sup);

  const filledUrl = fillMaskedUrl(entry.request.url, current.url);
  if (filledUrl === null) return { reason: "A masked value of this entry's URL (its password, or a query parameter) is no longer sent by the request: re-sent from the request." };
  const url = await secrets.fill(filledUrl, encodeURIComponent);
  if (url === null) return { reason: secrets.missing() };

  // The request's current auth wins: the entry's copies of its headers are replaced.
  const authNames = authHeaderNames(prepared.auth);
  const headers: Header[] = [];
  const taken = new Map<string, number>();
  for (const [name, value] of entry.request.headers) {
    const lower = name.toLowerCase();
    if (authNames.has(lower)) continue;
    if (holdsMask(value)) {
      const nth = taken.get(lower) ?? 0;
      taken.set(lower, nth + 1);
      const counterpart = current.headers.filter(([n]) => n.toLowerCase() === lower)[nth];
      if (!counterpart) return { reason: `The masked ${name} header of this entry is no longer sent by the request: re-sent from the request.` };
      headers.push([name, counterpart[1]]);
      continue;
    }
    const filled = await secrets.fill(value);
    if (filled === null) return { reason: secrets.missing() };
    headers.push([name, filled]);
  }
  for (const header of current.headers) if (authNames.has(header[0].toLowerCase())) headers.push(header);

  const body = await bodyFromEntry(entry, current, secrets);
  if ('reason' in body) return body;
  return { spec: { ...current, method: entry.request.method, url, headers, body: body.body }, ...(body.note ? { note: body.note } : {}) };
}

async function bodyFromEntry(entry: HistoryEntry, current: SendSpec, secrets: Secrets): Promise<{ body: OutgoingBody; note?: string } | { reason: string }> {
  const recorded = entry.request;
  const kind = recorded.bodyKind ?? (recorded.body === '' ? 'none' : undefined);
  if (kind === 'none') return { body: { type: 'none' } };
  if (kind !== 'text' || recorded.bodyTruncated) {
    // History keeps a preview only: the body the request sends now goes instead.
    return { body: current.body, note: 'History keeps only a preview of this body, so the request’s current body was sent with it.' };
  }
  let text = recorded.body;
  const contentType = recorded.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const syntax = bodySyntax(contentType, text);
  if (holdsMask(text)) {
    const now = current.body.type === 'bytes' ? new TextDecoder().decode(current.body.data) : '';
    const filled = syntax ? fillMaskedBody(text, now, syntax) : null;
    if (filled === null) return { reason: 'A masked value in the body of this entry is not in the request’s body any more: re-sent from the request.' };
    text = filled;
  }
  const withSecrets = await secrets.fill(text, syntax === 'form' ? (v) => new URLSearchParams({ k: v }).toString().slice(2) : undefined);
  if (withSecrets === null) return { reason: secrets.missing() };
  return { body: { type: 'bytes', data: new TextEncoder().encode(withSecrets) } };
}

/** Header names the auth writes (lower-case); a query API key travels in the URL and is filled there. */
function authHeaderNames(auth: Auth): Set<string> {
  switch (auth.type) {
    case 'basic':
    case 'bearer':
    case 'oauth2':
      return new Set(['authorization']);
    case 'apikey':
      return auth.in === 'header' ? new Set([auth.name.toLowerCase()]) : new Set();
    default:
      return new Set();
  }
}

function origin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** `${secret:name}` references in recorded text, filled from the workspace's secret store. */
class Secrets {
  private readonly values = new Map<string, string | null>();
  private lost: string | undefined;
  /** Why the store could not be read (a locked vault), when that was why: not the same as a secret gone. */
  private unreadable: string | undefined;

  constructor(private readonly sup: Supervisor) {}

  /** `encode` writes a value where it lands (percent-encoded in a URL); raw elsewhere, as it was sent. */
  async fill(text: string, encode: (value: string) => string = (v) => v): Promise<string | null> {
    const names = [...text.matchAll(/\$\{secret:([^{}]+)\}/g)].map((m) => m[1]!);
    for (const name of names) {
      if (!this.values.has(name)) {
        const value = await this.sup.secrets.get(name).catch((err: Error) => {
          this.unreadable = err.message;
          return null;
        });
        this.values.set(name, value);
      }
      if (this.values.get(name) === null) {
        this.lost = name;
        return null;
      }
    }
    return text.replace(/\$\{secret:([^{}]+)\}/g, (_, name: string) => encode(this.values.get(name)!));
  }

  missing(): string {
    if (this.unreadable !== undefined) return `The secret ${this.lost} this entry used could not be read (${this.unreadable}): re-sent from the request.`;
    return `The secret ${this.lost} this entry used is not in the secret store any more: re-sent from the request.`;
  }
}
