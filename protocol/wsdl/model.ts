/**
 * The WSDL 1.1 model Parley reads: services -> ports (address) -> bindings (SOAP 1.1 or 1.2,
 * style) -> operations (soapAction, input/output message parts, one-way, faults). Plain data
 * except `schemas`, the XSD component tables samples are built from.
 */
import type { QName } from './xml.js';
import type { SchemaSet } from './xsd.js';

export type SoapVersion = '1.1' | '1.2';
export type SoapStyle = 'document' | 'rpc';
export type SoapUse = 'literal' | 'encoded';

export const SOAP11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP11_ENCODING_NS = 'http://schemas.xmlsoap.org/soap/encoding/';
export const SOAP12_ENCODING_NS = 'http://www.w3.org/2003/05/soap-encoding';

export function envelopeNamespace(version: SoapVersion): string {
  return version === '1.2' ? SOAP12_ENVELOPE_NS : SOAP11_ENVELOPE_NS;
}

export interface WsdlPart {
  name: string;
  /** A part declared by a global element (document style). */
  element?: QName;
  /** A part declared by a type (rpc style). */
  type?: QName;
}

export interface WsdlHeader {
  message: QName;
  part: WsdlPart;
  use: SoapUse;
  namespace: string;
}

export interface WsdlMessageUse {
  /** The operation's input/output name, when written. */
  name?: string;
  message: QName;
  /** The parts that go in the Body (soap:body's `parts`, or every part of the message). */
  parts: WsdlPart[];
  headers: WsdlHeader[];
  use: SoapUse;
  /** soap:body's namespace (rpc wrapper namespace), else the definitions' target namespace. */
  namespace: string;
  encodingStyle?: string;
}

export interface WsdlFault {
  name: string;
  message?: QName;
  parts: WsdlPart[];
  use: SoapUse;
  namespace: string;
}

export interface WsdlOperation {
  name: string;
  /** soapAction as written ('' when none). */
  soapAction: string;
  style: SoapStyle;
  /** An input and no output. */
  oneWay: boolean;
  input?: WsdlMessageUse;
  output?: WsdlMessageUse;
  faults: WsdlFault[];
  documentation?: string;
}

export interface WsdlPort {
  service: string;
  name: string;
  /** soap:address location ('' when none). */
  address: string;
}

export interface WsdlBinding {
  name: string;
  namespace: string;
  portType: QName;
  soapVersion: SoapVersion;
  style: SoapStyle;
  transport: string;
  operations: WsdlOperation[];
  /** The service ports that use this binding. */
  ports: WsdlPort[];
}

export interface WsdlProblem {
  code: string;
  message: string;
  /** The document the problem is in. */
  location: string;
}

export interface WsdlDefinition {
  name?: string;
  targetNamespace: string;
  /** The entry document first, then every imported or included one, as the reader named them. */
  documents: string[];
  /** SOAP 1.1 and 1.2 bindings, in document order. */
  bindings: WsdlBinding[];
  /** Service names with their ports (including ports of non-SOAP bindings, with `soap: false`). */
  services: { name: string; ports: (WsdlPort & { binding: QName; soap: boolean })[] }[];
  problems: WsdlProblem[];
  /** Prefixes the documents declared, namespace -> first prefix, to name samples' namespaces as the WSDL does. */
  prefixes: Map<string, string>;
  schemas: SchemaSet;
}
