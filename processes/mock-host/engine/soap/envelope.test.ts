import { describe, expect, it } from 'vitest';
import { parseSafeXml } from './safe-xml.js';
import { readEnvelope } from './envelope.js';
import { soapFaultReply, soapFaultXml } from './fault.js';
import { contentTypeParameter, contentTypeProblem, requestAction } from './soap-version.js';
import { envelope11, envelope12 } from '../test-support/soap-fixtures.js';

function read(xml: string, expected?: '1.1' | '1.2') {
  const parsed = parseSafeXml(xml);
  if (!parsed.ok) throw new Error(parsed.reason);
  try {
    const e = readEnvelope(parsed.doc, expected);
    return { version: e.version, fault: e.fault, elements: e.bodyElements.map((b) => b.name), problems: e.problems };
  } finally {
    parsed.doc.dispose();
  }
}

describe('envelope structure', () => {
  it('reads SOAP 1.1 and 1.2 envelopes with one body element', () => {
    expect(read(envelope11('<v1:Ping/>', '<soapenv:Header/>'), '1.1')).toEqual({ version: '1.1', fault: false, elements: ['Ping'], problems: [] });
    expect(read(envelope12('<v1:Ping/>'), '1.2')).toEqual({ version: '1.2', fault: false, elements: ['Ping'], problems: [] });
  });

  it('names a version that differs from the binding', () => {
    expect(read(envelope12('<v1:Ping/>'), '1.1').problems.join()).toMatch(/SOAP 1.2, but the binding is SOAP 1.1/);
  });

  it('refuses a root that is not an Envelope, a missing Body, two Bodies, an empty or crowded Body', () => {
    expect(read('<Envelope><Body/></Envelope>').problems.join()).toMatch(/not a SOAP Envelope/);
    expect(read('<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Header/></e:Envelope>').problems).toEqual(['The Envelope has no Body.']);
    expect(read(envelope11('<v1:Ping/>').replace('</soapenv:Envelope>', '<soapenv:Body/></soapenv:Envelope>')).problems.join()).toMatch(/second Body/);
    expect(read(envelope11('')).problems.join()).toMatch(/Body is empty/);
    expect(read(envelope11('<v1:Ping/><v1:Ping/>')).problems.join()).toMatch(/holds 2 elements/);
    expect(read(envelope11('<v1:Ping/>').replace('<soapenv:Body>', '<x:Other xmlns:x="urn:x"/><soapenv:Body>')).problems.join()).toMatch(/where its Body belongs/);
  });

  it('SOAP 1.2 allows nothing after the Body; 1.1 does', () => {
    const trailing = (xml: string, close: string) => xml.replace(close, `<x:After xmlns:x="urn:x"/>${close}`);
    expect(read(trailing(envelope12('<v1:Ping/>'), '</env:Envelope>')).problems.join()).toMatch(/allows nothing after the Body/);
    expect(read(trailing(envelope11('<v1:Ping/>'), '</soapenv:Envelope>')).problems).toEqual([]);
  });

  it('checks the shape of a Fault in each version', () => {
    expect(read(envelope11('<soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>no</faultstring></soapenv:Fault>'))).toMatchObject({ fault: true, problems: [] });
    expect(read(envelope11('<soapenv:Fault><faultstring>no</faultstring><reason/></soapenv:Fault>')).problems).toEqual([
      'A SOAP 1.1 Fault needs a faultcode.',
      'A SOAP 1.1 Fault holds only faultcode, faultstring, faultactor and detail, not reason.',
    ]);
    expect(read(envelope12('<env:Fault><env:Code><env:Value>env:Sender</env:Value></env:Code><env:Reason><env:Text xml:lang="en">x</env:Text></env:Reason></env:Fault>'))).toMatchObject({ fault: true, problems: [] });
    expect(read(envelope12('<env:Fault><env:Reason><env:Text>x</env:Text></env:Reason><env:Code/></env:Fault>')).problems).toEqual([
      "A SOAP 1.2 Fault's Code is out of order or repeated.",
      'A SOAP 1.2 Fault Code needs a Value.',
    ]);
  });
});

describe('faults the mock makes', () => {
  it('are well-formed faults of their version, with texts escaped', () => {
    const f11 = soapFaultXml({ version: '1.1', party: 'client', reason: 'a < b & "c"', code: 'mock-contract-refused', problems: ['<x>'] });
    expect(read(f11, '1.1')).toMatchObject({ fault: true, problems: [] });
    expect(f11).toContain('<faultcode>soap:Client</faultcode><faultstring>a &lt; b &amp; &quot;c&quot;</faultstring>');
    expect(f11).toContain('<p:problem>&lt;x&gt;</p:problem>');
    const f12 = soapFaultXml({ version: '1.2', party: 'server', reason: 'r', code: 'mock-internal' });
    expect(read(f12, '1.2')).toMatchObject({ fault: true, problems: [] });
    expect(f12).toContain('<env:Value>env:Receiver</env:Value>');
  });

  it('go out with 500, or 400 for a SOAP 1.2 Sender fault, and the version Content-Type', () => {
    expect(soapFaultReply({ version: '1.1', party: 'client', reason: 'r', code: 'c' })).toMatchObject({ status: 500, headers: [['Content-Type', 'text/xml; charset=utf-8']] });
    expect(soapFaultReply({ version: '1.2', party: 'client', reason: 'r', code: 'c' })).toMatchObject({ status: 400, headers: [['Content-Type', 'application/soap+xml; charset=utf-8']] });
    expect(soapFaultReply({ version: '1.2', party: 'server', reason: 'r', code: 'c' }).status).toBe(500);
  });
});

describe('SOAP version on the wire', () => {
  it('Content-Type against the version', () => {
    expect(contentTypeProblem('1.1', 'text/xml; charset=utf-8')).toBeUndefined();
    expect(contentTypeProblem('1.2', 'application/soap+xml; action="urn:a"')).toBeUndefined();
    expect(contentTypeProblem('1.1', 'application/soap+xml')).toMatch(/does not fit SOAP 1.1, which is sent as text\/xml/);
    expect(contentTypeProblem('1.2', undefined)).toMatch(/no Content-Type/);
  });

  it('the action of 1.1 (SOAPAction, quoted) and 1.2 (Content-Type parameter)', () => {
    const headers = (h: Record<string, string>) => (name: string) => h[name];
    expect(requestAction(headers({ soapaction: '"urn:get"' }))).toBe('urn:get');
    expect(requestAction(headers({ 'content-type': 'application/soap+xml;charset=utf-8;action="urn:a;b"' }))).toBe('urn:a;b');
    expect(requestAction(headers({ soapaction: '""', 'content-type': 'text/xml' }))).toBe('');
    expect(contentTypeParameter('application/soap+xml; Action=urn:x', 'action')).toBe('urn:x');
  });
});
