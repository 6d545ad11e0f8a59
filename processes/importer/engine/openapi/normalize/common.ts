/**
 * Pieces every normalizer shares: the report collector, base URLs from servers, folders from
 * tags, and security requirement lists.
 */
import { safeFileName } from '../../../../../protocol/project/safe-path.js';
import type { ReportItem, UnimportedItem } from '../../../../../protocol/model/import.js';
import type { DocumentSet } from '../../load/document-set.js';
import type { NRequirement, Part } from './model.js';
import { arr, isObj, ownValue, str, type Obj } from './values.js';

/** Collects report items with their location in the source. */
export class Collector {
  readonly warnings: ReportItem[] = [];
  readonly errors: ReportItem[] = [];
  readonly unimported: UnimportedItem[] = [];

  constructor(private readonly set: DocumentSet) {}

  warn(message: string, at?: Part): void {
    this.warnings.push({ message, ...(at ? this.set.locate(at.docUrl, at.pointer) : {}) });
  }

  error(message: string, at?: Part): void {
    this.errors.push({ message, ...(at ? this.set.locate(at.docUrl, at.pointer) : {}) });
  }

  skip(item: string, reason: string, at?: Part): void {
    this.unimported.push({ item, reason, ...(at ? this.set.locate(at.docUrl, at.pointer) : {}) });
  }
}

/** A server URL with its variables set to their defaults, absolute where it can be, no trailing '/'. */
export function serverUrl(server: unknown, docUrl: string): string | undefined {
  if (!isObj(server)) return undefined;
  const raw = str(server['url']);
  if (raw === undefined) return undefined;
  const variables = isObj(server['variables']) ? server['variables'] : {};
  const substituted = raw.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = ownValue(variables, name);
    if (!isObj(variable)) return whole;
    const value = variable['default'] ?? arr(variable['enum'])[0];
    return value === undefined ? whole : String(value);
  });
  return trimBase(absoluteAgainst(substituted, docUrl));
}

/** A relative server URL resolves against a document fetched over HTTP; otherwise it stays relative. */
export function absoluteAgainst(url: string, docUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || !/^https?:/i.test(docUrl)) return url;
  try {
    return new URL(url, docUrl).href;
  } catch {
    return url;
  }
}

export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** `tags[0]` as a folder path; with OpenAPI 3.2 `parent` tags the parents become outer folders. */
export function folderFor(tags: unknown, parents: ReadonlyMap<string, string>): string {
  const first = arr(tags).find((t): t is string => typeof t === 'string' && t.trim() !== '');
  if (first === undefined) return '';
  const chain = [first];
  for (let tag = parents.get(first); tag !== undefined && !chain.includes(tag) && chain.length < 16; tag = parents.get(tag)) chain.unshift(tag);
  return chain.map((t) => safeFileName(t, 'tag')).join('/');
}

/** Tag name -> parent tag name (OpenAPI 3.2 hierarchical tags). */
export function tagParents(root: Obj): Map<string, string> {
  const parents = new Map<string, string>();
  for (const tag of arr(root['tags'])) {
    if (!isObj(tag)) continue;
    const name = str(tag['name']);
    const parent = str(tag['parent']);
    if (name !== undefined && parent !== undefined && parent !== name) parents.set(name, parent);
  }
  return parents;
}

/** A `security` array as requirement groups; undefined when the key is absent. */
export function readRequirements(value: unknown): NRequirement[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isObj).map((group) =>
    Object.entries(group).map(([scheme, scopes]) => ({
      scheme,
      scopes: arr(scopes).filter((s): s is string => typeof s === 'string'),
    })),
  );
}
