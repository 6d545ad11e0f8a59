/**
 * Masking by name (SPEC "Credentials in imported captures"): header values, query parameters and
 * the credential values of JSON, XML and form bodies, replaced by the mask (History, examples,
 * Copy as cURL, the mock log) or by nothing (an import blanks them). A value made only of
 * `${...}` / `{{...}}` references holds no secret and is kept. Also the masking of known secret
 * values in free text, and the filling of masked values back in from a current request.
 */
import { isEventStream, isFormMediaType, isJsonMediaType, isXmlMediaType } from '../media-type.js';
import { MASK, isCredentialHeader, isReferenceOnly } from './names.js';
import { credentialSpans, formSpans, type BodySyntax, type CredentialSpan } from './spans.js';

export interface MaskOptions {
  /** What a value becomes: the mask (default), or '' to blank it. */
  replacement?: string;
}

export interface Masked {
  text: string;
  /** How many values were replaced. */
  masked: number;
}

const replacementOf = (options: MaskOptions) => options.replacement ?? MASK;

/** The syntax a body is read in: by its Content-Type, else by its first character; null when neither says. */
export function bodySyntax(contentType: string | undefined, text: string): BodySyntax | null {
  if (contentType) {
    if (isJsonMediaType(contentType)) return 'json';
    if (isXmlMediaType(contentType)) return 'xml';
    if (isFormMediaType(contentType)) return 'form';
    if (isEventStream(contentType)) return null;
  }
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') return 'json';
  if (start === '<') return 'xml';
  return null;
}

/** A value as it must be written into a body of `syntax`: a JSON string, escaped XML text, form-encoded. */
function encodeFor(syntax: BodySyntax, value: string): string {
  if (syntax === 'json') return JSON.stringify(value);
  if (syntax === 'form') return encodeURIComponent(value);
  // Character references keep the body well formed whatever its declared encoding.
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    out += code > 126 ? `&#x${code.toString(16).toUpperCase()};` : ch === '<' ? '&lt;' : ch === '&' ? '&amp;' : ch;
  }
  return out;
}

/** A span's value as text, for the reference test. */
function plainValue(syntax: BodySyntax, raw: string): string {
  if (syntax === 'json' && raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1);
    }
  }
  if (syntax === 'form') {
    try {
      return decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      return raw;
    }
  }
  return raw;
}

function replaceSpans(text: string, spans: CredentialSpan[], value: (span: CredentialSpan, raw: string) => string | null): Masked {
  let out = '';
  let at = 0;
  let masked = 0;
  for (const span of spans) {
    const raw = text.slice(span.start, span.end);
    const next = value(span, raw);
    if (next === null || next === raw) continue;
    out += text.slice(at, span.start) + next;
    at = span.end;
    masked++;
  }
  return { text: masked === 0 ? text : out + text.slice(at), masked };
}

/** Every credential value of a body masked (or blanked), the rest kept exactly as written. */
export function maskBody(text: string, syntax: BodySyntax, options: MaskOptions = {}): Masked {
  const replacement = encodeFor(syntax, replacementOf(options));
  return replaceSpans(text, credentialSpans(text, syntax), (_, raw) => (isReferenceOnly(plainValue(syntax, raw)) ? null : replacement));
}

/**
 * The URL with the password of its user info (`http://bob:pw@host/`) and the value of every
 * credential-named query parameter masked; blanked, the password goes with its colon. The user is
 * kept, as Basic auth's user name is (a request's file and Copy as cURL show it): it names the
 * account and is no credential by the name rule.
 */
export function maskUrl(url: string, options: MaskOptions = {}): Masked {
  const replacement = replacementOf(options);
  let text = url;
  let masked = 0;
  const password = passwordSpan(url);
  if (password && !isReferenceOnly(plainValue('form', url.slice(password.start, password.end)))) {
    const before = replacement === '' ? password.start - 1 : password.start;
    text = `${url.slice(0, before)}${encodeURIComponent(replacement)}${url.slice(password.end)}`;
    masked = 1;
  }
  const query = maskQuery(text, replacement);
  return { text: query.text, masked: masked + query.masked };
}

function maskQuery(url: string, replacement: string): Masked {
  const q = url.indexOf('?');
  if (q < 0) return { text: url, masked: 0 };
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const encoded = encodeFor('form', replacement);
  return replaceSpans(url, formSpans(url, q + 1, end), (_, raw) => (isReferenceOnly(plainValue('form', raw)) ? null : encoded));
}

/**
 * Where the password of a URL's user info is written (after `user:`, before the last `@` of the
 * authority), as a URL parser reads it: the authority ends at `/`, `?`, `#` or `\`. Null when the
 * URL has no scheme and authority, or no password (`bob@host`, `bob:@host`).
 */
function passwordSpan(url: string): { start: number; end: number } | null {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (!scheme) return null;
  const from = scheme[0].length;
  let end = from;
  while (end < url.length && !AUTHORITY_END.has(url[end]!)) end++;
  const at = url.lastIndexOf('@', end - 1);
  if (at < from) return null;
  const colon = url.indexOf(':', from);
  if (colon < 0 || colon + 1 >= at) return null;
  return { start: colon + 1, end: at };
}

const AUTHORITY_END = new Set(['/', '?', '#', '\\']);

/**
 * A header's value with its credential masked: Authorization keeps its scheme, Cookie its
 * cookie names, Set-Cookie its name and attributes; other credential headers are masked whole.
 */
export function maskHeaderValue(name: string, value: string, options: MaskOptions = {}): string {
  if (!isCredentialHeader(name) || isReferenceOnly(value)) return value;
  const replacement = replacementOf(options);
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const m = /^(\S+)(\s+)([\s\S]*)$/.exec(value);
    if (!m) return replacement;
    return isReferenceOnly(m[3]!) ? value : `${m[1]}${m[2]}${replacement}`;
  }
  if (lower === 'cookie') {
    return value
      .split(';')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq < 0 || isReferenceOnly(pair.slice(eq + 1)) ? pair : `${pair.slice(0, eq)}=${replacement}`;
      })
      .join(';');
  }
  if (lower === 'set-cookie') {
    const semi = value.indexOf(';');
    const pair = semi < 0 ? value : value.slice(0, semi);
    const eq = pair.indexOf('=');
    return `${eq < 0 ? '' : `${pair.slice(0, eq)}=`}${replacement}${semi < 0 ? '' : value.slice(semi)}`;
  }
  return replacement;
}

export function maskHeaders(headers: readonly (readonly [string, string])[], options: MaskOptions = {}): { headers: [string, string][]; masked: number } {
  let masked = 0;
  const out = headers.map(([name, value]): [string, string] => {
    const next = maskHeaderValue(name, value, options);
    if (next !== value) masked++;
    return [name, next];
  });
  return { headers: out, masked };
}

/** Values shorter than this are never looked for in free text: they would mangle every word they happen to occur in. */
export const MIN_VALUE_LENGTH = 3;

/**
 * The forms a known value takes when something writes it into text: as is, percent-encoded (a
 * URL), form-encoded (a body), JSON-escaped (quotes, backslashes, controls), JSON-escaped with `/`
 * as `\/` (PHP); each of the value and of its percent-decoded form (a cookie value a server
 * decoded before echoing it).
 */
export function valueForms(value: string): string[] {
  const forms = new Set<string>();
  for (const base of new Set([value, percentDecoded(value)])) {
    const json = JSON.stringify(base).slice(1, -1);
    for (const form of [base, encodeURIComponent(base), new URLSearchParams({ k: base }).toString().slice(2), json, json.replaceAll('/', '\\/')]) forms.add(form);
  }
  return [...forms];
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not percent-encoded
  }
}

/**
 * Known values in free text replaced (longest first, so a value holding another is replaced
 * whole): the one engine behind every value-based redaction (secrets in History, the HTTP Log,
 * examples and messages; the credential values an exchange carried; an import's fetch secrets).
 */
export function replaceSecretValues(text: string, replacements: Iterable<readonly [value: string, replacement: string]>): string {
  let out = text;
  const usable = [...replacements].filter(([value]) => value.length >= MIN_VALUE_LENGTH).sort((a, b) => b[0].length - a[0].length);
  for (const [value, replacement] of usable) if (out.includes(value)) out = out.split(value).join(replacement);
  return out;
}

/**
 * The same in bytes that are not text (a binary body): each value's UTF-8 bytes replaced by the
 * replacement's. Bytes are read one character per byte, so the text engine finds them anywhere.
 */
export function replaceSecretValuesInBytes(bytes: Uint8Array, replacements: Iterable<readonly [value: string, replacement: string]>): Uint8Array {
  const asBytes = (text: string) => byteString(new TextEncoder().encode(text));
  const usable = [...replacements].filter(([value]) => value.length >= MIN_VALUE_LENGTH).map(([value, replacement]) => [asBytes(value), asBytes(replacement)] as const);
  if (usable.length === 0) return bytes;
  const before = byteString(bytes);
  const after = replaceSecretValues(before, usable);
  return after === before ? bytes : Uint8Array.from(after, (ch) => ch.charCodeAt(0));
}

/** One character (U+0000 to U+00FF) per byte. */
function byteString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

// --- filling masked values back in (re-send from History) --------------------------------------

const isMaskedRaw = (syntax: BodySyntax, raw: string) => raw === encodeFor(syntax, MASK);

/**
 * A recorded body with every masked value taken from the same place in `current` (the body the
 * request would send now); null when one of them has no counterpart there.
 */
export function fillMaskedBody(recorded: string, current: string, syntax: BodySyntax): string | null {
  const wanted = credentialSpans(recorded, syntax).filter((s) => isMaskedRaw(syntax, recorded.slice(s.start, s.end)));
  if (wanted.length === 0) return recorded;
  const have = new Map(credentialSpans(current, syntax).map((s) => [s.path, current.slice(s.start, s.end)]));
  if (wanted.some((s) => !have.has(s.path))) return null;
  return replaceSpans(recorded, wanted, (span) => have.get(span.path)!).text;
}

/**
 * The recorded URL with its masked values taken from `current`: the password of its user info
 * from `current`'s, its masked query values from `current`'s parameters of the same name; null
 * when one is missing.
 */
export function fillMaskedUrl(recorded: string, current: string): string | null {
  const masked = passwordSpan(recorded);
  if (masked && recorded.slice(masked.start, masked.end) === encodeURIComponent(MASK)) {
    const have = passwordSpan(current);
    if (!have) return null;
    return fillMaskedQuery(`${recorded.slice(0, masked.start)}${current.slice(have.start, have.end)}${recorded.slice(masked.end)}`, current);
  }
  return fillMaskedQuery(recorded, current);
}

function fillMaskedQuery(recorded: string, current: string): string | null {
  const spansOf = (url: string) => {
    const q = url.indexOf('?');
    if (q < 0) return [];
    const hash = url.indexOf('#', q);
    return formSpans(url, q + 1, hash < 0 ? url.length : hash);
  };
  const wanted = spansOf(recorded).filter((s) => isMaskedRaw('form', recorded.slice(s.start, s.end)));
  if (wanted.length === 0) return recorded;
  const have = new Map(spansOf(current).map((s) => [s.path, current.slice(s.start, s.end)]));
  if (wanted.some((s) => !have.has(s.path))) return null;
  return replaceSpans(recorded, wanted, (span) => have.get(span.path)!).text;
}

/** Whether a recorded value still holds the mask somewhere (a header masked whole or in part). */
export function holdsMask(value: string): boolean {
  return value.includes(MASK) || value.includes(encodeURIComponent(MASK)) || value.includes(encodeFor('xml', MASK));
}

// --- leaving credential values out of a kept draft (the session file) -------------------------

/** A text with its credential values left out, and where the ones that were typed (not as saved) were. */
export interface LeftOutText {
  text: string;
  /** Span paths (`CredentialSpan.path`) of the values blanked: values the saved text did not hold there. */
  typed: string[];
}

/**
 * Every credential value of `text` left out before the text is kept anywhere (an unsaved draft in
 * the session file): a value the saved text holds at the same place becomes the mask, to be taken
 * from the saved text again when the draft is restored (`refillBody`); any other was typed, and is
 * blanked. References, and values already masked, stay as they are.
 */
export function leaveOutBody(text: string, saved: string | null, syntax: BodySyntax): LeftOutText {
  return leaveOut(text, credentialSpans(text, syntax), saved === null ? null : credentialSpans(saved, syntax), saved ?? '', syntax);
}

/** The same for a URL: its credential-named query values and the password of its user info. */
export function leaveOutUrl(url: string, saved: string | null): LeftOutText {
  return leaveOut(url, urlSpans(url), saved === null ? null : urlSpans(saved), saved ?? '', 'form');
}

/** A kept body with each masked value taken from the same place in the saved text, or blanked where it has none. */
export function refillBody(kept: string, saved: string | null, syntax: BodySyntax): string {
  return refill(kept, credentialSpans(kept, syntax), saved === null ? [] : credentialSpans(saved, syntax), saved ?? '', syntax);
}

export function refillUrl(kept: string, saved: string | null): string {
  return refill(kept, urlSpans(kept), saved === null ? [] : urlSpans(saved), saved ?? '', 'form');
}

/** The span path of a URL's user-info password (a query name never holds a NUL, so it cannot clash). */
export const URL_PASSWORD_PATH = '\u0000password';

/** A URL's query values and the password in `scheme://user:password@host`. */
function urlSpans(url: string): CredentialSpan[] {
  const spans: CredentialSpan[] = [];
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
  if (authority) {
    const start = url.indexOf('//') + 2;
    const at = authority[1]!.lastIndexOf('@');
    const colon = at < 0 ? -1 : authority[1]!.indexOf(':');
    if (colon >= 0 && colon < at && at > colon + 1) spans.push({ path: URL_PASSWORD_PATH, start: start + colon + 1, end: start + at });
  }
  const q = url.indexOf('?');
  if (q < 0) return spans;
  const hash = url.indexOf('#', q);
  return [...spans, ...formSpans(url, q + 1, hash < 0 ? url.length : hash)];
}

function leaveOut(text: string, spans: CredentialSpan[], savedSpans: CredentialSpan[] | null, saved: string, syntax: BodySyntax): LeftOutText {
  const have = new Map((savedSpans ?? []).map((s) => [s.path, saved.slice(s.start, s.end)]));
  const typed: string[] = [];
  const masked = replaceSpans(text, spans, (span, raw) => {
    if (isMaskedRaw(syntax, raw) || isReferenceOnly(plainValue(syntax, raw))) return null;
    if (have.get(span.path) === raw) return encodeFor(syntax, MASK);
    typed.push(span.path);
    return emptyValue(syntax);
  });
  return { text: masked.text, typed };
}

function refill(kept: string, spans: CredentialSpan[], savedSpans: CredentialSpan[], saved: string, syntax: BodySyntax): string {
  const have = new Map(savedSpans.map((s) => [s.path, saved.slice(s.start, s.end)]));
  return replaceSpans(kept, spans, (span, raw) => (isMaskedRaw(syntax, raw) ? (have.get(span.path) ?? emptyValue(syntax)) : null)).text;
}

/** An empty value: `""` in JSON (a bare nothing would not parse), nothing elsewhere. */
function emptyValue(syntax: BodySyntax): string {
  return syntax === 'json' ? '""' : '';
}
