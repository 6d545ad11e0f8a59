/**
 * The SOAP mock's XSD check with patterns judged by the linear engine (xsd-patterns.ts) gives the
 * same problems as libxml2 judging them itself, on every shape a pattern reaches a value through
 * (a derivation of patterned types, an attribute, simple content, several patterns in one step,
 * a collapsed token, enumerations, defaults and fixed values that must still compile), and
 * answers at once where libxml2's own engine would not finish. Patterns libxml2 would apply
 * without saying which (list items, union members), or that the engine cannot take, stay
 * libxml2's.
 */
import { XmlDocument, XsdValidator, XmlValidateError } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import { compileWsdlSchemas, type CompiledSchemas } from './xsd-schemas.js';

const NS = 'urn:parley:test:patterns';

/** Written for this test: simple types with patterns reached in every way a schema allows. */
const TYPES = `
  <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="EuroCode"><xs:restriction base="t:Code"><xs:pattern value="E.*"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Listed"><xs:restriction base="t:Code"><xs:enumeration value="EUR"/><xs:enumeration value="USD"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Either"><xs:restriction base="xs:string"><xs:pattern value="\\d+"/><xs:pattern value="[a-z]+"/><xs:maxLength value="6"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Word"><xs:restriction base="xs:token"><xs:pattern value="[a-z]+( [a-z]+)*"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Evil"><xs:restriction base="xs:string"><xs:pattern value="((a|aa)+)+c"/></xs:restriction></xs:simpleType>
  <xs:complexType name="Amount"><xs:simpleContent><xs:extension base="t:Either"><xs:attribute name="currency" type="t:Code"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:element name="Order">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="code" type="t:Code" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="euro" type="t:EuroCode" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="listed" type="t:Listed" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="either" type="t:Either" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="word" type="t:Word" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="amount" type="t:Amount" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element name="fallback" type="t:Code" default="ABC" minOccurs="0"/>
        <xs:element name="evil" type="t:Evil" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="region" type="t:Code"/>
      <xs:attribute name="kind" type="xs:string" fixed="order"/>
    </xs:complexType>
  </xs:element>`;

const schemaText = (types: string) => `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="${NS}" targetNamespace="${NS}" elementFormDefault="qualified">${types}</xs:schema>`;
const wsdl = (types: string) => `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="${NS}"><wsdl:types>${schemaText(types)}</wsdl:types></wsdl:definitions>`;

function compiled(types: string): Extract<CompiledSchemas, { ok: true }> {
  const result = compileWsdlSchemas(new Map([['svc.wsdl', wsdl(types)]]));
  if (!result.ok) throw new Error(result.reason);
  return result;
}

/** Problems of the mock's check, and of libxml2 judging the patterns itself, for one Order. */
function both(body: string): { mock: string[]; libxml2: string[] } {
  const instance = `<Order xmlns="${NS}"${body}</Order>`;
  const doc = XmlDocument.fromString(instance);
  const schema = XmlDocument.fromString(schemaText(TYPES));
  const reference = XsdValidator.fromDoc(schema);
  try {
    let libxml2: string[] = [];
    try {
      reference.validate(doc);
    } catch (err) {
      if (!(err instanceof XmlValidateError)) throw err;
      libxml2 = err.details.map((d) => `${d.message.trim()}${d.line > 0 ? ` (line ${d.line})` : ''}`);
    }
    const mock = compiled(TYPES).schemas;
    // The comparison means something only while the mock's check judges the patterns itself.
    expect(mock.patterns.linear).toBe(true);
    return { mock: mock.validate(doc.root).problems, libxml2 };
  } finally {
    reference.dispose();
    schema.dispose();
    doc.dispose();
  }
}

describe('patterns on the linear engine in the SOAP mock XSD check', () => {
  it('leaves no pattern to libxml2 when the engine takes them all', () => {
    expect(compiled(TYPES).schemas.patterns).toMatchObject({ linear: true });
  });

  it.each([
    ['valid values everywhere', ' region="EMA" kind="order"><code>ABC</code><euro>EUR</euro><listed>USD</listed><either>123</either><either>abc</either><word>  two   words </word><amount currency="USD">42</amount><fallback/>'],
    ['a value its own pattern refuses', '><code>abc</code><code>ABCD</code>'],
    ['a derived type: its own pattern, then its base\'s', '><euro>USD</euro><euro>Eur</euro><euro>EURO</euro>'],
    ['an enumeration of a patterned base', '><listed>GBP</listed><listed>usd</listed>'],
    ['two patterns of one step, and another facet', '><either>12ab</either><either>abcdefg</either><either>1234567</either>'],
    ['a collapsed token', '><word>two\n words</word><word>Two</word>'],
    ['simple content and its attribute', '><amount currency="usd">x1</amount>'],
    ['a fixed attribute beside patterned ones, and a default element', ' region="EMX" kind="x"><fallback>abc</fallback>'],
    ['quotes and markup in a value', '><code>it\'s &lt;a&gt; &amp; "b"</code>'],
  ])('%s: the same problems as libxml2 judging the patterns', (_what, body) => {
    const { mock, libxml2 } = both(body);
    expect(mock).toEqual(libxml2);
  });

  it('judges at once the pattern libxml2 would run for minutes', () => {
    const doc = XmlDocument.fromString(`<Order xmlns="${NS}"><evil>${'a'.repeat(60)}!</evil><evil>aac</evil></Order>`);
    try {
      const { problems } = compiled(TYPES).schemas.validate(doc.root);
      expect(problems).toEqual([`Element '{${NS}}evil': [facet 'pattern'] The value '${'a'.repeat(60)}!' is not accepted by the pattern '((a|aa)+)+c'. (line 1)`]);
    } finally {
      doc.dispose();
    }
  });

  it.each([
    ['a pattern on the items of a list type', `<xs:simpleType name="C"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]+"/></xs:restriction></xs:simpleType><xs:simpleType name="L"><xs:list itemType="t:C"/></xs:simpleType>`, /items of a list type/],
    ['a pattern on a member of a union type', `<xs:simpleType name="U"><xs:union memberTypes="xs:int"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="[A-Z]+"/></xs:restriction></xs:simpleType></xs:union></xs:simpleType>`, /members of a union type/],
    ['a fixed value of a type with a pattern', `<xs:simpleType name="C"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]+"/></xs:restriction></xs:simpleType><xs:element name="E"><xs:complexType><xs:attribute name="a" type="t:C" fixed="X"/></xs:complexType></xs:element>`, /fixed value/],
    ['an identity constraint', `<xs:simpleType name="C"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]+"/></xs:restriction></xs:simpleType><xs:element name="E"><xs:complexType><xs:sequence><xs:element name="c" type="t:C" maxOccurs="unbounded"/></xs:sequence></xs:complexType><xs:unique name="u"><xs:selector xpath="t:c"/><xs:field xpath="."/></xs:unique></xs:element>`, /identity constraints/],
    ['a pattern on an ID', `<xs:simpleType name="I"><xs:restriction base="xs:ID"><xs:pattern value="[A-Z]+"/></xs:restriction></xs:simpleType>`, /derives from xs:ID/],
    ['a pattern the engine cannot take', `<xs:simpleType name="N"><xs:restriction base="xs:string"><xs:pattern value="\\i\\c*"/></xs:restriction></xs:simpleType>`, /cannot run on the linear engine: it uses \\i/],
  ])('%s stays libxml2\'s, with the reason', (_what, types, reason) => {
    const plan = compiled(types).schemas.patterns;
    expect(plan.linear).toBe(false);
    expect(plan.linear ? '' : plan.reason).toMatch(reason);
  });
});
