/**
 * A SOAP mock's contract from an API's cached WSDL: the WSDL engine (protocol/wsdl) reads the
 * cached documents (never the network: its reader here only finds documents among them), and one
 * binding becomes a SoapContract. The same reading gives New Mock its operations and the sample
 * reply of each.
 */
import { posix } from 'node:path';
import { ParleyError } from '../../../../protocol/errors.js';
import { cachedWsdlReader, qkey, readWsdl, type WsdlBinding, type WsdlDefinition, type WsdlOperation, type WsdlReader } from '../../../../protocol/wsdl/index.js';
import { resolveRefLocation } from '../../../../protocol/ref-location.js';
import type { MockDocuments, WsdlDocument } from '../../../../protocol/model/verdict.js';
import type { RpcWrapper, SoapContract, SoapOperationContract } from './soap-contract.js';

/** A SOAP mock's WSDL documents among what a mock is served from; an OpenAPI definition has no binding to serve. */
export function wsdlDocuments(documents: MockDocuments): WsdlDocument[] {
  if ('wsdl' in documents) return documents.wsdl;
  throw new ParleyError('contract-unsupported', 'The definition is not a WSDL: a SOAP mock is served from a WSDL binding.');
}

/** The documents' texts by path (the first of two with one path counts). */
export function documentTexts(documents: readonly WsdlDocument[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const doc of documents) if (!texts.has(doc.path)) texts.set(doc.path, doc.text);
  return texts;
}

/** Where each cached document was read from, by path; empty when the documents do not say. */
export function documentSources(documents: readonly WsdlDocument[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const doc of documents) if (doc.source !== undefined && !sources.has(doc.path)) sources.set(doc.path, doc.source);
  return sources;
}

/**
 * Which cached document `location`, written in the document at `fromPath`, names: under the
 * import's own rule (protocol/ref-location) when the sources are known, else relative to the path.
 */
export function cachedLocator(texts: ReadonlyMap<string, string>, sources: ReadonlyMap<string, string>): (fromPath: string, location: string) => string | undefined {
  const bySource = new Map([...sources].map(([path, source]) => [source, path]));
  return (fromPath, location) => {
    const base = sources.get(fromPath);
    if (base !== undefined) {
      const resolved = resolveRefLocation(location, base);
      return resolved.ok ? bySource.get(resolved.url) : undefined;
    }
    return locateCached(texts, fromPath, location);
  };
}

/**
 * Reads a cached document a WSDL refers to: a relative reference against the referring
 * document's path; an absolute URL by the file name it was cached under (the importer names a
 * cached copy after the last segment of its URL's path), when exactly one cached document has it.
 */
export function cachedReader(texts: ReadonlyMap<string, string>): WsdlReader {
  return async (ref, base) => {
    const path = locateCached(texts, base, ref);
    const text = path === undefined ? undefined : texts.get(path);
    if (path === undefined || text === undefined) throw new ParleyError('wsdl-not-cached', `${ref.slice(0, 120)} is not among the cached documents of the definition.`);
    return { location: path, text };
  };
}

export function locateCached(texts: ReadonlyMap<string, string>, base: string, ref: string): string | undefined {
  const bare = ref.split(/[?#]/, 1)[0]!;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(bare) && !bare.startsWith('/')) {
    const resolved = posix.normalize(posix.join(posix.dirname(base), bare));
    if (texts.has(resolved)) return resolved;
  }
  const name = posix.basename(bare);
  const found = [...texts.keys()].filter((p) => posix.basename(p) === name);
  return found.length === 1 ? found[0] : undefined;
}

/** The WSDL of `documents` (entry first), read by the WSDL engine from among them only. */
export async function readCachedWsdl(documents: readonly WsdlDocument[]): Promise<{ definition: WsdlDefinition; texts: Map<string, string>; sources: Map<string, string>; entry: string }> {
  const texts = documentTexts(documents);
  const sources = documentSources(documents);
  const entry = documents[0]?.path;
  const text = entry === undefined ? undefined : texts.get(entry);
  if (entry === undefined || text === undefined) throw new ParleyError('no-definition', 'The cached WSDL is missing; import the API again with definitions cached.');
  const entrySource = sources.get(entry);
  const definition =
    entrySource === undefined
      ? await readWsdl({ location: entry, text }, cachedReader(texts))
      : await readWsdl(
          { location: entrySource, text },
          cachedWsdlReader(
            [...sources].map(([path, source]) => ({ path, source })),
            async (path) => texts.get(path) ?? '',
          ),
        );
  return { definition, texts, sources, entry };
}

/** The binding a mock names, or the first when it names none; a name the WSDL lacks is an error. */
export function pickBinding(definition: WsdlDefinition, name: string | undefined): WsdlBinding {
  const binding = name === undefined ? definition.bindings[0] : definition.bindings.find((b) => b.name === name);
  if (!binding) {
    const names = definition.bindings.map((b) => b.name).join(', ') || 'none';
    throw new ParleyError('soap-binding-missing', name === undefined ? 'The WSDL has no SOAP binding to mock.' : `The WSDL has no SOAP binding ${name.slice(0, 120)} (it has: ${names.slice(0, 400)}).`);
  }
  return binding;
}

export function soapContract(binding: WsdlBinding, texts: Map<string, string>, entry: string, sources: Map<string, string>): SoapContract {
  return { version: binding.soapVersion, binding: binding.name, operations: binding.operations.map(operationContract), documents: texts, entry, sources };
}

function operationContract(op: WsdlOperation): SoapOperationContract {
  const contract: SoapOperationContract = { name: op.name, action: op.soapAction, style: op.style, oneWay: op.oneWay };
  const input = bodyElement(op, 'input');
  const output = bodyElement(op, 'output');
  if (input) contract.inputElement = input;
  if (output && !op.oneWay) contract.outputElement = output;
  const rpcInput = rpcWrapper(op, 'input');
  const rpcOutput = op.oneWay ? undefined : rpcWrapper(op, 'output');
  if (rpcInput) contract.rpcInput = rpcInput;
  if (rpcOutput) contract.rpcOutput = rpcOutput;
  return contract;
}

/**
 * The wrapper an rpc/literal message's parts go in (WSDL 1.1 3.5, WS-I BP R2729): named after
 * the operation (its output with Response) in soap:body's namespace, each part an unqualified
 * child. rpc/encoded is left out: its SOAP-encoding types are not in the definition's schemas.
 */
function rpcWrapper(op: WsdlOperation, direction: 'input' | 'output'): RpcWrapper | undefined {
  const use = direction === 'input' ? op.input : op.output;
  if (op.style !== 'rpc' || !use || use.use !== 'literal' || !use.namespace) return undefined;
  const parts = use.parts.map((p) => ({ name: p.name, ...(p.type ? { type: { ...p.type } } : {}), ...(p.element ? { element: { ...p.element } } : {}) }));
  return { ns: use.namespace, name: direction === 'input' ? op.name : `${op.name}Response`, parts };
}

/** Document style: the single Body part's element; rpc: the wrapper named after the operation (its output with Response). */
function bodyElement(op: WsdlOperation, direction: 'input' | 'output'): string | undefined {
  const use = direction === 'input' ? op.input : op.output;
  if (!use) return undefined;
  if (op.style === 'rpc') return qkey({ ns: use.namespace, local: direction === 'input' ? op.name : `${op.name}Response` });
  const parts = use.parts.filter((p) => p.element);
  return parts.length === 1 ? qkey(parts[0]!.element!) : undefined;
}

/** Everything a SOAP mock host needs, from the cached documents. */
export async function loadSoapContract(documents: readonly WsdlDocument[], bindingName: string | undefined): Promise<SoapContract> {
  const { definition, texts, sources, entry } = await readCachedWsdl(documents);
  return soapContract(pickBinding(definition, bindingName), texts, entry, sources);
}
