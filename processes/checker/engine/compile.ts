/**
 * Turns one schema object into a SchemaNode: a list of keyword closures, in an order where
 * unevaluatedProperties/Items come last. Which keywords exist depends on the dialect: OpenAPI
 * 3.0 and Swagger 2.0 (draft-04 based, `$ref` replaces its siblings) or 2020-12 for 3.1 and 3.2.
 * A keyword the dialect does not have is reported as a note and not checked.
 */
import type { Dialect, Keyword, SchemaNode } from './evaluation.js';
import { isObject, pointerOf } from '../../../protocol/json-pointer.js';
import { containsKeyword, itemsKeyword, unevaluatedItemsKeyword } from './keywords/arrays.js';
import {
  arrayCountKeywords,
  constKeyword,
  dependentRequiredKeyword,
  enumKeyword,
  formatKeyword,
  lengthKeywords,
  numericKeywords,
  objectCountKeywords,
  patternKeyword,
  requiredKeyword,
  typeKeyword,
} from './keywords/assertions.js';
import { allOfKeyword, anyOfKeyword, ifKeyword, notKeyword, oneOfKeyword, subschemas } from './keywords/combinators.js';
import {
  dependentSchemasKeyword,
  propertiesKeyword,
  propertyNamesKeyword,
  unevaluatedPropertiesKeyword,
} from './keywords/objects.js';
import { discriminatorKeyword, dynamicRefKeyword, refKeyword } from './keywords/references.js';
import type { CompileHost, Loc, Site } from './keywords/site.js';

const ANNOTATIONS = ['title', 'description', 'default', 'example', 'deprecated', 'readOnly', 'writeOnly', 'xml', 'externalDocs'];

const DRAFT04_ASSERTIONS = [
  'type', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'format',
  'properties', 'additionalProperties', 'items', 'allOf', 'discriminator', '$ref',
];

const DRAFT2020 = [
  ...DRAFT04_ASSERTIONS, 'anyOf', 'oneOf', 'not', 'const', 'if', 'then', 'else', 'dependentSchemas', 'dependentRequired',
  'prefixItems', 'contains', 'minContains', 'maxContains', 'patternProperties', 'propertyNames', 'unevaluatedItems',
  'unevaluatedProperties', '$dynamicRef', '$schema', '$id', '$anchor', '$dynamicAnchor', '$defs', '$comment',
  '$vocabulary', 'examples', 'contentEncoding', 'contentMediaType', 'contentSchema', 'definitions',
];

/** Keywords each dialect knows; anything else (bar `x-` extensions) becomes a note. */
const KNOWN: Record<Dialect, Set<string>> = {
  oas30: new Set([...DRAFT04_ASSERTIONS, ...ANNOTATIONS, 'anyOf', 'oneOf', 'not', 'nullable', '$schema', '$id', 'id', 'definitions', '$comment']),
  swagger2: new Set([...DRAFT04_ASSERTIONS, ...ANNOTATIONS, '$schema', 'id', 'definitions']),
  oas31: new Set([...DRAFT2020, ...ANNOTATIONS]),
};

/** Keywords of older drafts that 2020-12 dropped, with what replaced them. */
const DROPPED_IN_2020: Record<string, string> = {
  nullable: 'use a type list with "null"',
  additionalItems: 'use prefixItems and items',
  dependencies: 'use dependentRequired or dependentSchemas',
  $recursiveRef: 'use $dynamicRef',
  $recursiveAnchor: 'use $dynamicAnchor',
};

const DIALECT_NAME: Record<Dialect, string> = { oas30: 'OpenAPI 3.0', swagger2: 'Swagger 2.0', oas31: 'JSON Schema 2020-12' };

const falseSchema: Keyword = (_v, ev) => {
  ev.report('false', 'no value is allowed here');
  return false;
};

export function compileInto(host: CompileHost, node: SchemaNode, schema: unknown, loc: Loc, base: string): void {
  if (typeof schema === 'boolean') {
    if (!schema) node.keywords = [falseSchema];
    return;
  }
  if (!isObject(schema)) {
    node.errors.push(`the schema at ${host.describe(loc)} is not an object`);
    return;
  }
  const dialect = host.dialect;
  const site: Site = {
    host,
    dialect,
    node,
    schema,
    loc,
    base,
    child: (...segments) => host.nodeAt({ docUri: loc.docUri, pointer: loc.pointer + pointerOf(segments) }),
    note: (message) => node.notes.push(message),
    error: (message) => node.errors.push(message),
  };

  // OpenAPI 3.0 and Swagger 2.0: a Reference Object stands for its target; siblings are ignored.
  if (dialect !== 'oas31' && '$ref' in schema) {
    const ref = refKeyword(site, schema.$ref);
    node.keywords = ref ? [ref] : [];
    return;
  }

  noteUnknownKeywords(site);
  const kws: Keyword[] = [];
  const add = (k: Keyword | undefined) => {
    if (k) kws.push(k);
  };
  const has = (k: string) => schema[k] !== undefined;

  if (has('type')) {
    const nullable = (dialect === 'oas30' && schema.nullable === true) || (dialect === 'swagger2' && schema['x-nullable'] === true);
    add(typeKeyword(site, nullable));
  }
  if (has('enum')) add(enumKeyword(site));
  if (dialect === 'oas31' && 'const' in schema) add(constKeyword(site));
  for (const k of numericKeywords(site)) add(k);
  for (const k of lengthKeywords(site)) add(k);
  if (has('pattern')) add(patternKeyword(site));
  if (has('format')) add(formatKeyword(site));
  for (const k of arrayCountKeywords(site)) add(k);
  for (const k of objectCountKeywords(site)) add(k);
  if (has('required')) add(requiredKeyword(site, optionalProperties(site)));
  if (dialect === 'oas31' && has('dependentRequired')) add(dependentRequiredKeyword(site));

  if (dialect === 'oas31') {
    if (has('$ref')) add(refKeyword(site, schema.$ref));
    if (has('$dynamicRef')) add(dynamicRefKeyword(site));
  }

  const allOf = has('allOf') ? subschemas(site, 'allOf') : undefined;
  if (allOf) add(allOfKeyword(allOf));
  const withChoices = dialect !== 'swagger2';
  const anyOf = withChoices && has('anyOf') ? subschemas(site, 'anyOf') : undefined;
  const oneOf = withChoices && has('oneOf') ? subschemas(site, 'oneOf') : undefined;
  const anyOfKw = anyOf && anyOfKeyword(anyOf);
  const oneOfKw = oneOf && oneOfKeyword(oneOf);
  if (has('discriminator')) {
    // The discriminator takes over the choice it stands beside (oneOf first, else anyOf).
    const choice = oneOf && oneOfKw ? { nodes: oneOf, refs: schema.oneOf as unknown[], fallback: oneOfKw } : anyOf && anyOfKw ? { nodes: anyOf, refs: schema.anyOf as unknown[], fallback: anyOfKw } : undefined;
    add(discriminatorKeyword(site, choice));
    if (choice?.fallback !== oneOfKw) add(oneOfKw);
    if (choice?.fallback !== anyOfKw) add(anyOfKw);
  } else {
    add(anyOfKw);
    add(oneOfKw);
  }
  if (withChoices && has('not')) add(notKeyword(site.child('not')));
  if (dialect === 'oas31' && has('if')) {
    add(ifKeyword(site.child('if'), has('then') ? site.child('then') : undefined, has('else') ? site.child('else') : undefined));
  }

  add(propertiesKeyword(site, dialect === 'oas31'));
  if (dialect === 'oas31') {
    if (has('propertyNames')) add(propertyNamesKeyword(site));
    if (has('dependentSchemas')) add(dependentSchemasKeyword(site));
  }
  add(itemsKeyword(site));
  if (dialect === 'oas31' && has('contains')) add(containsKeyword(site));

  // Last: they read what every keyword above marked as evaluated.
  if (dialect === 'oas31' && has('unevaluatedProperties')) add(unevaluatedPropertiesKeyword(site));
  if (dialect === 'oas31' && has('unevaluatedItems')) add(unevaluatedItemsKeyword(site));

  node.keywords = kws;
}

function noteUnknownKeywords(site: Site): void {
  const known = KNOWN[site.dialect];
  for (const key of Object.keys(site.schema)) {
    if (known.has(key) || key.startsWith('x-')) continue;
    const where = site.host.describe(site.loc);
    if (site.dialect === 'oas31' && Object.hasOwn(DROPPED_IN_2020, key)) {
      site.note(`"${key}" is not a keyword of JSON Schema 2020-12 (${DROPPED_IN_2020[key]}); not checked at ${where}`);
    } else if (KNOWN.oas31.has(key)) {
      site.note(`"${key}" is not a keyword of ${DIALECT_NAME[site.dialect]}; not checked at ${where}`);
    } else {
      site.note(`unknown keyword "${key}"; not checked at ${where}`);
    }
  }
}

/**
 * OpenAPI 3.0 and Swagger 2.0 only: required properties that are readOnly need not be in a
 * request, writeOnly ones not in a response. 2020-12 treats both as annotations.
 */
function optionalProperties(site: Site): { request: Set<string>; response: Set<string> } {
  const out = { request: new Set<string>(), response: new Set<string>() };
  const props = site.schema.properties;
  if (site.dialect === 'oas31' || !isObject(props)) return out;
  for (const name of Object.keys(props)) {
    const prop = followRefs(site, props[name]);
    if (!isObject(prop)) continue;
    if (prop.readOnly === true) out.request.add(name);
    if (prop.writeOnly === true && site.dialect === 'oas30') out.response.add(name);
  }
  return out;
}

function followRefs(site: Site, schema: unknown): unknown {
  let current = schema;
  let base = site.base;
  for (let hops = 0; hops < 32 && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const loc = site.host.resolveRef(current.$ref, base);
    if (typeof loc === 'string') return undefined;
    current = site.host.schemaValue(loc);
    base = loc.docUri;
  }
  return current;
}

