/**
 * What tells SOAP 1.1 and 1.2 apart on the wire: the envelope namespace, the Content-Type
 * (text/xml vs application/soap+xml) and where the action travels (the SOAPAction header vs the
 * `action` parameter of the Content-Type).
 */
import { essence } from '../../../../protocol/media-type.js';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type SoapVersion } from '../../../../protocol/wsdl/model.js';

export type { SoapVersion };

/** The WSDL engine's envelope namespaces, by version. */
export const ENVELOPE_NS: Readonly<Record<SoapVersion, string>> = { '1.1': SOAP11_ENVELOPE_NS, '1.2': SOAP12_ENVELOPE_NS };

export const SOAP_CONTENT_TYPE: Readonly<Record<SoapVersion, string>> = {
  '1.1': 'text/xml',
  '1.2': 'application/soap+xml',
};

export function versionOfNamespace(namespace: string): SoapVersion | undefined {
  if (namespace === ENVELOPE_NS['1.1']) return '1.1';
  if (namespace === ENVELOPE_NS['1.2']) return '1.2';
  return undefined;
}

/** The Content-Type a reply of this version is sent with. */
export function contentTypeFor(version: SoapVersion): string {
  return `${SOAP_CONTENT_TYPE[version]}; charset=utf-8`;
}

/** Why this Content-Type does not fit the version, or undefined when it does. */
export function contentTypeProblem(version: SoapVersion, contentType: string | undefined): string | undefined {
  const expected = SOAP_CONTENT_TYPE[version];
  if (!contentType) return `There is no Content-Type; SOAP ${version} messages are sent as ${expected}.`;
  const actual = essence(contentType);
  if (actual === expected) return undefined;
  return `Content-Type ${actual.slice(0, 80)} does not fit SOAP ${version}, which is sent as ${expected}.`;
}

/** One parameter of a Content-Type, unquoted (`action` of SOAP 1.2), or undefined. */
export function contentTypeParameter(contentType: string, name: string): string | undefined {
  const wanted = name.toLowerCase();
  // Parameters after the first `;`: name=token or name="quoted \" string".
  const pattern = /;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of contentType.matchAll(pattern)) {
    if (m[1]!.toLowerCase() !== wanted) continue;
    const raw = m[2]!.trim();
    return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return undefined;
}

/** The SOAPAction header's value without its quotes (SOAP 1.1 writes it as a quoted string). */
export function unquoteAction(value: string): string {
  const v = value.trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}

/**
 * The action a request names: SOAPAction for 1.1, the Content-Type's action parameter for 1.2
 * (either, when the client mixed them up). Empty string when it names none.
 */
export function requestAction(header: (name: string) => string | undefined): string {
  const soapAction = header('soapaction');
  if (soapAction !== undefined && unquoteAction(soapAction) !== '') return unquoteAction(soapAction);
  return contentTypeParameter(header('content-type') ?? '', 'action') ?? '';
}
