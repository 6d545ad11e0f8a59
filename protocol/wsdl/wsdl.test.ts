import { describe, expect, test } from 'vitest';
import { hasCode } from '../errors.js';
import { childrenNamed, parseXml, readWsdl, sampleEnvelope, sampleFaultEnvelope, type WsdlReader, type XmlElement } from './index.js';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS } from './model.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';

function wsdl(opts: { types?: string; soap12?: boolean; style?: 'document' | 'rpc'; use?: 'literal' | 'encoded'; parts?: string; outParts?: string; extraNs?: string }): string {
  const soap = opts.soap12 ? 'http://schemas.xmlsoap.org/wsdl/soap12/' : 'http://schemas.xmlsoap.org/wsdl/soap/';
  const use = opts.use ?? 'literal';
  const ns = opts.style === 'rpc' ? ' namespace="urn:calc"' : '';
  return `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${soap}" xmlns:xsd="${XSD}" xmlns:tns="urn:calc" targetNamespace="urn:calc"${opts.extraNs ?? ''}>
  <types>${opts.types ?? ''}</types>
  <message name="AddIn">${opts.parts ?? '<part name="parameters" element="tns:Add"/>'}</message>
  <message name="AddOut">${opts.outParts ?? '<part name="parameters" element="tns:AddResponse"/>'}</message>
  <portType name="CalcPort">
    <operation name="Add"><input message="tns:AddIn"/><output message="tns:AddOut"/></operation>
    <operation name="Notify"><input message="tns:AddIn"/></operation>
  </portType>
  <binding name="CalcBinding" type="tns:CalcPort">
    <s:binding style="${opts.style ?? 'document'}" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Add"><s:operation soapAction="urn:calc#Add"/><input><s:body use="${use}"${ns}/></input><output><s:body use="${use}"${ns}/></output></operation>
    <operation name="Notify"><s:operation soapAction="urn:calc#Notify"/><input><s:body use="${use}"${ns}/></input></operation>
  </binding>
  <service name="Calc"><port name="CalcPort" binding="tns:CalcBinding"><s:address location="http://127.0.0.1:9/calc"/></port></service>
</definitions>`;
}

const SCHEMA = `<xsd:schema targetNamespace="urn:calc" elementFormDefault="qualified">
  <xsd:element name="Add"><xsd:complexType><xsd:sequence>
    <xsd:element name="a" type="xsd:int"/><xsd:element name="b" type="xsd:int"/>
    <xsd:element name="mode" type="tns:Mode" minOccurs="0"/>
    <xsd:element name="node" type="tns:Node"/>
  </xsd:sequence><xsd:attribute name="id" type="xsd:string"/></xsd:complexType></xsd:element>
  <xsd:element name="AddResponse"><xsd:complexType><xsd:sequence><xsd:element name="sum" type="xsd:long"/></xsd:sequence></xsd:complexType></xsd:element>
  <xsd:simpleType name="Mode"><xsd:restriction base="xsd:string"><xsd:enumeration value="fast"/><xsd:enumeration value="exact"/></xsd:restriction></xsd:simpleType>
  <xsd:complexType name="Node"><xsd:sequence><xsd:element name="label" type="xsd:string"/><xsd:element name="child" type="tns:Node" minOccurs="0"/><xsd:element name="next" type="tns:Node"/></xsd:sequence></xsd:complexType>
</xsd:schema>`;

const noReader: WsdlReader = async (ref) => {
  throw new Error(`nothing to read (${ref})`);
};

function read(text: string, reader: WsdlReader = noReader) {
  return readWsdl({ location: 'mem:/calc.wsdl', text }, reader);
}

function body(xml: string): XmlElement {
  const root = parseXml(xml, 'sample');
  const b = root.children.find((c) => c.local === 'Body');
  if (!b) throw new Error('no Body');
  return b;
}

describe('readWsdl model', () => {
  test('services, ports, bindings and operations with soapAction, one-way and version', async () => {
    const def = await read(wsdl({ types: SCHEMA }));
    expect(def.bindings).toHaveLength(1);
    const b = def.bindings[0]!;
    expect(b).toMatchObject({ name: 'CalcBinding', soapVersion: '1.1', style: 'document', ports: [{ service: 'Calc', name: 'CalcPort', address: 'http://127.0.0.1:9/calc' }] });
    expect(b.operations.map((o) => [o.name, o.soapAction, o.oneWay])).toEqual([
      ['Add', 'urn:calc#Add', false],
      ['Notify', 'urn:calc#Notify', true],
    ]);
    expect((await read(wsdl({ types: SCHEMA, soap12: true }))).bindings[0]!.soapVersion).toBe('1.2');
  });

  test('a document that is not wsdl:definitions is "not this format"', async () => {
    await expect(read('<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>')).rejects.toMatchObject({ code: 'wsdl-not-wsdl' });
  });

  test('an import that cannot be read is a problem, not a failure', async () => {
    const def = await read(wsdl({ types: `<xsd:schema targetNamespace="urn:x"><xsd:import namespace="urn:y" schemaLocation="missing.xsd"/></xsd:schema>`, parts: '<part name="a" type="xsd:int"/>', outParts: '<part name="a" type="xsd:int"/>' }));
    expect(def.problems.map((p) => p.code)).toEqual(['wsdl-import-unreadable']);
    expect(def.problems[0]!.message).toContain('missing.xsd');
  });
});

describe('sampleEnvelope', () => {
  test('document/literal: the part element, qualified, enumerations and recursion bounded', async () => {
    const def = await read(wsdl({ types: SCHEMA }));
    const xml = sampleEnvelope(def, 'CalcBinding', 'Add', 'input');
    const root = parseXml(xml, 'sample');
    expect(root.ns).toBe(SOAP11_ENVELOPE_NS);
    const add = body(xml).children[0]!;
    expect([add.ns, add.local, add.attrs.get('id')]).toEqual(['urn:calc', 'Add', '?']);
    expect(add.children.map((c) => [c.ns, c.local, c.text])).toEqual([
      ['urn:calc', 'a', '0'],
      ['urn:calc', 'b', '0'],
      ['urn:calc', 'mode', 'fast'],
      ['urn:calc', 'node', ''],
    ]);
    // Node recurses: its optional child is left out, its required next is an empty element.
    const node = add.children[3]!;
    expect(node.children.map((c) => c.local)).toEqual(['label', 'next']);
    expect(node.children[1]!.children).toEqual([]);
    expect(xml).toContain('xmlns:tns="urn:calc"');
    const out = body(sampleEnvelope(def, 'CalcBinding', 'Add', 'output')).children[0]!;
    expect([out.local, out.children[0]!.local]).toEqual(['AddResponse', 'sum']);
    expect(body(sampleEnvelope(def, 'CalcBinding', 'Notify', 'output')).children).toEqual([]);
  });

  test('rpc/literal: a wrapper named after the operation in the body namespace, unqualified parts', async () => {
    const def = await read(wsdl({ style: 'rpc', parts: '<part name="a" type="xsd:int"/><part name="b" type="xsd:int"/>', outParts: '<part name="sum" type="xsd:int"/>' }));
    const wrapper = body(sampleEnvelope(def, 'CalcBinding', 'Add', 'input')).children[0]!;
    expect([wrapper.ns, wrapper.local]).toEqual(['urn:calc', 'Add']);
    expect(wrapper.children.map((c) => [c.ns, c.local, c.text])).toEqual([
      ['', 'a', '0'],
      ['', 'b', '0'],
    ]);
    expect(body(sampleEnvelope(def, 'CalcBinding', 'Add', 'output')).children[0]!.local).toBe('AddResponse');
  });

  test('rpc/encoded in SOAP 1.2: encodingStyle on the wrapper and xsi:type on the parts', async () => {
    const def = await read(wsdl({ soap12: true, style: 'rpc', use: 'encoded', parts: '<part name="a" type="xsd:int"/>', outParts: '<part name="sum" type="xsd:int"/>' }));
    const xml = sampleEnvelope(def, 'CalcBinding', 'Add', 'input');
    const root = parseXml(xml, 'sample');
    expect(root.ns).toBe(SOAP12_ENVELOPE_NS);
    const wrapper = body(xml).children[0]!;
    expect(wrapper.attrs.get('soapenv:encodingStyle')).toBe('http://www.w3.org/2003/05/soap-encoding');
    expect(wrapper.children[0]!.attrs.get('xsi:type')).toBe('xsd:int');
    expect(xml).toContain('xmlns:xsd="http://www.w3.org/2001/XMLSchema"');
  });

  test('faults: 1.1 faultcode/faultstring, 1.2 Code/Reason', async () => {
    const f11 = body(sampleFaultEnvelope(await read(wsdl({ types: SCHEMA })), 'CalcBinding', 'Add')).children[0]!;
    expect(f11.children.map((c) => c.local)).toEqual(['faultcode', 'faultstring']);
    const f12 = body(sampleFaultEnvelope(await read(wsdl({ types: SCHEMA, soap12: true })), 'CalcBinding', 'Add')).children[0]!;
    expect(f12.children.map((c) => c.local)).toEqual(['Code', 'Reason']);
  });

  test('an unknown operation is not-found', async () => {
    const def = await read(wsdl({ types: SCHEMA }));
    expect(() => sampleEnvelope(def, 'CalcBinding', 'Nope', 'input')).toThrow(/no operation named "Nope"/);
  });
});

describe('XML safety', () => {
  const XXE = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><definitions xmlns="http://schemas.xmlsoap.org/wsdl/">&x;</definitions>`;
  const LAUGHS = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><definitions xmlns="http://schemas.xmlsoap.org/wsdl/">&lol3;</definitions>`;
  const DTD = `<?xml version="1.0"?><!DOCTYPE definitions SYSTEM "http://127.0.0.1:9/wsdl.dtd"><definitions xmlns="http://schemas.xmlsoap.org/wsdl/"/>`;
  const deep = (n: number) => `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">${'<documentation>'.repeat(n)}${'</documentation>'.repeat(n)}</definitions>`;

  test.each([
    ['an external entity', XXE, 'wsdl-dtd-refused', /DTD/],
    ['billion laughs', LAUGHS, 'wsdl-dtd-refused', /DTD/],
    ['a DTD', DTD, 'wsdl-dtd-refused', /DTD/],
    ['a too-deep document', deep(300), 'wsdl-too-deep', /more than 256 deep/],
  ])('a WSDL with %s is refused with a clear error, nothing read', async (_what, text, code, message) => {
    const asked: string[] = [];
    const err = await read(text, async (ref) => {
      asked.push(ref);
      throw new Error('no');
    }).catch((e: unknown) => e);
    expect(hasCode(err, code)).toBe(true);
    expect((err as Error).message).toMatch(message);
    expect(asked).toEqual([]);
  });

  test('an oversized WSDL is refused', async () => {
    const big = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><documentation>${'x'.repeat(2000)}</documentation></definitions>`;
    await expect(readWsdl({ location: 'big.wsdl', text: big }, noReader, { maxChars: 1000 })).rejects.toMatchObject({ code: 'wsdl-too-large', message: expect.stringContaining('over the limit of 1,000') });
  });

  test.each([
    ['an external entity', XXE.replace(/<definitions[^>]*>&x;<\/definitions>/, `<xsd:schema xmlns:xsd="${XSD}">&x;</xsd:schema>`), 'wsdl-dtd-refused'],
    ['billion laughs', LAUGHS.replace(/<definitions[^>]*>&lol3;<\/definitions>/, `<xsd:schema xmlns:xsd="${XSD}">&lol3;</xsd:schema>`), 'wsdl-dtd-refused'],
    ['a too-deep document', `<xsd:schema xmlns:xsd="${XSD}">${'<xsd:annotation>'.repeat(300)}${'</xsd:annotation>'.repeat(300)}</xsd:schema>`, 'wsdl-too-deep'],
  ])('an imported XSD with %s is refused, naming the XSD', async (_what, xsd, code) => {
    const asked: string[] = [];
    const text = wsdl({ types: `<xsd:schema targetNamespace="urn:x"><xsd:import namespace="urn:y" schemaLocation="evil.xsd"/></xsd:schema>`, parts: '<part name="a" type="xsd:int"/>', outParts: '<part name="a" type="xsd:int"/>' });
    const err = await read(text, async (ref) => {
      asked.push(ref);
      return { location: 'mem:/evil.xsd', text: xsd };
    }).catch((e: unknown) => e);
    expect(hasCode(err, code)).toBe(true);
    expect((err as Error).message).toContain('evil.xsd');
    expect(asked).toEqual(['evil.xsd']);
  });

  test('names from outside are names: a type called __proto__ or constructor samples like any other', async () => {
    const types = `<xsd:schema targetNamespace="urn:calc" elementFormDefault="qualified">
      <xsd:element name="constructor" type="tns:__proto__"/>
      <xsd:complexType name="__proto__"><xsd:sequence><xsd:element name="toString" type="xsd:string"/></xsd:sequence></xsd:complexType>
    </xsd:schema>`;
    const def = await read(wsdl({ types, parts: '<part name="p" element="tns:constructor"/>' }));
    const el = body(sampleEnvelope(def, 'CalcBinding', 'Add', 'input')).children[0]!;
    expect([el.local, childrenNamed(el, 'urn:calc', 'toString').length]).toEqual(['constructor', 1]);
  });
});

describe('readSoapFault', () => {
  test('SOAP 1.1 and 1.2 faults are read; other XML and broken bodies are not faults', async () => {
    const { readSoapFault } = await import('./fault.js');
    expect(readSoapFault(`<s:Envelope xmlns:s="${SOAP11_ENVELOPE_NS}"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>Division by zero</faultstring><detail/></s:Fault></s:Body></s:Envelope>`)).toEqual({ version: '1.1', form: 'faultcode', code: 's:Client', reason: 'Division by zero', hasDetail: true });
    expect(readSoapFault(`<e:Envelope xmlns:e="${SOAP12_ENVELOPE_NS}"><e:Body><e:Fault><e:Code><e:Value>e:Sender</e:Value><e:Subcode><e:Value>m:Bad</e:Value></e:Subcode></e:Code><e:Reason><e:Text xml:lang="en">No</e:Text></e:Reason></e:Fault></e:Body></e:Envelope>`)).toEqual({ version: '1.2', form: 'Code', code: 'e:Sender / m:Bad', reason: 'No', hasDetail: false });
    // A 1.2-style fault in a 1.1 envelope (as the soap package's server writes one) is read too.
    expect(readSoapFault(`<s:Envelope xmlns:s="${SOAP11_ENVELOPE_NS}"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value></s:Code><s:Reason><s:Text>Bad</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`)).toMatchObject({ version: '1.1', form: 'Code', code: 's:Sender', reason: 'Bad' });
    expect(readSoapFault(`<s:Envelope xmlns:s="${SOAP11_ENVELOPE_NS}"><s:Body><m:AddResult xmlns:m="urn:x"><Fault/></m:AddResult></s:Body></s:Envelope>`)).toBeNull();
    expect(readSoapFault('<Fault><unclosed></Fault>')).toBeNull();
    expect(readSoapFault(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><s:Envelope xmlns:s="${SOAP11_ENVELOPE_NS}"><s:Body><s:Fault><faultstring>&e;</faultstring></s:Fault></s:Body></s:Envelope>`)).toBeNull();
  });
});
