/**
 * Routes a request path to an operation by method and path template, by the contract check's
 * own rule (checker/engine/path-template.ts): a concrete segment beats a templated one at the
 * first place two templates differ (`/pets/mine` beats `/pets/{id}`).
 */
import { compareTemplates, compileTemplate, decodeSegments, matchTemplate, type TemplateSegment } from '../../checker/engine/path-template.js';

interface Route<T> {
  method: string;
  segments: TemplateSegment[];
  target: T;
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

  constructor(routes: Array<{ method: string; path: string; target: T }>) {
    for (const route of routes) {
      const method = route.method.toUpperCase();
      const segments = compileTemplate(route.path);
      if (segments.every((s) => s.rank === 2)) {
        const key = `/${segments.map((s) => s.literal).join('/')}`;
        let byPath = this.exact.get(method);
        if (!byPath) this.exact.set(method, (byPath = new Map()));
        if (!byPath.has(key)) byPath.set(key, { target: route.target, params: NO_PARAMS });
      } else this.templated.push({ method, segments, target: route.target });
    }
    this.templated.sort((a, b) => compareTemplates(a.segments, b.segments));
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
}

/** `/a/b` form: starts with `/`, no `%`, no `//`, no trailing `/` (unless it is `/` itself). */
function isPlain(path: string): boolean {
  const n = path.length;
  if (n === 0 || path.charCodeAt(0) !== 47) return false;
  if (n === 1) return true;
  if (path.charCodeAt(n - 1) === 47) return false;
  return path.indexOf('%') < 0 && path.indexOf('//') < 0;
}
