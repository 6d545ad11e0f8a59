/**
 * Which operation of the definition a request is checked against (Contract-check rules 1 and 2):
 * the linked operation while the request still calls it, else a match by method and path,
 * where a server's own path prefix is removed first and then a concrete path beats a templated one
 * by the one rule the mock's routing also follows (path-template.ts).
 */
import { OPENAPI_32_METHODS, SWAGGER_METHODS } from '../../../protocol/openapi-methods.js';
import type { OperationLink } from '../../../protocol/model/request.js';
import type { PreparedDefinition } from './definition.js';
import { escapeSegment, isObject } from '../../../protocol/json-pointer.js';
import type { Loc } from './keywords/site.js';
import { compareTemplates, compileTemplate, decodeSegments, matchTemplate, type TemplateSegment } from './path-template.js';


export interface OperationEntry {
  /** As the document writes them. */
  method: string;
  path: string;
  loc: Loc;
  /** Server path prefixes that apply, longest first, without trailing slash ("" for none). */
  prefixes: string[];
  segments: TemplateSegment[];
}

/** The path of a URL as sent (any host), or of a bare path. */
export function requestPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/**
 * The path part of a server URL: variables take their default, a relative URL resolves
 * against the document's own address when that is http(s), else against "/".
 */
export function serverPathPrefix(serverUrl: string, variables: unknown, documentUri: string): string {
  const vars = isObject(variables) ? variables : {};
  const filled = serverUrl.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = Object.hasOwn(vars, name) ? vars[name] : undefined;
    return isObject(v) && typeof v.default === 'string' ? v.default : whole;
  });
  let path: string;
  const absolute = /^[^/?#]*\/\/[^/?#]*/.exec(filled);
  if (absolute) {
    // Scheme and host may still hold variables without defaults: only the path matters.
    path = filled.slice(absolute[0].length).replace(/[?#].*$/, '');
  } else {
    try {
      const base = /^https?:/.test(documentUri) ? documentUri : 'http://host/';
      path = new URL(filled, base).pathname;
    } catch {
      path = filled.replace(/[?#].*$/, '');
    }
  }
  return path.replace(/\/+$/, '');
}

function serversOf(node: unknown): unknown[] | undefined {
  return isObject(node) && Array.isArray(node.servers) && node.servers.length > 0 ? node.servers : undefined;
}

function prefixesOf(servers: unknown[] | undefined, documentUri: string): string[] {
  const out = new Set<string>();
  for (const s of servers ?? []) {
    if (isObject(s) && typeof s.url === 'string') out.add(serverPathPrefix(s.url, s.variables, documentUri));
  }
  out.add('');
  return [...out].sort((a, b) => b.length - a.length);
}

/** Every operation of the definition with what it takes to match it. */
export function listOperations(def: PreparedDefinition): OperationEntry[] {
  const doc = def.entry;
  const paths = doc.paths;
  if (!isObject(paths)) return [];
  const out: OperationEntry[] = [];
  const swagger = def.dialect === 'swagger2';
  const rootPrefixes = swagger
    ? prefixesOf(typeof doc.basePath === 'string' ? [{ url: doc.basePath }] : undefined, def.entryUri)
    : undefined;
  for (const path of Object.keys(paths)) {
    const followed = def.follow({ docUri: def.entryUri, pointer: `/paths/${escapeSegment(path)}` });
    if (typeof followed === 'string' || !isObject(followed.value)) continue;
    const item = followed.value;
    const segments = compileTemplate(path);
    const methods: [string, Loc][] = [];
    for (const m of swagger ? SWAGGER_METHODS : OPENAPI_32_METHODS) {
      if (isObject(item[m])) methods.push([m, { docUri: followed.loc.docUri, pointer: `${followed.loc.pointer}/${m}` }]);
    }
    // OpenAPI 3.2: methods without a fixed field live under additionalOperations.
    if (!swagger && isObject(item.additionalOperations)) {
      for (const m of Object.keys(item.additionalOperations)) {
        methods.push([m, { docUri: followed.loc.docUri, pointer: `${followed.loc.pointer}/additionalOperations/${escapeSegment(m)}` }]);
      }
    }
    for (const [method, loc] of methods) {
      const op = def.schemaValue(loc);
      const prefixes = rootPrefixes ?? prefixesOf(serversOf(op) ?? serversOf(item) ?? serversOf(doc), def.entryUri);
      out.push({ method, path, loc, prefixes, segments });
    }
  }
  return out;
}

/**
 * How well an operation fits a request path: undefined if not at all; lower is better. `decoded`
 * holds the path's segments after each prefix, decoded once per request rather than once per
 * operation (a capture of 35,000 calls spent a tenth of its time decoding the same paths).
 */
function fit(op: OperationEntry, path: string, decoded: Map<string, string[] | null>): number | undefined {
  for (let p = 0; p < op.prefixes.length; p++) {
    const prefix = op.prefixes[p]!;
    if (prefix !== '' && path !== prefix && !path.startsWith(prefix + '/')) continue;
    let parts = decoded.get(prefix);
    if (parts === undefined) decoded.set(prefix, (parts = decodeSegments(path.slice(prefix.length))));
    // A prefix that was really removed ranks before matching the path whole.
    if (parts && matchTemplate(op.segments, parts)) return prefix === '' ? 1 : 0;
  }
  return undefined;
}

export function matchOperation(
  ops: readonly OperationEntry[],
  method: string,
  url: string,
  link?: OperationLink,
): OperationEntry | undefined {
  const wanted = method.toLowerCase();
  const path = requestPath(url);
  const decoded = new Map<string, string[] | null>();
  if (link && link.method.toLowerCase() === wanted) {
    const linked = ops.find((op) => op.method.toLowerCase() === wanted && op.path === link.path);
    if (linked && fit(linked, path, decoded) !== undefined) return linked;
  }
  let best: { op: OperationEntry; rank: number } | undefined;
  for (const op of ops) {
    if (op.method.toLowerCase() !== wanted) continue;
    const rank = fit(op, path, decoded);
    if (rank === undefined) continue;
    if (!best || better(rank, op, best.rank, best.op)) best = { op, rank };
  }
  return best?.op;
}

function better(rank: number, op: OperationEntry, bestRank: number, bestOp: OperationEntry): boolean {
  if (rank !== bestRank) return rank < bestRank;
  return compareTemplates(op.segments, bestOp.segments) < 0;
}
