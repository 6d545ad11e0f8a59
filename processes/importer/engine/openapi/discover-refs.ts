/**
 * The external `$ref`s of an OpenAPI 2.0/3.x document, in document order. Example values,
 * defaults, enums and vendor extensions are data, not references, so nothing under them is
 * followed; the same key inside a map of names (a schema property called `default`) is a name
 * and is walked like any other.
 */
import { resolveRefLocation, type RefScope } from '../../../../protocol/ref-location.js';
import { joinPointer } from '../../../../protocol/json-pointer.js';
import type { Lead } from '../load/load-document-set.js';

/** Keywords whose values are literal data. */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const', 'value', 'dataValue', 'serializedValue']);

/** Objects whose keys are names chosen by the author, not keywords. */
const NAME_MAPS = new Set([
  'properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas', 'parameters',
  'responses', 'headers', 'examples', 'links', 'callbacks', 'securitySchemes', 'securityDefinitions',
  'requestBodies', 'pathItems', 'webhooks', 'paths', 'content', 'encoding', 'variables', 'mediaTypes',
]);

const MAX_DEPTH = 512;

export function discoverExternalRefs(doc: { url: string; value: unknown }, scope: RefScope = {}): Lead[] {
  const leads: Lead[] = [];
  const targets = new Set<string>();
  const unreadable = new Set<string>();
  const walk = (node: unknown, pointer: string, inNameMap: boolean, depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, joinPointer(pointer, i), false, depth + 1));
      return;
    }
    const record = node as Record<string, unknown>;
    const ref = record['$ref'];
    if (!inNameMap && typeof ref === 'string') {
      const target = resolveRefLocation(ref, doc.url, scope);
      if (!target.ok) {
        // Reported once per reference, at its first place; whatever uses it reports what it missed.
        if (!unreadable.has(ref)) leads.push({ candidates: [], purpose: 'ref', pointer: joinPointer(pointer, '$ref'), unreadable: target.error.message });
        unreadable.add(ref);
      } else if (target.url !== doc.url && !targets.has(target.url)) {
        targets.add(target.url);
        leads.push({ candidates: [target.url], purpose: 'ref', pointer: joinPointer(pointer, '$ref') });
      }
    }
    for (const [key, value] of Object.entries(record)) {
      if (!inNameMap && (key.startsWith('x-') || DATA_KEYWORDS.has(key))) continue;
      // JSON Schema 2020-12 `examples` is an array of literal values.
      if (!inNameMap && key === 'examples' && Array.isArray(value)) continue;
      walk(value, joinPointer(pointer, key), !inNameMap && NAME_MAPS.has(key) && !Array.isArray(value), depth + 1);
    }
  };
  walk(doc.value, '', false, 0);
  return leads;
}
