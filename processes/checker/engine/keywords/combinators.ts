/**
 * allOf, anyOf, oneOf, not, if/then/else. Alternatives are tried silently; when none fits, the
 * problem names the combinator, unless only one alternative accepts the body's type, in which
 * case that alternative's own problems are more useful and are reported instead.
 */
import {
  ensureCompiled,
  evaluate,
  mergeAnnotations,
  newAnnotations,
  probe,
  type Evaluation,
  type Keyword,
  type SchemaNode,
} from '../evaluation.js';
import { hasType } from '../values.js';
import type { Site } from './site.js';

export function subschemas(site: Site, keyword: string): SchemaNode[] | undefined {
  const list = site.schema[keyword];
  if (!Array.isArray(list) || list.length === 0) {
    site.error(`"${keyword}" at ${site.host.describe(site.loc)} is not a non-empty array`);
    return undefined;
  }
  return list.map((_, i) => site.child(keyword, i));
}

export function allOfKeyword(nodes: SchemaNode[]): Keyword {
  return (v, ev) => {
    let ok = true;
    for (const node of nodes) {
      if (evaluate(node, v, ev)) continue;
      ok = false;
      if (ev.silent > 0) return false;
    }
    return ok;
  };
}

/** The types a node accepts, looking through `$ref`-only nodes; undefined when it does not say. */
function declaredTypes(node: SchemaNode): readonly string[] | undefined {
  let current: SchemaNode | undefined = node;
  for (let hops = 0; current && hops < 16; hops++) {
    ensureCompiled(current);
    if (current.types) return current.types;
    current = current.refTarget?.();
  }
  return undefined;
}

function accepts(node: SchemaNode, v: unknown): boolean {
  const types = declaredTypes(node);
  return !types || types.some((t) => hasType(v, t));
}

function explainNoMatch(keyword: string, nodes: SchemaNode[], v: unknown, ev: Evaluation, wanted: string): void {
  const candidates = nodes.filter((n) => accepts(n, v));
  if (candidates.length === 1) {
    const outer = ev.ann;
    ev.ann = null;
    const ok = evaluate(candidates[0]!, v, ev);
    ev.ann = outer;
    if (!ok) return;
  }
  ev.report(keyword, `expected to match ${wanted} of the ${nodes.length} alternatives in ${keyword}; none matched`);
}

export function anyOfKeyword(nodes: SchemaNode[]): Keyword {
  return (v, ev) => {
    const outer = ev.ann;
    let matched = false;
    for (const node of nodes) {
      const own = outer ? newAnnotations() : null;
      if (!probe(node, v, ev, own)) continue;
      matched = true;
      // Every matching branch's annotations count for unevaluated*, so keep looking only then.
      if (!outer) break;
      mergeAnnotations(outer, own!);
    }
    if (matched) return true;
    if (ev.silent === 0) explainNoMatch('anyOf', nodes, v, ev, 'at least one');
    return false;
  };
}

export function oneOfKeyword(nodes: SchemaNode[]): Keyword {
  return (v, ev) => {
    const outer = ev.ann;
    let matches = 0;
    let matchedAnn: ReturnType<typeof newAnnotations> | null = null;
    for (const node of nodes) {
      const own = outer ? newAnnotations() : null;
      if (!probe(node, v, ev, own)) continue;
      matches++;
      matchedAnn = own;
      if (matches > 1) break;
    }
    if (matches === 1) {
      if (outer && matchedAnn) mergeAnnotations(outer, matchedAnn);
      return true;
    }
    if (matches === 0) {
      if (ev.silent === 0) explainNoMatch('oneOf', nodes, v, ev, 'exactly one');
    } else {
      ev.report('oneOf', `expected to match exactly one of the ${nodes.length} alternatives in oneOf; more than one matched`);
    }
    return false;
  };
}

export function notKeyword(node: SchemaNode): Keyword {
  return (v, ev) => {
    if (!probe(node, v, ev, null)) return true;
    ev.report('not', 'expected not to match the schema under "not"');
    return false;
  };
}

export function ifKeyword(ifNode: SchemaNode, thenNode: SchemaNode | undefined, elseNode: SchemaNode | undefined): Keyword {
  return (v, ev) => {
    const outer = ev.ann;
    const own = outer ? newAnnotations() : null;
    if (probe(ifNode, v, ev, own)) {
      if (outer) mergeAnnotations(outer, own!);
      return thenNode ? evaluate(thenNode, v, ev) : true;
    }
    return elseNode ? evaluate(elseNode, v, ev) : true;
  };
}
