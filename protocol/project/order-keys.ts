/**
 * The place of an API, folder or request among its siblings: a fractional index key (base 62,
 * `a0`, `a1`, `a0V`, ...) kept in the item's own file as `order:` (docs/project-files.md, "Order").
 * A key sorts between its neighbours' keys by plain code units, so a move rewrites only the
 * moved item's file, and two people adding to one folder write two new files and no shared one.
 *
 * One sibling order for every reader (the sidebar, `parley run`, the store's placement):
 * items without a key (a project written before keys) come first, in the order Parley always
 * showed (folders by name in code units, then requests or APIs by name); then items with a key,
 * by key, equal keys (two branches that each appended to one folder) by kind (folders first),
 * name and id. So an old project shows exactly its old order until something in a parent is moved.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/** Longest key a file may hold: far past what years of moves make, short of a bad file's megabyte. */
export const MAX_ORDER_KEY = 200;

/** What the sibling order reads of an item. */
export interface Orderable {
  kind: 'api' | 'folder' | 'request';
  id: string;
  name: string;
  order?: string | undefined;
}

/** `localeCompare`'s order (the default locale), without building a collator per call. */
const byName = new Intl.Collator().compare;

function codeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Folders before requests when nothing else tells them apart. */
function kindRank(item: Orderable): number {
  return item.kind === 'folder' ? 0 : 1;
}

/** How the names of two unkeyed siblings compare, as Parley always sorted them. */
function namedOrder(a: Orderable, b: Orderable): number {
  if (a.kind === 'folder' && b.kind === 'folder') return codeUnits(a.name, b.name) || codeUnits(a.id, b.id);
  return byName(a.name, b.name) || codeUnits(a.name, b.name) || codeUnits(a.id, b.id);
}

/** The one order of siblings (see the module's comment). */
export function compareSiblings(a: Orderable, b: Orderable): number {
  const keyA = a.order;
  const keyB = b.order;
  if (keyA === undefined || keyB === undefined) {
    if (keyA !== keyB) return keyA === undefined ? -1 : 1;
    return kindRank(a) - kindRank(b) || namedOrder(a, b);
  }
  return codeUnits(keyA, keyB) || kindRank(a) - kindRank(b) || namedOrder(a, b);
}

/** Whether `key` is a key the generator accepts (a file edited by hand may hold anything). */
export function isOrderKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_ORDER_KEY) return false;
  try {
    generateKeyBetween(key, null);
    return true;
  } catch {
    return false;
  }
}

/** The key after `last` (null: the first key). */
export function keyAfter(last: string | null | undefined): string {
  return last && isOrderKey(last) ? generateKeyBetween(last, null) : generateKeyBetween(null, null);
}

/**
 * Keys for `count` items put at `index` among `siblings` (in sibling order, without the items
 * being placed), and the siblings that must take a new key for the placement to hold: none in
 * the common case. Unkeyed siblings from `index` up to the first keyed one get keys (they would
 * sort before any key); so do siblings whose key ties with the one before `index` (a merge left
 * two equal keys) or that no key can be found beside (a key edited by hand into nonsense).
 */
export function placeAt<T extends Orderable>(siblings: readonly T[], index: number, count: number): { keys: string[]; rekeyed: Map<T, string> } {
  const at = Math.max(0, Math.min(index, siblings.length));
  const rekeyed = new Map<T, string>();
  if (count <= 0) return { keys: [], rekeyed };
  const lower = at > 0 ? siblings[at - 1]!.order : undefined;
  // Everything from `at` that would not sort after the placed items takes a key after them.
  let end = at;
  while (end < siblings.length) {
    const key = siblings[end]!.order;
    if (key !== undefined && isOrderKey(key) && (lower === undefined || key > lower)) break;
    end++;
  }
  const upper = siblings[end]?.order ?? null;
  const lowerKey = lower !== undefined && isOrderKey(lower) ? lower : null;
  if (lower !== undefined && lowerKey === null) return renumbered(siblings, at, count);
  let keys: string[];
  try {
    keys = generateNKeysBetween(lowerKey, upper, count + (end - at));
  } catch {
    return renumbered(siblings, at, count);
  }
  for (let i = at; i < end; i++) rekeyed.set(siblings[i]!, keys[count + i - at]!);
  return { keys: keys.slice(0, count), rekeyed };
}

/** Fresh keys for the whole parent in its present order, the placed items at `at`: the way out of keys no placement can sit between. */
function renumbered<T extends Orderable>(siblings: readonly T[], at: number, count: number): { keys: string[]; rekeyed: Map<T, string> } {
  const all = generateNKeysBetween(null, null, siblings.length + count);
  const rekeyed = new Map<T, string>();
  siblings.forEach((sibling, i) => rekeyed.set(sibling, all[i < at ? i : i + count]!));
  return { keys: all.slice(at, at + count), rekeyed };
}

/**
 * The one rule of every importer (docs/importers.md, "Order"): each folder and request gets the
 * key of its position in its parent as the source lists them, folders and requests interleaved.
 * A folder takes its place where it first appears (its ancestors before it); asked again, it
 * keeps it. Keys run `a0`, `a1`, ... per parent, so the same source always gives the same keys.
 */
export class SourceOrder {
  /** Parent folder path ('' the API's top) -> the last key given there. */
  private readonly last = new Map<string, string>();
  /** Folder path -> its key, in the order the folders were placed. */
  private readonly placed = new Map<string, string>();

  /** The key of the next item in `folder`. */
  next(folder: string): string {
    const key = keyAfter(this.last.get(folder));
    this.last.set(folder, key);
    return key;
  }

  /** Places `path` ('/'-separated) and its ancestors where they first appear. */
  folder(path: string): void {
    const segments = path.split('/').filter((s) => s !== '');
    for (let i = 1; i <= segments.length; i++) {
      const sub = segments.slice(0, i).join('/');
      if (!this.placed.has(sub)) this.placed.set(sub, this.next(segments.slice(0, i - 1).join('/')));
    }
  }

  /** `request` with the key of the next place in `folder` (the folder placed first). */
  request<R extends object>(folder: string, request: R): R & { order: string } {
    this.folder(folder);
    return { ...request, order: this.next(folder) };
  }

  /** Every folder placed, with its key, in the order they were placed. */
  folders(): { path: string; order: string }[] {
    return [...this.placed].map(([path, order]) => ({ path, order }));
  }
}
