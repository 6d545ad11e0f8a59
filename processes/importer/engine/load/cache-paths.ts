/**
 * Where each document of a definition is cached under the API's definition/ folder. Documents
 * from the entry's own place (its folder tree, or its origin) keep their layout relative to the
 * folder they all share, so relative `$ref`s still resolve between the cached copies; documents
 * from any other origin go under `_remote/<host>[_<port>]/`.
 */

const UNSAFE = /[\\/:*?"<>|\x00-\x1f]/g;

export function assignCachePaths(urls: readonly string[], pastedSyntax: 'json' | 'yaml'): string[] {
  const [entryUrl] = urls;
  if (entryUrl === undefined) return [];
  const entry = parse(entryUrl);
  const home = (u: URL | undefined) => u !== undefined && entry !== undefined && sameHome(u, entry);
  const parsed = urls.map(parse);
  const homeSegments = parsed.filter(home).map((u) => segmentsOf(u as URL));
  const root = commonFolder(homeSegments);
  const paths = parsed.map((u, i) => {
    if (i === 0 && (u === undefined || u.protocol === 'paste:')) return [`openapi.${pastedSyntax}`];
    if (u === undefined) return ['_remote', `document-${i}`];
    if (home(u)) return segmentsOf(u).slice(root.length);
    return ['_remote', safeSegment(u.port ? `${u.hostname}_${u.port}` : u.hostname), ...segmentsOf(u)];
  });
  return dedupe(paths.map((segments) => segments.map(safeSegment)));
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Same folder tree: same scheme and, for network documents, same origin. */
function sameHome(a: URL, b: URL): boolean {
  if (a.protocol === 'paste:' || b.protocol === 'paste:') return false;
  if (a.protocol === 'http:' || a.protocol === 'https:') return a.origin === b.origin;
  return a.protocol === b.protocol && a.host === b.host;
}

/** Decoded path segments; a path ending in '/' names an 'index' document. */
function segmentsOf(url: URL): string[] {
  const raw = url.pathname.split('/').slice(1);
  const segments = raw.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  if (segments.length === 0 || segments[segments.length - 1] === '') segments.splice(-1, 1, 'index');
  return segments;
}

function commonFolder(all: string[][]): string[] {
  const [first, ...rest] = all;
  if (!first) return [];
  const prefix = first.slice(0, -1);
  for (const segments of rest) {
    let i = 0;
    while (i < prefix.length && i < segments.length - 1 && segments[i] === prefix[i]) i++;
    prefix.length = i;
  }
  return prefix;
}

function safeSegment(segment: string): string {
  if (segment === '' || segment === '.' || segment === '..') return '_';
  return segment.replace(UNSAFE, '_');
}

/**
 * Two documents never share a file, and no file takes a name another document needs as a
 * folder (a Swagger 1.x listing at /api-docs with declarations at /api-docs/pet).
 */
function dedupe(paths: string[][]): string[] {
  const folders = new Set<string>();
  for (const segments of paths) {
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/').toLowerCase());
  }
  const taken = new Set<string>();
  return paths.map((segments) => {
    const joined = segments.join('/');
    let candidate = joined;
    for (let n = 2; taken.has(candidate.toLowerCase()) || folders.has(candidate.toLowerCase()); n++) {
      candidate = withSuffix(joined, n);
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

function withSuffix(path: string, n: number): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? `${path.slice(0, dot)}~${n}${path.slice(dot)}` : `${path}~${n}`;
}
