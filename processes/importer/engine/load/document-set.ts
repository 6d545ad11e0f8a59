/**
 * Every document one definition consists of, kept as written (never merged into one blob):
 * the entry first, then each document a `$ref` reached, in the order they were found. `$ref`s
 * are resolved on demand against the document they appear in.
 */
import { createHash } from 'node:crypto';
import type { SourceLocation } from '../../../../protocol/model/import.js';
import { resolveRefLocation, type RefLocation, type RefScope } from '../../../../protocol/ref-location.js';
import { valueAt } from '../../../../protocol/json-pointer.js';
import { followRefChain } from '../../../../protocol/ref-chain.js';
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

export class DocumentSet {
  private readonly byUrl = new Map<string, SourceDocument>();

  /**
   * `aliases`: an address a reference names -> the url of the document a redirect led to.
   * `within`: the folder every reference must stay in (a cached definition read back).
   */
  constructor(
    readonly documents: SourceDocument[],
    aliases: ReadonlyMap<string, string> = new Map(),
    private readonly within?: RefScope['within'],
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

  /** Where a `$ref` written in the document at `fromUrl` points, by the shared rule (protocol/ref-location). */
  locateRef(fromUrl: string, ref: string): RefLocation {
    const from = this.byUrl.get(fromUrl);
    return resolveRefLocation(ref, fromUrl, { ...(this.within ? { within: this.within } : {}), documentName: from?.cachePath ?? shownDocument(fromUrl, this.within) });
  }

  /** What a `$ref` written in the document at `fromUrl` points at; undefined when unresolvable. */
  resolveRef(fromUrl: string, ref: string): Resolved | undefined {
    const target = this.locateRef(fromUrl, ref);
    // Plain-name fragments (`#anchor`) are JSON Schema anchors, which are not followed here.
    if (!target.ok || (target.fragment !== '' && !target.fragment.startsWith('/'))) return undefined;
    const doc = this.byUrl.get(target.url);
    if (!doc) return undefined;
    const value = valueAt(doc.value, target.fragment).value;
    if (value === undefined) return undefined;
    return { doc, pointer: target.fragment, value };
  }

  /**
   * Follows `$ref` until a node that is not a reference. `node` sits in the document at
   * `fromUrl` at `pointer`. Returns undefined for a dangling or cyclic chain.
   */
  deref(fromUrl: string, pointer: string, node: unknown): Resolved | undefined {
    const start: Resolved = { doc: this.byUrl.get(fromUrl) ?? this.entry, pointer, value: node };
    const end = followRefChain(start, node, (ref, from) => {
      const next = this.resolveRef(from.doc.url, ref);
      return next ? { at: next, value: next.value } : 'unresolved';
    });
    return end.ok ? { ...end.at, value: end.value } : undefined;
  }

  /** A report location for a pointer in a document. */
  locate(docUrl: string, pointer: string): SourceLocation {
    const doc = this.byUrl.get(docUrl);
    if (!doc) return { path: pointer || '/' };
    const line = doc.locate(pointer);
    return { file: doc.cachePath, path: pointer || '/', ...(line !== undefined ? { line } : {}) };
  }
}

export { refOf } from '../../../../protocol/ref-chain.js';

/**
 * A document's address as messages name it: its path in the cached definition (`within`), a
 * local path, the URL (never with a credential), or "the pasted text".
 */
export function shownDocument(url: string, within?: RefScope['within']): string {
  if (url.startsWith('paste:')) return 'the pasted text';
  if (within && url.startsWith(within.folder)) return safeDecode(url.slice(within.folder.length));
  if (url.startsWith('file:')) return safeDecode(new URL(url).pathname);
  return url;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
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
