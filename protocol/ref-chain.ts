/**
 * Following a `$ref` chain to the value it stands for: the one loop the importer's DocumentSet
 * and the checker's PreparedDefinition share. Each finds one reference's target by its own lookup
 * (the importer among the documents it read, the checker among its schema resources too: `$id`,
 * anchors, `$self`), both on top of protocol/ref-location.ts (where a reference points) and
 * json-pointer.ts's `valueAt` (own members only: `#/constructor` points at nothing). This holds
 * the rest: what counts as a reference, the hop limit, and a cycle ending as a failure, not a hang.
 */

/** How many references one chain follows before it counts as a cycle. */
export const MAX_REF_HOPS = 64;

/** The `$ref` string of a Reference Object (an object, not an array, whose `$ref` is a string), if it is one. */
export function refOf(node: unknown): string | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' ? ref : undefined;
}

export type RefChainEnd<P> =
  | { ok: true; at: P; value: unknown }
  /** `next` could not follow a reference; `why` is what it said. */
  | { ok: false; cycle: false; why: string }
  | { ok: false; cycle: true };

/**
 * From `value` at the place `at`, follows references until a value that is not one. `next` finds
 * where a reference written at a place leads and what is there, or says why it cannot.
 */
export function followRefChain<P>(
  at: P,
  value: unknown,
  next: (ref: string, from: P) => { at: P; value: unknown } | string,
  maxHops: number = MAX_REF_HOPS,
): RefChainEnd<P> {
  let current = { at, value };
  for (let hops = 0; ; hops++) {
    const ref = refOf(current.value);
    if (ref === undefined) return { ok: true, at: current.at, value: current.value };
    if (hops >= maxHops) return { ok: false, cycle: true };
    const found = next(ref, current.at);
    if (typeof found === 'string') return { ok: false, cycle: false, why: found };
    current = found;
  }
}
