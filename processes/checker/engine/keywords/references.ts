/** $ref, $dynamicRef and the OpenAPI discriminator. */
import { evaluate, type Evaluation, type Keyword, type SchemaNode } from '../evaluation.js';
import { isObject } from '../../../../protocol/json-pointer.js';
import { resolveRefLocation } from '../../../../protocol/ref-location.js';
import { showSchemaList } from '../values.js';
import type { Loc, Site } from './site.js';

/** Evaluates a referenced node, refusing a cycle that comes back to it without going deeper into the body. */
function applyRef(target: SchemaNode, v: unknown, ev: Evaluation, describe: () => string): boolean {
  const depth = ev.path.length;
  const stack = ev.refStack;
  for (let i = stack.length - 1; i >= 0; i--) {
    const entry = stack[i]!;
    if (entry.depth < depth || entry.node === null) break;
    if (entry.node === target) {
      ev.schemaErrors.add(`the schema at ${describe()} refers back to itself without going deeper into the body`);
      return true;
    }
  }
  stack.push({ node: target, depth });
  const ok = evaluate(target, v, ev);
  stack.pop();
  return ok;
}

function lazyNode(site: Site, loc: Loc): () => SchemaNode {
  let node: SchemaNode | undefined;
  return () => (node ??= site.host.nodeAt(loc));
}

export function refKeyword(site: Site, ref: unknown): Keyword | undefined {
  if (typeof ref !== 'string') {
    site.error(`"$ref" at ${site.host.describe(site.loc)} is not a string`);
    return undefined;
  }
  const loc = site.host.resolveRef(ref, site.base);
  if (typeof loc === 'string') {
    site.error(loc);
    return undefined;
  }
  const target = lazyNode(site, loc);
  site.node.refTarget = target;
  const describe = () => site.host.describe(loc);
  return (v, ev) => applyRef(target(), v, ev, describe);
}

/**
 * 2020-12 `$dynamicRef`: resolved like `$ref`, then, when the target was named by a
 * `$dynamicAnchor`, replaced by the outermost resource in the dynamic scope declaring that anchor.
 */
export function dynamicRefKeyword(site: Site): Keyword | undefined {
  const ref = site.schema.$dynamicRef;
  if (typeof ref !== 'string') {
    site.error(`"$dynamicRef" at ${site.host.describe(site.loc)} is not a string`);
    return undefined;
  }
  const loc = site.host.resolveRef(ref, site.base);
  if (typeof loc === 'string') {
    site.error(loc);
    return undefined;
  }
  const located = resolveRefLocation(ref, site.base);
  const fragment = located.ok ? located.fragment : '';
  const anchor = fragment !== '' && !fragment.startsWith('/') ? fragment : undefined;
  const initial = lazyNode(site, loc);
  return (v, ev) => {
    let target = initial();
    if (anchor && target.resource.dynamicAnchors.has(anchor)) {
      for (const resource of ev.scope) {
        if (!resource.dynamicAnchors.has(anchor)) continue;
        target = ev.dynamicLookup(resource, anchor) ?? target;
        break;
      }
    }
    return applyRef(target, v, ev, () => site.host.describe(loc));
  };
}

/** The discriminator's property name: 3.x writes an object, Swagger 2.0 a plain string. */
function discriminatorProperty(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.propertyName === 'string') return value.propertyName;
  return undefined;
}

/**
 * The OpenAPI discriminator. Beside oneOf/anyOf it picks the alternative the property names
 * (by `mapping`, else by the alternative's schema name) and checks the body against that one
 * only. On a base schema that others extend with allOf, it checks the body against the schema
 * the property names as well (without coming back to the base, which that schema includes).
 */
export function discriminatorKeyword(
  site: Site,
  alternatives: { nodes: SchemaNode[]; refs: unknown[]; fallback: Keyword } | undefined,
): Keyword | undefined {
  const raw = site.schema.discriminator;
  const property = discriminatorProperty(raw);
  if (!property) {
    site.error(`"discriminator" at ${site.host.describe(site.loc)} has no propertyName`);
    return undefined;
  }
  const mapping = isObject(raw) && isObject(raw.mapping) ? raw.mapping : {};
  const host = site.host;

  const byName = new Map<string, Loc>();
  const locOf = (target: string): Loc | undefined => {
    if (!/[#/]/.test(target)) return host.namedSchema(target, site.loc.docUri);
    const loc = host.resolveRef(target, site.base);
    if (typeof loc === 'string') {
      site.error(loc);
      return undefined;
    }
    return loc;
  };
  for (const [value, target] of Object.entries(mapping)) {
    if (typeof target !== 'string') continue;
    const loc = locOf(target);
    if (loc) byName.set(value, loc);
  }
  // Implicit mapping: an alternative `$ref: '#/components/schemas/Cat'` is named `Cat`.
  const altNames: string[] = [];
  if (alternatives) {
    alternatives.refs.forEach((alt) => {
      const ref = isObject(alt) ? alt.$ref : undefined;
      if (typeof ref !== 'string') return;
      const name = decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1));
      altNames.push(name);
      if (byName.has(name)) return;
      const loc = host.resolveRef(ref, site.base);
      if (typeof loc !== 'string') byName.set(name, loc);
    });
  }
  const known = [...new Set([...Object.keys(mapping), ...altNames])];
  const wanted = known.length > 0 ? `one of: ${showSchemaList(known, 12)}` : 'a schema of the definition';
  const resolved = new Map<string, SchemaNode | null>();
  const targetFor = (tag: string): SchemaNode | undefined => {
    let node = resolved.get(tag);
    if (node === undefined) {
      // Inheritance (no alternatives) may name any schema; alternatives only what is mapped or listed.
      const loc = byName.get(tag) ?? (alternatives ? undefined : host.namedSchema(tag, site.loc.docUri));
      node = loc ? host.nodeAt(loc) : null;
      resolved.set(tag, node);
    }
    return node ?? undefined;
  };
  const self = site.node;

  return (v, ev) => {
    if (!isObject(v)) return alternatives ? alternatives.fallback(v, ev) : true;
    if (!alternatives) {
      // Entered from the named schema's own allOf: do not dispatch again.
      const depth = ev.path.length;
      for (let i = ev.dispatching.length - 1; i >= 0; i--) {
        const d = ev.dispatching[i]!;
        if (d.depth < depth) break;
        if (d.node === self) return true;
      }
    }
    const tag = Object.hasOwn(v, property) ? v[property] : undefined;
    if (typeof tag !== 'string') {
      ev.report('discriminator', `expected the property ${JSON.stringify(property)} naming the variant, ${wanted}`);
      return false;
    }
    const target = targetFor(tag);
    if (!target) {
      ev.report('discriminator', `expected ${JSON.stringify(property)} to name ${wanted}`, property);
      return false;
    }
    if (alternatives) return evaluate(target, v, ev);
    if (target === self) return true;
    const depth = ev.path.length;
    // Reached through a `$ref` to the very schema the tag names (the usual way in: a property of
    // type Cat whose allOf brings in Pet): the body is being checked against it already. Going
    // there again checked it twice, and twice again at every level below (Microsoft Graph's
    // entities, each tagged `@odata.type`, gave up at the step budget).
    for (let i = ev.refStack.length - 1; i >= 0; i--) {
      const entry = ev.refStack[i]!;
      if (entry.depth < depth) break;
      if (entry.node === target) return true;
    }
    ev.dispatching.push({ node: self, depth });
    ev.refStack.push({ node: null, depth });
    const ok = evaluate(target, v, ev);
    ev.refStack.pop();
    ev.dispatching.pop();
    return ok;
  };
}
