/**
 * Paths into a JSON value (property names and array indexes), their labels as the form shows
 * them (`owner.name`, `tags[0]`, `["content-type"]`), and copy-on-write reads and writes by path.
 * Where a key occurs twice, the last one counts, as it does for JSON.parse.
 */
import type { JsonValue } from './json-value.js';

export type PathSegment = string | number;
export type Path = readonly PathSegment[];

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** Dotted names and bracketed indexes; a name that is not a plain word is bracketed and quoted. */
export function pathLabel(path: Path): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export function getAt(root: JsonValue | undefined, path: Path): JsonValue | undefined {
  let current = root;
  for (const segment of path) {
    if (!current) return undefined;
    if (typeof segment === 'number') current = current.kind === 'array' ? current.items[segment] : undefined;
    else current = current.kind === 'object' ? current.entries.findLast((e) => e.key === segment)?.value : undefined;
  }
  return current;
}

/** Sets a value, making the objects and arrays on the way where they are missing (or of another kind). */
export function setAt(root: JsonValue | undefined, path: Path, value: JsonValue): JsonValue {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const items = root?.kind === 'array' ? [...root.items] : [];
    items[Math.min(head, items.length)] = setAt(items[head], rest, value);
    return { kind: 'array', items };
  }
  const entries = root?.kind === 'object' ? [...root.entries] : [];
  let at = -1;
  for (let i = entries.length - 1; i >= 0 && at < 0; i--) if (entries[i]!.key === head) at = i;
  if (at < 0) entries.push({ key: head, value: setAt(undefined, rest, value) });
  else entries[at] = { key: head, value: setAt(entries[at]!.value, rest, value) };
  return { kind: 'object', entries };
}

/** Removes a property (every occurrence of its key) or an array item; the root itself becomes no value. */
export function removeAt(root: JsonValue | undefined, path: Path): JsonValue | undefined {
  const [head, ...rest] = path;
  if (head === undefined || !root) return undefined;
  if (rest.length > 0) {
    const inner = getAt(root, [head]);
    return inner ? setAt(root, [head], removeAt(inner, rest) ?? inner) : root;
  }
  if (typeof head === 'number') return root.kind === 'array' ? { kind: 'array', items: root.items.filter((_, i) => i !== head) } : root;
  return root.kind === 'object' ? { kind: 'object', entries: root.entries.filter((e) => e.key !== head) } : root;
}
