/**
 * The XML Schemas of a WSDL, compiled once into one libxml2 XsdValidator, and a body element
 * validated against them (SPEC Mock HTTP surface rule 8: "the body against the operation's input
 * as the contract defines it"; rule 9 for the output).
 *
 * A WSDL carries its schemas inside <types>, often several, which lean on namespace declarations
 * of the WSDL around them and may include or import .xsd files cached beside it. Each embedded
 * schema is written out as a document of its own (with the namespaces it inherited), the schemas
 * of one target namespace are included by one wrapper, and a root schema imports every wrapper.
 * Included and imported files are read only from the API's cached documents (safe-xml.ts's input
 * provider); nothing else can be loaded, so a schemaLocation of file:///etc/passwd is just missing.
 */
import { XsdValidator, XmlError, XmlValidateError, type XmlDocument, type XmlElement } from 'libxml2-wasm';
import { definitionUrl, libxmlMessage, parseSafeXml, withDefinitionDocuments } from './safe-xml.js';
import { elementChildren } from './envelope.js';
import { escapeXml } from '../render-response.js';
import type { RpcWrapper } from './soap-contract.js';
import { judgePatterns, markPatterns, planPatterns, type PatternPlan } from './xsd-patterns.js';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
/** Where the generated wrappers live among the definition's documents; no cached file can be named so. */
const WRAPPER_DIR = '.parley-schemas';

/**
 * `rpc` holds `{namespace}name` of each rpc/literal wrapper declared from its parts (see
 * `rpcSchema`); an rpc message whose wrapper is not there gets the structure checks only.
 */
export type CompiledSchemas = { ok: true; schemas: XsdSchemas; rpc: ReadonlySet<string> } | { ok: false; reason: string };

export interface ElementCheck {
  /** Problems with the element against its declaration, at most `max`. */
  problems: string[];
  /** Why part of the element could not be checked (a value's pattern, say). */
  notChecked?: string;
}

export class XsdSchemas {
  constructor(
    private readonly validator: XsdValidator,
    /** How the schemas' patterns are judged (xsd-patterns.ts). */
    readonly patterns: PatternPlan,
  ) {}

  /**
   * Validates one element (a Body child) and everything inside it against its global
   * declaration. An element the schemas do not declare is a problem of its own.
   */
  validate(element: XmlElement, max = 50): ElementCheck {
    try {
      this.validator.validate(element);
      return { problems: [] };
    } catch (err) {
      if (err instanceof XmlValidateError) {
        return judgePatterns(this.patterns, err.details, (d, message) => `${message.trim()}${d.line > 0 ? ` (line ${d.line})` : ''}`, max);
      }
      // libxml2 stops a pattern past its own step limit (after about a second) and fails the whole
      // validation without a word; only patterns left to it (`patterns.linear` false) get there.
      if (err instanceof XmlError) return { problems: [], notChecked: `the schema validator gave up (${libxmlMessage(err)}), most likely on a pattern too costly for its backtracking engine` };
      throw err;
    }
  }

  dispose(): void {
    this.validator.dispose();
  }
}

/**
 * Compiles the schemas of the WSDL documents in `documents` (paths relative to the definition
 * folder, each document's text). A schema that does not compile is a reason, never a pass.
 */
export function compileWsdlSchemas(documents: ReadonlyMap<string, string>, origins: ReadonlyMap<string, string> = new Map(), rpc: readonly RpcWrapper[] = []): CompiledSchemas {
  const compiled = compileSchemas(documents, origins, rpc);
  // A wrapper that clashes with a declaration of the definition's own must not cost the document
  // checks: the schemas are compiled again without the rpc wrappers.
  return compiled.ok || rpc.length === 0 ? compiled : compileSchemas(documents, origins, []);
}

function compileSchemas(documents: ReadonlyMap<string, string>, origins: ReadonlyMap<string, string>, rpc: readonly RpcWrapper[]): CompiledSchemas {
  const sources = new Map<string, string>(documents);
  // A document read from an address is known by it, so an absolute schemaLocation finds its cached copy.
  const urlOf = (path: string): string => {
    const origin = origins.get(path);
    if (origin !== undefined) return origin;
    const of = /^(.*)\.schema-(\d+)\.xsd$/.exec(path);
    const wsdlOrigin = of ? origins.get(of[1]!) : undefined;
    return wsdlOrigin !== undefined ? `${wsdlOrigin}.parley-schema-${of![2]}.xsd` : definitionUrl(path);
  };
  const byNamespace = new Map<string, string[]>();
  // Every document stays parsed until its schemas are written out: the patterns are planned over
  // all of them at once (a derivation crosses documents), then marked in place (xsd-patterns.ts).
  const parsedDocs: XmlDocument[] = [];
  const embedded: Array<{ path: string; schema: XmlElement }> = [];
  const standalone: Array<{ path: string; doc: XmlDocument }> = [];
  let patterns: PatternPlan;
  try {
    for (const [path, text] of documents) {
      const parsed = parseSafeXml(text, { maxBytes: 16 * 1024 * 1024, url: urlOf(path) });
      if (!parsed.ok) {
        if (path.endsWith('.xsd')) continue;
        return { ok: false, reason: `${path}: ${parsed.reason}` };
      }
      parsedDocs.push(parsed.doc);
      const root = parsed.doc.root;
      if (root.namespaceUri === WSDL_NS && root.name === 'definitions') {
        for (const types of elementChildren(root).filter((e) => e.namespaceUri === WSDL_NS && e.name === 'types')) {
          for (const schema of elementChildren(types).filter((e) => e.namespaceUri === XSD_NS && e.name === 'schema')) embedded.push({ path, schema });
        }
      } else if (root.namespaceUri === XSD_NS && root.name === 'schema') {
        standalone.push({ path, doc: parsed.doc });
      }
    }
    patterns = planPatterns([...embedded.map((e) => e.schema), ...standalone.map((s) => s.doc.root)]);
    markPatterns(patterns);
    const counts = new Map<string, number>();
    for (const { path, schema } of embedded) {
      const i = counts.get(path) ?? 0;
      counts.set(path, i + 1);
      const own = `${path}.schema-${i}.xsd`;
      sources.set(own, standaloneSchema(schema));
      const tns = schema.attr('targetNamespace')?.value ?? '';
      byNamespace.set(tns, [...(byNamespace.get(tns) ?? []), own]);
    }
    // A schema file whose patterns were marked is loaded as marked.
    if (patterns.linear && patterns.steps.size > 0) for (const { path, doc } of standalone) sources.set(path, doc.toString());
  } finally {
    for (const doc of parsedDocs) doc.dispose();
  }
  if (byNamespace.size === 0 && rpc.length === 0) return { ok: false, reason: 'The definition declares no XML Schema (wsdl:types is empty).' };

  const wrapperOf = new Map<string, string>();
  for (const tns of byNamespace.keys()) wrapperOf.set(tns, `${WRAPPER_DIR}/ns-${wrapperOf.size}.xsd`);
  const declared = new Set<string>();
  let rpcFiles = 0;
  for (const [ns, group] of groupBy(rpc, (w) => w.ns)) {
    const own = `${WRAPPER_DIR}/rpc-${rpcFiles++}.xsd`;
    const schema = rpcSchema(ns, group, (typeNs) => wrapperOf.get(typeNs), byNamespace.has(ns));
    if (!schema) continue;
    sources.set(own, schema.text);
    for (const name of schema.names) declared.add(`{${ns}}${name}`);
    if (!wrapperOf.has(ns)) wrapperOf.set(ns, `${WRAPPER_DIR}/ns-${wrapperOf.size}.xsd`);
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), own]);
  }
  if (byNamespace.size === 0) return { ok: false, reason: 'The definition declares no XML Schema (wsdl:types is empty).' };

  const imports: string[] = [];
  for (const [tns, paths] of byNamespace) {
    const wrapper = wrapperOf.get(tns)!;
    // An include needs the same target namespace; the wrapper takes the group's own.
    const target = tns ? ` targetNamespace="${escapeXml(tns)}"` : '';
    const includes = paths.map((p) => `<xs:include schemaLocation="${escapeXml(urlOf(p))}"/>`).join('');
    sources.set(wrapper, `<xs:schema xmlns:xs="${XSD_NS}"${target}>${includes}</xs:schema>`);
    imports.push(`<xs:import${tns ? ` namespace="${escapeXml(tns)}"` : ''} schemaLocation="${escapeXml(definitionUrl(wrapper))}"/>`);
  }
  const root = `<xs:schema xmlns:xs="${XSD_NS}" targetNamespace="urn:parley:soap-mock:schemas">${imports.join('')}</xs:schema>`;

  return withDefinitionDocuments(
    sources,
    () => {
    const parsed = parseSafeXml(root, { url: definitionUrl(`${WRAPPER_DIR}/root.xsd`) });
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    try {
      return { ok: true, schemas: new XsdSchemas(XsdValidator.fromDoc(parsed.doc), patterns), rpc: declared };
    } catch (err) {
      return { ok: false, reason: `The schemas do not compile: ${libxmlMessage(err)}` };
    } finally {
      parsed.doc.dispose();
    }
    },
    urlOf,
  );
}

/**
 * A schema declaring rpc/literal wrappers of one namespace: each a global element whose sequence
 * holds its parts as unqualified elements of their types (or references to their elements), in
 * message order. A part whose type lives in a namespace the definition has no schema for (SOAP
 * encoding's, say) leaves its wrapper out; `sameGroup` says the namespace has schemas of its own,
 * which this one is included beside, so its types need no import.
 */
function rpcSchema(ns: string, wrappers: readonly RpcWrapper[], importOf: (typeNs: string) => string | undefined, sameGroup: boolean): { text: string; names: string[] } | undefined {
  const prefixes = new Map<string, string>();
  const names: string[] = [];
  let elements = '';
  const nameOf = (q: { ns: string; local: string }): string | undefined => {
    if (q.ns === XSD_NS) return `xs:${q.local}`;
    if (q.ns === ns) return sameGroup ? `t:${q.local}` : undefined;
    if (importOf(q.ns) === undefined) return undefined;
    let prefix = prefixes.get(q.ns);
    if (!prefix) prefixes.set(q.ns, (prefix = `p${prefixes.size}`));
    return `${prefix}:${q.local}`;
  };
  for (const wrapper of wrappers) {
    if (names.includes(wrapper.name)) continue;
    let parts = '';
    let complete = true;
    for (const part of wrapper.parts) {
      const ref = part.element ? nameOf(part.element) : part.type ? nameOf(part.type) : 'xs:anyType';
      if (!ref) {
        complete = false;
        break;
      }
      parts += part.element ? `<xs:element ref="${escapeXml(ref)}"/>` : `<xs:element name="${escapeXml(part.name)}" type="${escapeXml(ref)}"/>`;
    }
    if (!complete) continue;
    names.push(wrapper.name);
    elements += `<xs:element name="${escapeXml(wrapper.name)}"><xs:complexType><xs:sequence>${parts}</xs:sequence></xs:complexType></xs:element>`;
  }
  if (names.length === 0) return undefined;
  const declarations = [...prefixes].map(([uri, prefix]) => ` xmlns:${prefix}="${escapeXml(uri)}"`).join('');
  const imports = [...prefixes.keys()].map((uri) => `<xs:import namespace="${escapeXml(uri)}" schemaLocation="${escapeXml(definitionUrl(importOf(uri)!))}"/>`).join('');
  const text = `<xs:schema xmlns:xs="${XSD_NS}" xmlns:t="${escapeXml(ns)}"${declarations} targetNamespace="${escapeXml(ns)}">${imports}${elements}</xs:schema>`;
  return { text, names };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * The schema element as a document of its own. libxml2 writes an element with only the namespaces
 * declared on it, so those it inherited from the WSDL are declared on its start tag.
 */
function standaloneSchema(schema: XmlElement): string {
  const text = schema.toString();
  const own = schema.nsDeclarations;
  let declarations = '';
  for (const [prefix, uri] of Object.entries(schema.namespaces)) {
    if (Object.hasOwn(own, prefix) || prefix === 'xml') continue;
    declarations += prefix === '' ? ` xmlns="${escapeXml(uri)}"` : ` xmlns:${prefix}="${escapeXml(uri)}"`;
  }
  const nameEnd = text.search(/[\s/>]/);
  return text.slice(0, nameEnd) + declarations + text.slice(nameEnd);
}
