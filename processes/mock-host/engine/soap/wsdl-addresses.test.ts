/**
 * `?wsdl`'s rewrite of addresses and document locations when the element that carries them is in
 * a default namespace: the attribute is replaced, never doubled, and the document stays
 * well-formed. (Whole WSDLs of the corpus, read back by a real SOAP client, are in
 * test/integration/soap-wsdl-addresses.test.ts.)
 */
import { XmlDocument, type XmlAttribute } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import { cachedLocator } from '../../../../protocol/wsdl/cached-wsdl.js';
import { serveWsdlDocument } from './wsdl-addresses.js';

// Written for this test: the WSDL namespace as the default one (its wsdl:import and soap:address),
// and an embedded schema with the XML Schema namespace as the default one (its import).
const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" targetNamespace="urn:t">
  <import namespace="urn:more" location="more.wsdl"/>
  <types>
    <schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
      <import namespace="urn:types" schemaLocation="types.xsd"/>
    </schema>
  </types>
  <service name="S"><port name="P" binding="b"><soap:address location="http://old.example/svc"/></port></service>
</definitions>`;

const documents = new Map([
  ['svc.wsdl', WSDL],
  ['more.wsdl', '<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:more"/>'],
  ['types.xsd', '<schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:types"/>'],
]);

describe('?wsdl under default namespaces', () => {
  it('replaces location and schemaLocation in place; the result parses strictly', () => {
    const mockUrl = 'http://127.0.0.1:4010/svc';
    const served = serveWsdlDocument({ documents, entry: 'svc.wsdl', locate: cachedLocator(documents, new Map()) }, mockUrl);
    expect(served.ok).toBe(true);
    const text = served.ok ? served.text : '';
    const doc = XmlDocument.fromString(text);
    try {
      const at = (xpath: string) => (doc.get(xpath, { w: 'http://schemas.xmlsoap.org/wsdl/', s: 'http://schemas.xmlsoap.org/wsdl/soap/', x: 'http://www.w3.org/2001/XMLSchema' }) as XmlAttribute | null)?.value;
      expect(text.match(/ location=/g)).toHaveLength(2);
      expect(text.match(/ schemaLocation=/g)).toHaveLength(1);
      expect(at('//s:address/@location')).toBe(mockUrl);
      expect(at('/w:definitions/w:import/@location')).toBe(`${mockUrl}?wsdl=more.wsdl`);
      expect(at('//x:schema/x:import/@schemaLocation')).toBe(`${mockUrl}?wsdl=types.xsd`);
    } finally {
      doc.dispose();
    }
  });

  it('writes a Host with markup in it as attribute text, not as markup', () => {
    const host = 'h"/><x a="&amp;';
    const served = serveWsdlDocument({ documents, entry: 'svc.wsdl', locate: () => undefined }, `http://${host}/`);
    const text = served.ok ? served.text : '';
    const doc = XmlDocument.fromString(text);
    try {
      expect((doc.get('//*[local-name()="address"]/@location') as XmlAttribute | null)?.value).toBe(`http://${host}/`);
    } finally {
      doc.dispose();
    }
  });
});
