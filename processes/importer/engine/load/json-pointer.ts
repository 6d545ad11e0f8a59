/** JSON Pointers (RFC 6901) as the import report and `$ref` fragments use them. */

/** Segments of a pointer or a `#fragment`; the fragment may be percent-encoded. */
export function pointerSegments(pointer: string): string[] {
  let body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (pointer.startsWith('#')) {
    try {
      body = decodeURIComponent(body);
    } catch {
      // Not valid percent-encoding: read it as written.
    }
  }
  if (body === '') return [];
  return body
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function joinPointer(base: string, ...segments: (string | number)[]): string {
  return base + segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** The value a pointer names inside `root`, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (node !== null && typeof node === 'object') node = Object.prototype.hasOwnProperty.call(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
