/** Object applicators: properties, patternProperties, additionalProperties, propertyNames, dependentSchemas, unevaluatedProperties. */
import { evaluate, evaluateAt, probeAt, type Keyword, type SchemaNode } from '../evaluation.js';
import { isObject } from '../../../../protocol/json-pointer.js';
import { compilePattern, type SchemaPattern } from './assertions.js';
import type { Site } from './site.js';

/**
 * properties + patternProperties + additionalProperties as one pass over the body's keys,
 * since "additional" means "matched by neither of the other two".
 */
export function propertiesKeyword(site: Site, withPatterns: boolean): Keyword | undefined {
  const s = site.schema;
  const props = new Map<string, SchemaNode>();
  if (s.properties !== undefined) {
    if (!isObject(s.properties)) site.error(`"properties" at ${site.host.describe(site.loc)} is not an object`);
    else for (const name of Object.keys(s.properties)) props.set(name, site.child('properties', name));
  }
  const patterns: [SchemaPattern, SchemaNode][] = [];
  if (withPatterns && s.patternProperties !== undefined) {
    if (!isObject(s.patternProperties)) site.error(`"patternProperties" at ${site.host.describe(site.loc)} is not an object`);
    else
      for (const source of Object.keys(s.patternProperties)) {
        const re = compilePattern(site, source, 'patternProperties');
        if (re) patterns.push([re, site.child('patternProperties', source)]);
      }
  }
  const extra = s.additionalProperties;
  // `false` gets its own message; `true` (or absent) still counts for unevaluatedProperties in 2020-12.
  const forbidExtra = extra === false;
  const extraNode = extra === undefined || extra === false ? undefined : site.child('additionalProperties');
  if (props.size === 0 && patterns.length === 0 && extra === undefined) return undefined;

  return (v, ev) => {
    if (!isObject(v)) return true;
    const ann = ev.ann;
    let ok = true;
    for (const key of Object.keys(v)) {
      let matched = false;
      const node = props.get(key);
      if (node) {
        matched = true;
        if (!evaluateAt(node, v[key], key, ev)) ok = false;
      }
      for (let i = 0; i < patterns.length; i++) {
        const [re, pnode] = patterns[i]!;
        if (!re.test(key, ev)) continue;
        matched = true;
        if (!evaluateAt(pnode, v[key], key, ev)) ok = false;
      }
      if (!matched) {
        if (forbidExtra) {
          ev.report('additionalProperties', 'property not allowed by the schema', key);
          ok = false;
        } else if (extraNode) {
          if (!evaluateAt(extraNode, v[key], key, ev)) ok = false;
          matched = true;
        }
      }
      if (ann && matched) ann.props.add(key);
      if (!ok && ev.silent > 0) return false;
    }
    return ok;
  };
}

export function propertyNamesKeyword(site: Site): Keyword {
  const node = site.child('propertyNames');
  return (v, ev) => {
    if (!isObject(v)) return true;
    let ok = true;
    for (const key of Object.keys(v)) {
      if (probeAt(node, key, key, ev)) continue;
      ev.report('propertyNames', 'property name not allowed by propertyNames', key);
      ok = false;
      if (ev.silent > 0) return false;
    }
    return ok;
  };
}

export function dependentSchemasKeyword(site: Site): Keyword | undefined {
  const deps = site.schema.dependentSchemas;
  if (!isObject(deps)) {
    site.error(`"dependentSchemas" at ${site.host.describe(site.loc)} is not an object`);
    return undefined;
  }
  const entries = Object.keys(deps).map((name) => [name, site.child('dependentSchemas', name)] as const);
  return (v, ev) => {
    if (!isObject(v)) return true;
    let ok = true;
    for (const [name, node] of entries) {
      if (!Object.prototype.hasOwnProperty.call(v, name)) continue;
      if (!evaluate(node, v, ev)) {
        ok = false;
        if (ev.silent > 0) return false;
      }
    }
    return ok;
  };
}

/** Runs last in its node, over the properties no other keyword of the node (or its in-place subschemas) evaluated. */
export function unevaluatedPropertiesKeyword(site: Site): Keyword {
  const forbid = site.schema.unevaluatedProperties === false;
  const node = forbid ? undefined : site.child('unevaluatedProperties');
  site.node.ownsAnnotations = true;
  return (v, ev) => {
    if (!isObject(v)) return true;
    const ann = ev.ann!;
    if (ann.allProps) return true;
    let ok = true;
    for (const key of Object.keys(v)) {
      if (ann.props.has(key)) continue;
      if (node) {
        if (evaluateAt(node, v[key], key, ev)) continue;
      } else {
        ev.report('unevaluatedProperties', 'property not allowed: no schema here declares it', key);
      }
      ok = false;
      if (ev.silent > 0) return false;
    }
    ann.allProps = true;
    return ok;
  };
}
