import { describe, expect, it } from 'vitest';
import { parseSafeXml } from './safe-xml.js';
import { compileWsdlSchemas } from './xsd-schemas.js';
import { SoapContractCheck } from './soap-checker.js';
import { envelope11, testServiceContract } from '../test-support/soap-fixtures.js';

const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 2} "${`&lol${i === 0 ? '' : i + 1};`.repeat(10)}">`).join('') +
  ']><lolz>&lol10;</lolz>';

describe('safe XML: hostile messages', () => {
  it('refuses an external entity (XXE) and never reads the file', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`;
    const parsed = parseSafeXml(xxe);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.reason).toMatch(/document type declaration/);
      expect(parsed.reason).not.toMatch(/root:/);
    }
  });

  it('refuses billion laughs at once, without expanding it', () => {
    const started = performance.now();
    const parsed = parseSafeXml(LAUGHS);
    expect(parsed.ok).toBe(false);
    // Not a timing assertion on the feature: a guard so an expansion shows up as a failure, not a hang.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses a body nested deeper than libxml2 allows (256)', () => {
    const deep = '<a>'.repeat(5000) + '</a>'.repeat(5000);
    const parsed = parseSafeXml(deep);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(/depth/i);
  });

  it('refuses a body over the size limit before parsing it', () => {
    const huge = `<a>${'x'.repeat(2 * 1024 * 1024)}</a>`;
    const parsed = parseSafeXml(huge);
    expect(parsed).toMatchObject({ ok: false, tooLarge: true });
  });

  it('reads an ordinary message', () => {
    const parsed = parseSafeXml('<a xmlns="urn:x"><b>1</b></a>');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.doc.root.name).toBe('a');
      parsed.doc.dispose();
    }
  });

  it('a SOAP request carrying XXE is a problem, and the next request is still checked', () => {
    const check = new SoapContractCheck(testServiceContract());
    const hostile = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>` + envelope11('<v1:Ping>&x;</v1:Ping>');
    const bad = check.checkRequest({ method: 'POST', path: '/', operationId: 'Ping' }, { contentType: 'text/xml', body: hostile });
    expect(bad.problems.map((p) => p.message).join(' ')).toMatch(/document type declaration/);
    expect(JSON.stringify(bad)).not.toMatch(/root:x:0/);
    const laughs = check.checkRequest({ method: 'POST', path: '/', operationId: 'Ping' }, { contentType: 'text/xml', body: LAUGHS });
    expect(laughs.problems.length).toBeGreaterThan(0);
    const good = check.checkRequest({ method: 'POST', path: '/', operationId: 'Ping' }, { contentType: 'text/xml', body: envelope11('<v1:Ping/>') });
    expect(good).toEqual({ problems: [], fault: false });
  });
});

describe('safe XML: schemas read only the cached definition', () => {
  it('an xsd:include of file:///etc/passwd is not loaded: the schemas do not compile, nothing is read', () => {
    const wsdl = `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
      <wsdl:types><s:schema targetNamespace="urn:t"><s:include schemaLocation="file:///etc/passwd"/><s:element name="a" type="s:string"/></s:schema></wsdl:types></wsdl:definitions>`;
    const compiled = compileWsdlSchemas(new Map([['svc.wsdl', wsdl]]));
    // Our input provider answers every load and knows no such document: libxml2 reports it missing.
    expect(compiled).toEqual({ ok: false, reason: expect.stringMatching(/failed to load "file:\/\/\/etc\/passwd": No such file/) });
    if (!compiled.ok) expect(compiled.reason).not.toMatch(/root:/);
  });

  it('an xsd:import of an http URL is not fetched', () => {
    const wsdl = `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:o="urn:other" targetNamespace="urn:t">
      <wsdl:types><s:schema targetNamespace="urn:t"><s:import namespace="urn:other" schemaLocation="http://127.0.0.1:9/other.xsd"/><s:element name="a" type="o:T"/></s:schema></wsdl:types></wsdl:definitions>`;
    const compiled = compileWsdlSchemas(new Map([['svc.wsdl', wsdl]]));
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.reason).toMatch(/do not compile/);
  });
});
