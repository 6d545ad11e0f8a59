/**
 * Routes a request path to an operation by method and path template, by the contract check's
 * own rule (checker/engine/path-template.ts and select-operation.ts): a concrete segment beats a
 * templated one at the first place two templates differ (`/pets/mine` beats `/pets/{id}`), and a
 * route given path prefixes (Swagger 2.0 `basePath`, a 3.x server URL's path) also answers below
 * them, a match with a prefix removed ranking before any match of the whole path, as the check
 * ranks them. Equal ranks go to the route given first.
 */
import { requestPath } from '../../checker/engine/select-operation.js';
import { compareTemplates, compileTemplate, decodeSegments, matchTemplate, type TemplateSegment } from '../../checker/engine/path-template.js';

interface Route<T> {
  method: string;
  segments: TemplateSegment[];
  target: T;
}

/** A route's place in one table: its match, what it is ranked by, and its order among the routes. */
interface Ranked<T> {
  match: RouteMatch<T>;
  segments: TemplateSegment[];
  index: number;
}

/** The routes under one path prefix, looked up in the rest of the path. */
interface PrefixTable<T> {
  exact: Map<string, Map<string, Ranked<T>>>;
  templated: (Route<T> & { index: number })[];
}

export interface RouteMatch<T> {
  target: T;
  /**
   * Path parameters by name, a null-prototype object: a contract's `{constructor}` or
   * `{__proto__}` is a parameter like any other, and a name the path does not have finds nothing.
   */
  params: Record<string, string>;
}

/** A match of a path without parameters: shared, so an exact hit allocates nothing. */
const NO_PARAMS: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);

export class Router<T> {
  /**
   * Exact paths without parameters, by method then normalized path (`/a/b`, decoded), for a
   * lookup without a scan. Each value is the match itself, made once.
   */
  private readonly exact = new Map<string, Map<string, RouteMatch<T>>>();
  private readonly templated: Route<T>[] = [];
  /** Routes by the non-empty path prefixes they were given; empty when none was. */
  private readonly prefixed = new Map<string, PrefixTable<T>>();

  constructor(routes: Array<{ method: string; path: string; target: T; prefixes?: readonly string[] | undefined }>) {
    for (const [index, route] of routes.entries()) {
      const method = route.method.toUpperCase();
      const segments = compileTemplate(route.path);
      for (const prefix of route.prefixes ?? []) if (prefix !== '') this.addPrefixed(prefix, method, segments, route.target, index);
      if (segments.every((s) => s.rank === 2)) {
        const key = `/${segments.map((s) => s.literal).join('/')}`;
        let byPath = this.exact.get(method);
        if (!byPath) this.exact.set(method, (byPath = new Map()));
        if (!byPath.has(key)) byPath.set(key, { target: route.target, params: NO_PARAMS });
      } else this.templated.push({ method, segments, target: route.target });
    }
    this.templated.sort((a, b) => compareTemplates(a.segments, b.segments));
    for (const table of this.prefixed.values()) table.templated.sort((a, b) => compareTemplates(a.segments, b.segments) || a.index - b.index);
  }

  private addPrefixed(prefix: string, method: string, segments: TemplateSegment[], target: T, index: number): void {
    let table = this.prefixed.get(prefix);
    if (!table) this.prefixed.set(prefix, (table = { exact: new Map(), templated: [] }));
    if (segments.every((s) => s.rank === 2)) {
      const key = `/${segments.map((s) => s.literal).join('/')}`;
      let byPath = table.exact.get(method);
      if (!byPath) table.exact.set(method, (byPath = new Map()));
      if (!byPath.has(key)) byPath.set(key, { match: { target, params: NO_PARAMS }, segments, index });
    } else table.templated.push({ method, segments, target, index });
  }

  /**
   * `path` is the request path without query, still percent-encoded. The params of a match are
   * the caller's to read, not to change (an exact match shares one frozen empty object).
   */
  match(method: string, path: string): RouteMatch<T> | undefined {
    const found = this.find(method, path);
    // HEAD is answered by GET's responses when the contract has no HEAD of its own.
    return found ?? (method === 'HEAD' ? this.find('GET', path) : undefined);
  }

  private find(method: string, path: string): RouteMatch<T> | undefined {
    // The path as the check reads a URL's (WHATWG): `/café` is `/caf%C3%A9`, `/a/../b` is `/b`, `\` is `/`.
    if (!URL_SAFE_PATH.test(path) || DOT_SEGMENT.test(path)) path = requestPath(`http://mock${path}`);
    if (this.prefixed.size > 0) {
      const below = this.findBelowPrefix(method, path);
      if (below) return below;
    }
    // The common case first: a plain path (no escapes, no empty segment, no trailing slash) is
    // already in the normalized form, so it is looked up as it is, without splitting it.
    if (isPlain(path)) {
      const hit = this.exact.get(method)?.get(path);
      if (hit !== undefined) return hit;
      if (this.templated.length === 0) return undefined;
    }
    const parts = decodeSegments(path);
    if (!parts) return undefined;
    const exact = this.exact.get(method)?.get(`/${parts.join('/')}`);
    if (exact !== undefined) return exact;
    for (const route of this.templated) {
      if (route.method !== method || route.segments.length !== parts.length) continue;
      const params = Object.create(null) as Record<string, string>;
      if (matchTemplate(route.segments, parts, params)) return { target: route.target, params };
    }
    return undefined;
  }

  /** The best route matching the path with one of its prefixes removed, by the check's ranking. */
  private findBelowPrefix(method: string, path: string): RouteMatch<T> | undefined {
    let best: Ranked<T> | undefined;
    for (const [prefix, table] of this.prefixed) {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      const parts = decodeSegments(path.slice(prefix.length));
      if (!parts) continue;
      const found = this.findIn(table, method, parts);
      if (found && (!best || (compareTemplates(found.segments, best.segments) || found.index - best.index) < 0)) best = found;
    }
    return best?.match;
  }

  private findIn(table: PrefixTable<T>, method: string, parts: string[]): Ranked<T> | undefined {
    const exact = table.exact.get(method)?.get(`/${parts.join('/')}`);
    if (exact !== undefined) return exact;
    for (const route of table.templated) {
      if (route.method !== method || route.segments.length !== parts.length) continue;
      const params = Object.create(null) as Record<string, string>;
      if (matchTemplate(route.segments, parts, params)) return { match: { target: route.target, params }, segments: route.segments, index: route.index };
    }
    return undefined;
  }
}

/** A path the URL parser leaves as it is: nothing it encodes, no `\\` (read as `/`), no dot segment (`.`, `..`, `%2e`). */
const URL_SAFE_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /%2e|\/\.\.?(\/|$)/i;

/** `/a/b` form: starts with `/`, no `%`, no `//`, no trailing `/` (unless it is `/` itself). */
function isPlain(path: string): boolean {
  const n = path.length;
  if (n === 0 || path.charCodeAt(0) !== 47) return false;
  if (n === 1) return true;
  if (path.charCodeAt(n - 1) === 47) return false;
  return path.indexOf('%') < 0 && path.indexOf('//') < 0;
}
