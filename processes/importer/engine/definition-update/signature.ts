/**
 * A fingerprint of part of a definition, to tell whether an operation's parameters, body,
 * responses, security or servers changed between two documents. A part's signature covers
 * the part itself and everything its `$ref`s reach (breadth first, each target once), with
 * each reference written as the target's place in the definition, so moving nothing but
 * bytes around (key order, formatting, which file a ref sits in) is not a change.
 */
import { createHash } from 'node:crypto';
import { refOf, type DocumentSet } from '../load/document-set.js';
import { valueAt } from '../load/json-pointer.js';
import type { Part } from '../openapi/normalize/model.js';
import { setOwn } from '../openapi/normalize/values.js';

export class Signer {
  /** Canonical text of each reference target, by lookup id (url#pointer). */
  private readonly targets = new Map<string, Canonical>();

  constructor(private readonly set: DocumentSet) {}

  sign(parts: readonly Part[]): string {
    const hash = createHash('sha256');
    const queue: Ref[] = [];
    for (const part of parts) {
      const { text, refs } = this.canonical(part.node, part.docUrl);
      hash.update(text).update('\n');
      queue.push(...refs);
    }
    const seen = new Set<string>();
    for (let ref = queue.shift(); ref !== undefined; ref = queue.shift()) {
      if (seen.has(ref.lookup)) continue;
      seen.add(ref.lookup);
      const target = this.target(ref.lookup);
      hash.update(ref.stable).update('=').update(target.text).update('\n');
      queue.push(...target.refs);
    }
    return hash.digest('hex');
  }

  private target(id: string): Canonical {
    const cached = this.targets.get(id);
    if (cached) return cached;
    const [url, fragment] = splitId(id);
    const doc = this.set.get(url);
    const value = doc ? valueAt(doc.value, fragment) : undefined;
    const result = value === undefined ? { text: '<unresolved>', refs: [] } : this.canonical(value, url);
    this.targets.set(id, result);
    return result;
  }

  /** Sorted-key JSON with every `$ref` replaced by its target id; the ids it names. */
  private canonical(node: unknown, docUrl: string): Canonical {
    const refs: Ref[] = [];
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(walk);
      if (value === null || typeof value !== 'object') return value;
      const ref = refOf(value);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value as object).sort()) {
        setOwn(out, key, key === '$ref' && ref !== undefined ? this.refId(docUrl, ref, refs) : walk((value as Record<string, unknown>)[key]));
      }
      return out;
    };
    return { text: JSON.stringify(walk(node)) ?? 'undefined', refs };
  }

  /** A reference as "<cache path>#<pointer>", the same across two reads of moved documents. */
  private refId(docUrl: string, ref: string, refs: Ref[]): string {
    const target = this.set.locateRef(docUrl, ref);
    const doc = target.ok ? this.set.get(target.url) : undefined;
    if (!target.ok || !doc) return `<unresolved ${ref}>`;
    const pointer = target.fragment;
    const stable = `${doc.cachePath}#${pointer}`;
    refs.push({ lookup: `${doc.url}#${pointer}`, stable });
    return stable;
  }
}

interface Ref {
  /** url#pointer: finds the target in this set. */
  lookup: string;
  /** cachePath#pointer: names it the same way in another read of the definition. */
  stable: string;
}

interface Canonical {
  text: string;
  refs: Ref[];
}

function splitId(id: string): [string, string] {
  const hash = id.indexOf('#');
  return [id.slice(0, hash), id.slice(hash + 1)];
}
