/**
 * URI handling for `$ref`, `$id` and document addresses. Documents given with a relative uri
 * (a path inside the API folder) are placed under `parley:/` so that relative references
 * between them still resolve the way RFC 3986 says.
 */

const RELATIVE_ROOT = 'parley:/';

/** The absolute form of a document's uri, without fragment. */
export function normalizeDocumentUri(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    url = new URL(uri.replace(/^\.?\//, ''), RELATIVE_ROOT);
  }
  url.hash = '';
  return url.href;
}

/** Resolves `ref` against `base`: the resource part (no fragment) and the decoded fragment. */
export function resolveReference(ref: string, base: string): { resource: string; fragment: string } | undefined {
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    return undefined;
  }
  const hash = url.hash;
  url.hash = '';
  let fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  // A bare "#" leaves an empty hash on the URL but the ref still points at the resource root.
  return { resource: url.href, fragment };
}
