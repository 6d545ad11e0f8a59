/**
 * A SOAP mock's contract from an API's cached WSDL: the WSDL engine's one reader of a cached WSDL
 * (protocol/wsdl/cached-wsdl.ts, never the network: it only finds documents among them; a
 * definition update reads the old side with it too), and one binding becomes a SoapContract. The
 * same reading gives New Mock its operations and the sample reply of each.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import { qkey, type WsdlBinding, type WsdlDefinition, type WsdlOperation } from '../../../../protocol/wsdl/index.js';
import { readCachedWsdlDocuments } from '../../../../protocol/wsdl/cached-wsdl.js';
import type { MockDocuments, WsdlDocument } from '../../../../protocol/model/verdict.js';
import type { RpcWrapper, SoapContract, SoapOperationContract } from './soap-contract.js';

/** A SOAP mock's WSDL documents among what a mock is served from; an OpenAPI definition has no binding to serve. */
export function wsdlDocuments(documents: MockDocuments): WsdlDocument[] {
  if ('wsdl' in documents) return documents.wsdl;
  throw new ParleyError('contract-unsupported', 'The definition is not a WSDL: a SOAP mock is served from a WSDL binding.');
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
  const { definition, texts, sources, entry } = await readCachedWsdlDocuments(documents);
  return soapContract(pickBinding(definition, bindingName), texts, entry, sources);
}
