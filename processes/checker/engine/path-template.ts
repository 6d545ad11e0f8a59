/**
 * OpenAPI path templates, the one rule for which operation a path belongs to: the contract
 * check's operation choice and the mock's routing both use it, so a mock's answer and its
 * check are about the same operation.
 *
 * Ranking (OpenAPI: concrete paths before templated ones): segments are compared left to right,
 * and at the first place two templates differ a literal segment beats one with text around a
 * parameter, which beats a whole-segment parameter. So `/pets/mine` beats `/pets/{id}`, and for
 * `/x/b/c`, `/x/{b}/{c}` beats `/{a}/b/c` (as a router's tree would decide it).
 */

export interface TemplateSegment {
  /** Set for a segment without parameters, decoded. */
  literal?: string;
  /** Set for a segment with parameters: one capture group per name, in order. */
  pattern?: RegExp;
  names: string[];
  /** 2 literal, 1 literal text around a parameter, 0 a whole-segment parameter. */
  rank: number;
}

/** Path segments without the leading slash; a trailing slash does not count. */
export function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

export function compileTemplate(path: string): TemplateSegment[] {
  return splitPath(path).map(compileSegment);
}

function compileSegment(text: string): TemplateSegment {
  if (!text.includes('{')) return { literal: safeDecode(text), names: [], rank: 2 };
  const names: string[] = [];
  let source = '^';
  let rest = text;
  for (let m = /\{([^}]*)\}/.exec(rest); m; m = /\{([^}]*)\}/.exec(rest)) {
    source += escapeRegExp(safeDecode(rest.slice(0, m.index))) + '(.+?)';
    names.push(m[1]!);
    rest = rest.slice(m.index + m[0].length);
  }
  source += `${escapeRegExp(safeDecode(rest))}$`;
  return { pattern: new RegExp(source, 's'), names, rank: /^\{[^}]*\}$/.test(text) ? 0 : 1 };
}

/**
 * Whether decoded request path segments fit a template. Path parameters go into `params` when
 * given (a null-prototype object is the caller's: any name, `__proto__` included, is a plain key).
 */
export function matchTemplate(template: readonly TemplateSegment[], parts: readonly string[], params?: Record<string, string>): boolean {
  if (template.length !== parts.length) return false;
  for (let i = 0; i < template.length; i++) {
    const seg = template[i]!;
    const part = parts[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== part) return false;
      continue;
    }
    if (part === '') return false;
    const m = seg.pattern!.exec(part);
    if (!m) return false;
    if (params) seg.names.forEach((name, n) => (params[name] = m[n + 1]!));
  }
  return true;
}

/** Negative when `a` should be tried before `b` (module comment); 0 only when they rank the same segment by segment. */
export function compareTemplates(a: readonly TemplateSegment[], b: readonly TemplateSegment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = b[i]!.rank - a[i]!.rank;
    if (d !== 0) return d;
  }
  // Only templates of one length can match one path; ordering by length keeps this a total order,
  // which a sort needs (without it `/{q}` "equalled" both `/{p}/{p}` and `/{p}/v{n}` and the
  // router's sort could put `/{p}/{p}` first, while the checker picked `/{p}/v{n}`).
  return a.length - b.length;
}

/** Decoded segments of a request path, or null when one has a broken escape (it fits no template). */
export function decodeSegments(path: string): string[] | null {
  try {
    return splitPath(path).map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
