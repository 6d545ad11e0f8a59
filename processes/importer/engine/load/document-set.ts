/**
 * Every document one definition consists of, kept as written (never merged into one blob):
 * the entry first, then each document a `$ref` reached, in the order they were found. `$ref`s
 * are resolved on demand against the document they appear in.
 */
import { createHash } from 'node:crypto';
import type { SourceLocation } from '../../../../protocol/model/import.js';
import { valueAt } from './json-pointer.js';
import type { ParsedText } from './parse-text.js';

export interface SourceDocument extends ParsedText {
  /** Where it was read from (no credential in it); the base of its relative references. */
  url: string;
  /** Path under the API's definition/ folder; also the name the report uses. */
  cachePath: string;
  bytes: Uint8Array;
}

export interface Resolved {
  doc: SourceDocument;
  /** JSON Pointer inside `doc` ('' for the whole document). */
  pointer: string;
  value: unknown;
}

/** How many `$ref` hops one lookup follows before giving up (a ref cycle). */
const MAX_REF_CHAIN = 64;

export class DocumentSet {
  private readonly byUrl = new Map<string, SourceDocument>();

  /** `aliases`: an address a reference names -> the url of the document a redirect led to. */
  constructor(
    readonly documents: SourceDocument[],
    aliases: ReadonlyMap<string, string> = new Map(),
  ) {
    for (const doc of documents) this.byUrl.set(doc.url, doc);
    for (const [alias, url] of aliases) {
      const doc = this.byUrl.get(url);
      if (doc && !this.byUrl.has(alias)) this.byUrl.set(alias, doc);
    }
  }

  get entry(): SourceDocument {
    const first = this.documents[0];
    if (!first) throw new Error('a document set always has an entry');
    return first;
  }

  get(url: string): SourceDocument | undefined {
    return this.byUrl.get(url);
  }

  /** Where a `$ref` written in the document at `fromUrl` points; undefined when unresolvable. */
  resolveRef(fromUrl: string, ref: string): Resolved | undefined {
    const target = absoluteRef(fromUrl, ref);
    if (target === undefined) return undefined;
    const doc = this.byUrl.get(target.url);
    if (!doc) return undefined;
    const value = valueAt(doc.value, target.fragment);
    if (value === undefined) return undefined;
    return { doc, pointer: decodeFragment(target.fragment), value };
  }

  /**
   * Follows `$ref` until a node that is not a reference. `node` sits in the document at
   * `fromUrl` at `pointer`. Returns undefined for a dangling or cyclic chain.
   */
  deref(fromUrl: string, pointer: string, node: unknown): Resolved | undefined {
    let current: Resolved = { doc: this.byUrl.get(fromUrl) ?? this.entry, pointer, value: node };
    for (let hops = 0; hops < MAX_REF_CHAIN; hops++) {
      const ref = refOf(current.value);
      if (ref === undefined) return current;
      const next = this.resolveRef(current.doc.url, ref);
      if (!next) return undefined;
      current = next;
    }
    return undefined;
  }

  /** A report location for a pointer in a document. */
  locate(docUrl: string, pointer: string): SourceLocation {
    const doc = this.byUrl.get(docUrl);
    if (!doc) return { path: pointer || '/' };
    const line = doc.locate(pointer);
    return { file: doc.cachePath, path: pointer || '/', ...(line !== undefined ? { line } : {}) };
  }
}

/** The `$ref` string of a reference object, if it is one. */
export function refOf(node: unknown): string | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' ? ref : undefined;
}

/** The document URL (no fragment) and the fragment a reference names, or undefined if unparsable. */
export function absoluteRef(fromUrl: string, ref: string): { url: string; fragment: string } | undefined {
  try {
    const url = new URL(ref, fromUrl);
    const fragment = url.hash;
    url.hash = '';
    return { url: url.href, fragment: fragment === '' ? '' : fragment };
  } catch {
    return undefined;
  }
}

/** A `#fragment` as a plain JSON Pointer. */
export function decodeFragment(fragment: string): string {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  try {
    return decodeURIComponent(body);
  } catch {
    return body;
  }
}

/**
 * sha256 over every document's bytes: entry first, then by URL, each framed by its URL and
 * length so two different splits of the same bytes never collide.
 */
export function fingerprintDocuments(documents: readonly { url: string; bytes: Uint8Array }[]): string {
  const [entry, ...rest] = documents;
  const ordered = entry ? [entry, ...[...rest].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))] : [];
  const hash = createHash('sha256');
  for (const doc of ordered) {
    hash.update(`${doc.url}\n${doc.bytes.length}\n`);
    hash.update(doc.bytes);
  }
  return `sha256:${hash.digest('hex')}`;
}
