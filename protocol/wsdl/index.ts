/**
 * The WSDL engine: pure, no I/O beyond the injected reader. Used by the importer (fetches and
 * caches), the mock host (reads the cached copy), the sender's callers and the UI.
 */
export { readWsdl, listOperations, WSDL_NS, WSDL_SOAP11_NS, WSDL_SOAP12_NS, DEFAULT_WSDL_LIMITS } from './read-wsdl.js';
export type { WsdlReader, WsdlReadLimits } from './read-wsdl.js';
export { sampleEnvelope, sampleFaultEnvelope } from './sample.js';
export { WsdlError } from './errors.js';
export type { WsdlErrorCode } from './errors.js';
export { parseXml, serializeXml, resolveQName, childrenNamed, firstChild, qkey, DEFAULT_XML_LIMITS } from './xml.js';
export type { XmlElement, QName, XmlLimits, ParseOptions } from './xml.js';
export { SchemaSet, XSD_NS, XSD_NAMESPACES } from './xsd.js';
export type { SchemaInfo, SchemaComponent } from './xsd.js';
export * from './model.js';
export { cachedWsdlReader } from './cached-reader.js';
export type { CachedWsdlFile } from './cached-reader.js';
export { readSoapFault, MAX_FAULT_BODY_CHARS } from './fault.js';
export type { SoapFault } from './fault.js';
