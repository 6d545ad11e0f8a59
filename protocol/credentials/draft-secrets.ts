/**
 * Unsaved drafts kept across a restart (the session file) never hold a secret. Before a draft is
 * kept, every secret-looking value in it is left out, by the one credential-name rule every
 * redaction uses (names.ts) applied to the documents Parley edits: the secret fields of an auth
 * (AUTH_SECRET_FIELDS), the value of a name/value row named like a credential (headers, query and
 * form rows, variables, properties), a URL's credential query values and user-info password, the
 * credential values of a JSON or XML body. References (`${...}`) are not secrets and stay.
 *
 * A value the saved document holds at the same place is kept as the mask and taken from the saved
 * document again on restore (`refillSecrets`), so a restored draft differs from the file only
 * where the user edited it; a value that was typed is blanked and named in `leftOut`, so the
 * restored tab can say what to type again. Without a saved document every secret is blanked.
 */
import { AUTH_SECRET_FIELDS } from '../model/auth.js';
import { ownValue, setOwn } from '../own.js';
import { bodySyntax, holdsMask, leaveOutBody, leaveOutUrl, maskHeaderValue, refillBody, refillUrl, URL_PASSWORD_PATH } from './mask.js';
import { MASK, isReferenceOnly } from './names.js';
import type { BodySyntax } from './spans.js';

export interface KeptDraft<T> {
  value: T;
  /** What was typed and left out, as the user calls it: `auth password`, `header "Authorization"`. */
  leftOut: string[];
}

/** At most this many left-out values are named; a draft with more says "and N more". */
const MAX_NAMED = 20;

export function leaveOutSecrets<T>(draft: T, saved?: unknown): KeptDraft<T> {
  const named = new Set<string>();
  let more = 0;
  const note = (label: string) => {
    if (named.has(label)) return;
    if (named.size < MAX_NAMED) named.add(label);
    else more++;
  };
  const value = walk(draft, saved, '', { mode: 'leave', note }) as T;
  return { value, leftOut: more > 0 ? [...named, `${more} more`] : [...named] };
}

/** A kept draft with each value left out as the mask taken from `saved` again (blank where `saved` has none). */
export function refillSecrets<T>(kept: T, saved: unknown): T {
  return walk(kept, saved, '', { mode: 'refill', note: () => {} }) as T;
}

interface Pass {
  mode: 'leave' | 'refill';
  note(label: string): void;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const stringAt = (record: unknown, key: string): string | undefined => {
  const v = isPlainObject(record) ? ownValue(record, key) : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** A name/value row (header, query or form row, variable, property, multipart text part). */
const isRow = (v: unknown): v is Record<string, unknown> & { name: string; value: string } =>
  isPlainObject(v) && typeof ownValue(v, 'name') === 'string' && typeof ownValue(v, 'value') === 'string';

function walk(node: unknown, saved: unknown, key: string, pass: Pass): unknown {
  if (Array.isArray(node)) {
    const list = Array.isArray(saved) ? saved : [];
    return node.map((item, i) => walk(item, counterpart(item, list, i), key, pass));
  }
  if (!isPlainObject(node)) return node;
  const type = stringAt(node, 'type');
  const authFields = type === undefined ? undefined : AUTH_SECRET_FIELDS.get(type);
  const sameAuth = authFields && stringAt(saved, 'type') === type ? saved : undefined;
  const row = !authFields && isRow(node) ? node : undefined;
  const out: Record<string, unknown> = Object.getPrototypeOf(node) === null ? Object.create(null) : {};
  for (const [k, v] of Object.entries(node)) {
    let next: unknown;
    if (typeof v !== 'string') next = walk(v, isPlainObject(saved) ? ownValue(saved, k) : undefined, k, pass);
    else if (authFields?.includes(k)) next = authSecret(v, stringAt(sameAuth, k), `auth ${words(k)}`, pass);
    else if (row && k === 'value') next = rowValue(row.name, v, stringAt(saved, 'value'), rowLabel(key, row.name), pass);
    else if (k === 'url' || k === 'baseUrl') next = urlText(v, stringAt(saved, k), k === 'url' ? 'URL' : 'base URL', pass);
    else if (k === 'text' && bodyOf(node, v)) next = bodyText(v, stringAt(saved, k), bodyOf(node, v)!, pass);
    else next = v;
    setOwn(out, k, next);
  }
  return out;
}

/** The saved element a draft's array element is compared with: a row by its name, anything else by its place. */
function counterpart(item: unknown, saved: unknown[], i: number): unknown {
  if (!isRow(item)) return saved[i];
  const atPlace = saved[i];
  if (isRow(atPlace) && atPlace.name === item.name) return atPlace;
  return saved.find((s) => isRow(s) && s.name === item.name);
}

function authSecret(value: string, saved: string | undefined, label: string, pass: Pass): string {
  if (pass.mode === 'refill') return value === MASK ? (saved ?? '') : value;
  if (value === '' || value === MASK || isReferenceOnly(value)) return value;
  if (saved === value) return MASK;
  pass.note(label);
  return '';
}

function rowValue(name: string, value: string, saved: string | undefined, label: string, pass: Pass): string {
  if (pass.mode === 'refill') return holdsMask(value) ? (saved ?? '') : value;
  if (holdsMask(value)) return value;
  // The header rule: Authorization keeps its scheme, Cookie its names; a row not named like a credential is kept.
  const masked = maskHeaderValue(name, value);
  if (masked === value) return value;
  if (saved === value) return masked;
  pass.note(label);
  return maskHeaderValue(name, value, { replacement: '' });
}

function urlText(value: string, saved: string | undefined, what: string, pass: Pass): string {
  if (pass.mode === 'refill') return refillUrl(value, saved ?? null);
  const { text, typed } = leaveOutUrl(value, saved ?? null);
  for (const path of typed) pass.note(path === URL_PASSWORD_PATH ? `${what} password` : `${what} parameter "${path.slice(0, path.indexOf('\u0000'))}"`);
  return text;
}

function bodyText(value: string, saved: string | undefined, syntax: BodySyntax, pass: Pass): string {
  if (pass.mode === 'refill') return refillBody(value, saved ?? null, syntax);
  const { text, typed } = leaveOutBody(value, saved ?? null, syntax);
  for (const path of typed) pass.note(syntax === 'form' ? `body field "${path.slice(0, path.indexOf('\u0000'))}"` : `body value ${path}`);
  return text;
}

/** The syntax of a body's text: its language (a request's raw body) or kind (a mock response's), else what it starts with. */
function bodyOf(node: Record<string, unknown>, text: string): BodySyntax | null {
  const declared = stringAt(node, 'language') ?? stringAt(node, 'kind');
  if (declared === undefined) return null;
  if (declared === 'json' || declared === 'xml') return declared;
  return bodySyntax(undefined, text);
}

const ROW_KINDS = new Map([
  ['headers', 'header'],
  ['query', 'query parameter'],
  ['form', 'form field'],
  ['multipart', 'form field'],
  ['pathParams', 'path parameter'],
  ['variables', 'variable'],
  ['globals', 'global'],
  // A project's properties are the draft itself, a list at the top.
  ['', 'property'],
]);

function rowLabel(list: string, name: string): string {
  return `${ROW_KINDS.get(list) ?? 'value'} "${name}"`;
}

/** `clientSecret` -> `client secret`. */
function words(field: string): string {
  return field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}
