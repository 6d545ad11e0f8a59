/**
 * RFC 6901 JSON Pointers, the one module for them: the checker's problems, the importer's `$ref`
 * fragments and report, the mock's documents and the project files all build and follow them here.
 */

export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of a path of property names and array indexes; "" is the whole value. */
export function pointerOf(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) out += '/' + (typeof segment === 'number' ? String(segment) : escapeSegment(segment));
  return out;
}

/** Splits a pointer into unescaped segments; undefined when it is not a pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Segments of a pointer, or of a `#fragment` (percent-decoded first, as a URI fragment is); [] when it is not a pointer. */
export function pointerSegments(pointerOrFragment: string): string[] {
  let body = pointerOrFragment;
  if (body.startsWith('#')) {
    body = body.slice(1);
    try {
      body = decodeURIComponent(body);
    } catch {
      // Not valid percent-encoding: read it as written.
    }
  }
  return parsePointer(body) ?? [];
}

/** `base` extended by segments, each escaped. */
export function joinPointer(base: string, ...segments: readonly (string | number)[]): string {
  return base + pointerOf(segments);
}

/** The value a pointer names inside `doc`, or `found: false`. Own properties only. */
export function valueAt(doc: unknown, pointer: string): { found: boolean; value: unknown } {
  const segments = parsePointer(pointer);
  if (!segments) return { found: false, value: undefined };
  let current = doc;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return { found: false, value: undefined };
      const index = Number(segment);
      if (index >= current.length) return { found: false, value: undefined };
      current = current[index];
    } else if (isObject(current) && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = current[segment];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: current };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
