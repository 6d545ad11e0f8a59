import { describe, expect, it } from 'vitest';
import { valueAt } from './json-pointer.js';
import { followRefChain, refOf } from './ref-chain.js';

/** One document's `#/...` references, looked up by json-pointer's own-member rule. */
function inDocument(doc: unknown) {
  return (ref: string) => {
    const found = valueAt(doc, ref.slice(1));
    return found.found ? { at: ref.slice(1), value: found.value } : `the reference ${ref} does not resolve`;
  };
}

describe('followRefChain', () => {
  const doc = { a: { $ref: '#/b' }, b: { $ref: '#/c' }, c: { type: 'string' }, loop: { $ref: '#/loop' }, arr: [{ $ref: '#/c' }] };

  it('follows references to the first value that is not one, and says where it is', () => {
    expect(followRefChain('/a', doc.a, inDocument(doc))).toEqual({ ok: true, at: '/c', value: { type: 'string' } });
    expect(followRefChain('/c', doc.c, inDocument(doc))).toEqual({ ok: true, at: '/c', value: { type: 'string' } });
  });

  it('ends a cycle after the hop limit instead of hanging', () => {
    expect(followRefChain('/loop', doc.loop, inDocument(doc), 5)).toEqual({ ok: false, cycle: true });
  });

  it('returns what the lookup said when a reference leads nowhere, Object members included', () => {
    expect(followRefChain('', { $ref: '#/constructor' }, inDocument(doc))).toEqual({ ok: false, cycle: false, why: 'the reference #/constructor does not resolve' });
  });

  it('reads only objects with a string $ref as references', () => {
    expect(refOf({ $ref: '#/a' })).toBe('#/a');
    expect(refOf([{ $ref: '#/a' }])).toBeUndefined();
    expect(refOf({ $ref: 3 })).toBeUndefined();
    expect(refOf(null)).toBeUndefined();
  });
});
