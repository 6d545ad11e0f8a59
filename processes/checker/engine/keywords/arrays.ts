/** Array applicators: prefixItems, items, contains (with min/maxContains), unevaluatedItems. */
import { evaluateAt, probeAt, type Keyword, type SchemaNode } from '../evaluation.js';
import type { Site } from './site.js';

/**
 * prefixItems + items. In 2020-12 `items` covers what `prefixItems` does not; in OpenAPI 3.0
 * and Swagger 2.0 there is no prefixItems and `items` covers every item.
 */
export function itemsKeyword(site: Site): Keyword | undefined {
  const s = site.schema;
  const prefix: SchemaNode[] = [];
  if (site.dialect === 'oas31' && s.prefixItems !== undefined) {
    if (!Array.isArray(s.prefixItems)) site.error(`"prefixItems" at ${site.host.describe(site.loc)} is not an array`);
    else for (let i = 0; i < s.prefixItems.length; i++) prefix.push(site.child('prefixItems', i));
  }
  let rest: SchemaNode | undefined;
  let forbidRest = false;
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) site.note(`"items" as an array is not ${site.dialect === 'oas31' ? '2020-12' : 'OpenAPI'} syntax; not checked (${site.host.describe(site.loc)})`);
    else if (s.items === false) forbidRest = true;
    else rest = site.child('items');
  }
  if (prefix.length === 0 && !rest && !forbidRest) return undefined;

  return (v, ev) => {
    if (!Array.isArray(v)) return true;
    let ok = true;
    const n = Math.min(prefix.length, v.length);
    for (let i = 0; i < n; i++) {
      if (!evaluateAt(prefix[i]!, v[i], i, ev)) {
        ok = false;
        if (ev.silent > 0) return false;
      }
    }
    if (forbidRest && v.length > prefix.length) {
      ev.report('items', `expected at most ${prefix.length} items`);
      return false;
    }
    if (rest) {
      for (let i = prefix.length; i < v.length; i++) {
        if (!evaluateAt(rest, v[i], i, ev)) {
          ok = false;
          if (ev.silent > 0) return false;
        }
      }
    }
    const ann = ev.ann;
    if (ann) {
      if (rest || forbidRest) ann.allItems = true;
      else if (n > ann.items) ann.items = n;
    }
    return ok;
  };
}

export function containsKeyword(site: Site): Keyword {
  const node = site.child('contains');
  const s = site.schema;
  const min = typeof s.minContains === 'number' ? s.minContains : 1;
  const max = typeof s.maxContains === 'number' ? s.maxContains : undefined;
  return (v, ev) => {
    if (!Array.isArray(v)) return true;
    const ann = ev.ann;
    let count = 0;
    for (let i = 0; i < v.length; i++) {
      if (!probeAt(node, v[i], i, ev)) continue;
      count++;
      if (ann) (ann.itemSet ??= new Set()).add(i);
      else if (max === undefined && count >= min) break;
    }
    if (count < min) {
      ev.report('contains', min === 1 ? 'expected at least one item matching "contains"' : `expected at least ${min} items matching "contains"`);
      return false;
    }
    if (max !== undefined && count > max) {
      ev.report('maxContains', `expected at most ${max} items matching "contains"`);
      return false;
    }
    return true;
  };
}

/** Runs last in its node, over the items nothing else of the node evaluated. */
export function unevaluatedItemsKeyword(site: Site): Keyword {
  const forbid = site.schema.unevaluatedItems === false;
  const node = forbid ? undefined : site.child('unevaluatedItems');
  site.node.ownsAnnotations = true;
  return (v, ev) => {
    if (!Array.isArray(v)) return true;
    const ann = ev.ann!;
    if (ann.allItems) return true;
    let ok = true;
    for (let i = ann.items; i < v.length; i++) {
      if (ann.itemSet?.has(i)) continue;
      if (node) {
        if (evaluateAt(node, v[i], i, ev)) continue;
      } else {
        ev.report('unevaluatedItems', 'item not allowed: no schema here declares it', i);
      }
      ok = false;
      if (ev.silent > 0) return false;
    }
    ann.allItems = true;
    return ok;
  };
}
