/**
 * A fingerprint of part of a definition, to tell whether an operation's parameters, body,
 * responses, security or servers changed between two documents. A part's signature covers
 * the part itself and everything its `$ref`s reach (breadth first, each target once), by
 * content only: a reference is written as the order in which this signature first reached its
 * target (`@0`, `@1`...), never as where the target sits. Key order, formatting, the file a
 * definition was read from, where a schema lives and the name it is filed under are therefore
 * not changes; what a part says, and how its references tie it together, are.
 */
import { createHash, type Hash } from 'node:crypto';
import { refOf, type DocumentSet } from '../load/document-set.js';
import { valueAt } from '../../../../protocol/json-pointer.js';
import type { Part } from '../openapi/normalize/model.js';

export class Signer {
  /** Canonical form of each reference target, by lookup id (url#pointer). */
  private readonly targets = new Map<string, Canonical>();

  constructor(private readonly set: DocumentSet) {}

  sign(parts: readonly Part[]): string {
    const hash = createHash('sha256');
    const numbers = new Map<string, number>();
    const queue: string[] = [];
    for (const part of parts) {
      write(hash, this.canonical(part.node, part.docUrl), numbers, queue);
      hash.update('\n');
    }
    for (let i = 0; i < queue.length; i++) {
      hash.update(`@${i}=`);
      write(hash, this.target(queue[i] as string), numbers, queue);
      hash.update('\n');
    }
    return hash.digest('hex');
  }

  private target(id: string): Canonical {
    const cached = this.targets.get(id);
    if (cached) return cached;
    const hash = id.indexOf('#');
    const doc = this.set.get(id.slice(0, hash));
    const value = doc ? valueAt(doc.value, id.slice(hash + 1)).value : undefined;
    const result = value === undefined ? { pieces: ['<unresolved>'], refs: [] } : this.canonical(value, id.slice(0, hash));
    this.targets.set(id, result);
    return result;
  }

  /** Sorted-key JSON cut at each `$ref`: `pieces[i]` comes before `refs[i]`. */
  private canonical(node: unknown, docUrl: string): Canonical {
    const pieces: string[] = [];
    const refs: RefMark[] = [];
    let text = '';
    // A YAML alias can make a document a graph, even a cycle: a node already on the way down is named, not walked.
    const path = new Set<object>();
    const walk = (value: unknown): void => {
      if (value === null || typeof value !== 'object') {
        text += JSON.stringify(value) ?? 'null';
        return;
      }
      if (path.has(value)) {
        text += '"<cycle>"';
        return;
      }
      path.add(value);
      if (Array.isArray(value)) {
        text += '[';
        value.forEach((item, i) => {
          if (i > 0) text += ',';
          walk(item);
        });
        text += ']';
      } else {
        const ref = refOf(value);
        text += '{';
        Object.keys(value)
          .sort()
          .forEach((key, i) => {
            text += `${i > 0 ? ',' : ''}${JSON.stringify(key)}:`;
            if (key === '$ref' && ref !== undefined) {
              pieces.push(text);
              text = '';
              refs.push(this.refMark(docUrl, ref));
            } else {
              walk((value as Record<string, unknown>)[key]);
            }
          });
        text += '}';
      }
      path.delete(value);
    };
    walk(node);
    pieces.push(text);
    return { pieces, refs };
  }

  /** What a reference stands for: its target in this set, or, when it has none, the reference as written. */
  private refMark(docUrl: string, ref: string): RefMark {
    const target = this.set.locateRef(docUrl, ref);
    if (!target.ok || !this.set.get(target.url)) return { unresolved: JSON.stringify(`<unresolved ${ref}>`) };
    return { lookup: `${target.url}#${target.fragment}` };
  }
}

/** Writes a canonical form, naming each reference target by the order it was first reached. */
function write(hash: Hash, canonical: Canonical, numbers: Map<string, number>, queue: string[]): void {
  canonical.pieces.forEach((piece, i) => {
    hash.update(piece);
    const mark = canonical.refs[i];
    if (mark === undefined) return;
    if ('unresolved' in mark) {
      hash.update(mark.unresolved);
      return;
    }
    let n = numbers.get(mark.lookup);
    if (n === undefined) {
      n = queue.length;
      numbers.set(mark.lookup, n);
      queue.push(mark.lookup);
    }
    hash.update(`"@${n}"`);
  });
}

type RefMark = { lookup: string } | { unresolved: string };

interface Canonical {
  pieces: string[];
  refs: RefMark[];
}
