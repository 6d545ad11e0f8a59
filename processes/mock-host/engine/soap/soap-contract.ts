/**
 * What a SOAP mock needs of its contract: one binding's SOAP version and operations (each with
 * its action and the qualified names of its input and output body elements), and the cached
 * documents that `?wsdl` serves and the XSD check compiles. Built from the WSDL engine's model
 * (soap-contract-from-wsdl.ts); kept to plain data so it crosses to a check worker as it is.
 */
import type { SoapVersion } from './soap-version.js';

/** An rpc/literal part: an unqualified accessor element in the operation's wrapper, of an XSD type (or a global element). */
export interface RpcPart {
  name: string;
  type?: { ns: string; local: string };
  element?: { ns: string; local: string };
}

/** The wrapper element of an rpc/literal message: the XSD check declares it from the parts. */
export interface RpcWrapper {
  ns: string;
  name: string;
  parts: RpcPart[];
}

export interface SoapOperationContract {
  /** The WSDL operation's name; a mock operation's `operationId`. */
  name: string;
  /** soapAction of soap:operation / soap12:operation; empty when the binding gives none. */
  action: string;
  style: 'document' | 'rpc';
  /** `{namespace}local` of the Body's element: the input part's element (document) or the operation's wrapper (rpc). */
  inputElement?: string;
  /** The same for the output; absent for a one-way operation. */
  outputElement?: string;
  oneWay: boolean;
  /** rpc/literal with a wrapper namespace: the wrappers the XSD check declares (rpc/encoded: structure only). */
  rpcInput?: RpcWrapper;
  rpcOutput?: RpcWrapper;
}

export interface SoapContract {
  version: SoapVersion;
  /** The binding's name (a WSDL with several is mocked one binding at a time). */
  binding: string;
  operations: SoapOperationContract[];
  /** The cached documents as text, by their path in the API folder. */
  documents: Map<string, string>;
  /** The WSDL the binding comes from; what `?wsdl` serves. */
  entry: string;
  /** Where each document was read from at import, by path (the API's `soap.sources`); empty when unknown. */
  sources: Map<string, string>;
}

/**
 * Finds the operation a request is for: by its action first (SOAPAction, or 1.2's action
 * parameter), then by the Body's element name. Operations share one endpoint, so the path says
 * nothing. Maps are keyed by what the contract names, so a name from a request finds only those.
 */
export class SoapRouter<T> {
  private readonly byAction = new Map<string, T | null>();
  private readonly byElement = new Map<string, T | null>();

  constructor(entries: Array<{ contract: SoapOperationContract; target: T }>) {
    for (const { contract, target } of entries) {
      // An action or element two operations share routes neither: the other key must decide.
      if (contract.action) this.byAction.set(contract.action, this.byAction.has(contract.action) ? null : target);
      if (contract.inputElement) this.byElement.set(contract.inputElement, this.byElement.has(contract.inputElement) ? null : target);
    }
  }

  byActionName(action: string): T | undefined {
    return action ? (this.byAction.get(action) ?? undefined) : undefined;
  }

  byBodyElement(qname: string): T | undefined {
    return this.byElement.get(qname) ?? undefined;
  }

  /** True when the action alone cannot decide (no action, or one no operation or several have). */
  needsBody(action: string): boolean {
    return this.byActionName(action) === undefined;
  }
}
