/**
 * Where a `$ref` points: the one rule the importer, the checker and the mock host all follow
 * (each still reads or looks up documents its own way). A reference is taken at face value only
 * when it is an ordinary URI reference; the odd forms that would make a file reader throw, reach
 * another machine, or read a file the author never meant (percent-encoded separators, `//host`
 * network paths from a local document, `file:` addresses, absolute local paths, Windows drives,
 * `\` separators, control characters, very long references, or leaving the folder a cached
 * definition lives in) come back as a `ref-unreadable` value naming the reference, the
 * document and why. Pure: no file or network access, so it runs anywhere, the UI included.
 */

/** The longest `$ref` read, in characters. JSON Pointers into big documents stay far below it. */
export const MAX_REF_LENGTH = 4096;

export interface RefUnreadable {
  code: 'ref-unreadable';
  /** The reference as written (cut to 200 characters). */
  ref: string;
  /** The document it is written in, as shown to the user. */
  document: string;
  /** Why it cannot be read, as a clause ("it names another machine"). */
  reason: string;
  /** The whole sentence: what reference, in which document, why. */
  message: string;
}

export type RefLocation =
  | {
      ok: true;
      /** The target document's absolute address, without fragment. */
      url: string;
      /** The fragment decoded (a JSON Pointer such as `/components/schemas/Pet`, an anchor, or ''). */
      fragment: string;
      /** `url` with the fragment as written, for tools that take one string. */
      href: string;
    }
  | { ok: false; error: RefUnreadable };

export interface RefScope {
  /** The folder (an address ending in `/`) every reference must stay in, and its name in messages. */
  within?: { folder: string; name: string };
  /** How the referring document is named in messages; its address by default. */
  documentName?: string;
}

/** Resolves `ref`, written in the document at `base` (an absolute address), under the shared rule. */
export function resolveRefLocation(ref: string, base: string, scope: RefScope = {}): RefLocation {
  const refuse = (reason: string): RefLocation => ({ ok: false, error: refUnreadable(ref, scope.documentName ?? shorten(base), reason) });
  if (ref.length > MAX_REF_LENGTH) return refuse(`it is longer than ${MAX_REF_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(ref)) return refuse('it contains a control character (such as NUL or a line break)');
  const hash = ref.indexOf('#');
  const address = hash < 0 ? ref : ref.slice(0, hash);
  const path = address.replace(/[?].*$/s, '');
  if (address.includes('\\')) return refuse('it uses "\\" as a separator; references use "/"');
  if (/%(2f|5c|00)/i.test(path)) return refuse('its path holds a percent-encoded "/", "\\" or NUL (%2F, %5C, %00), which would name a different file than it shows');
  if (/^[a-z]:|^\/[a-z]:[/\\]/i.test(address)) return refuse('it is a Windows drive path');
  let baseUrl: URL;
  try {
    baseUrl = new URL(base);
  } catch {
    return refuse('the document it is written in has no address to resolve it against');
  }
  const local = !isNetwork(baseUrl);
  if (/^file:/i.test(address)) {
    return refuse(local ? 'it is a file: address; references between local documents must be relative' : 'it is a file: address, and a document read over the network never reads local files');
  }
  if (address.startsWith('//') && local) return refuse('it names another machine ("//host/..."); a document read locally may only refer to documents beside it, or to a full http(s) address');
  if (address.startsWith('/') && baseUrl.protocol === 'file:') return refuse('it is an absolute path; references between local files must be relative to the document');
  let url: URL;
  try {
    url = new URL(ref, baseUrl);
  } catch {
    return refuse('it is not a valid URI reference');
  }
  if (url.protocol === 'file:' && url.host !== '') return refuse('it names a file on another machine');
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return refuse('its path is not valid percent-encoding');
  }
  const rawFragment = url.hash;
  url.hash = '';
  let fragment: string;
  try {
    fragment = decodeURIComponent(rawFragment.startsWith('#') ? rawFragment.slice(1) : rawFragment);
  } catch {
    return refuse('its #fragment is not valid percent-encoding');
  }
  if (scope.within && !url.href.startsWith(scope.within.folder)) return refuse(`it leads outside ${scope.within.name}`);
  return { ok: true, url: url.href, fragment, href: url.href + rawFragment };
}

export function refUnreadable(ref: string, document: string, reason: string): RefUnreadable {
  const shown = JSON.stringify(shorten(ref));
  return { code: 'ref-unreadable', ref: shorten(ref), document, reason, message: `The reference ${shown} in ${document} cannot be read: ${reason}.` };
}

function isNetwork(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function shorten(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
