/**
 * WSDL import through the importer engine: detection, files with wsdl:import/xsd:import/
 * xsd:include cached beside the project (and read back offline), paste, URL with Basic
 * credentials going only to the WSDL's own origin, SOAP 1.1/1.2 headers, and unsafe XML refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ImportResult } from '../../../../protocol/model/import.js';
import { cachedWsdlReader, listOperations, readWsdl } from '../../../../protocol/wsdl/index.js';
import { createImporterRegistry } from '../registry.js';
import { importSource } from '../test-support.js';
import { looksLikeWsdl } from './detect.js';

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures/wsdl');
const fixture = (rel: string) => join(FIXTURES, rel);

/** The entry's operations read back from the cached copies alone. */
async function reopenFromCache(result: ImportResult, apiIndex = 0) {
  const { api, documents } = result.apis[apiIndex]!;
  const files = documents.map((d) => ({ path: d.path, source: d.source }));
  const texts = new Map(documents.map((d) => [d.path, new TextDecoder().decode(d.bytes)]));
  const entry = documents[0]!;
  expect(api.soap?.sources).toEqual(documents.map((d) => d.source));
  return readWsdl(
    { location: entry.source, text: texts.get(entry.path)! },
    cachedWsdlReader(files, async (p) => texts.get(p)!),
  );
}

describe('detect', () => {
  test('by .wsdl name, by a wsdl:definitions root in .xml or pasted text, not other XML', () => {
    const registry = createImporterRegistry();
    const wsdlText = readFileSync(fixture('bruno-fixtures/wsdl.xml'), 'utf8');
    expect(registry.detectFormat({ name: 'svc.wsdl', text: 'anything' })).toMatchObject({ format: 'wsdl', settledBy: 'file-name' });
    expect(registry.detectFormat({ name: 'wsdl.xml', text: wsdlText })).toMatchObject({ format: 'wsdl', label: 'WSDL 1.1', settledBy: 'content' });
    expect(registry.detectFormat({ text: wsdlText })).toMatchObject({ format: 'wsdl' });
    expect(looksLikeWsdl('<?xml version="1.0"?>\n<!-- c --><definitions xmlns="http://schemas.xmlsoap.org/wsdl/"/>')).toBe(true);
    expect(looksLikeWsdl('<definitions xmlns="urn:other"/>')).toBe(false);
    expect(looksLikeWsdl('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>')).toBe(false);
  });
});

describe('file import', () => {
  test('imports and includes across folders are cached in their layout and read back offline', async () => {
    const path = fixture('soapui-system-test/test7/TestService.wsdl');
    const { result } = await importSource({ kind: 'file', path });
    expect(result.report).toMatchObject({ format: 'wsdl', declaredVersion: 'wsdl-1.1', errors: [] });
    const ours = await readWsdl({ location: `file://${path}`, text: readFileSync(path, 'utf8') }, async (ref, base) => {
      const p = resolve(new URL(base).pathname, '..', ref);
      return { location: `file://${p}`, text: readFileSync(p, 'utf8') };
    });
    expect(result.apis.map((a) => a.api.name)).toEqual(ours.bindings.map((b) => b.name));
    const first = result.apis[0]!;
    expect(first.documents.length).toBeGreaterThan(1);
    expect(first.documents[0]!.path).toBe('TestService.wsdl');
    expect(first.documents.map((d) => d.path)).toContain('wsdls/TestBinding.wsdl');
    expect(first.api.definition).toMatchObject({ format: 'wsdl-1.1', cached: first.documents.map((d) => `definition/${d.path}`) });
    const reopened = await reopenFromCache(result);
    expect(reopened.problems).toEqual([]);
    expect(listOperations(reopened)).toEqual(listOperations(ours));
  });

  test('each operation is a POST to the endpoint with the envelope and SOAP 1.1 headers', async () => {
    const { result } = await importSource({ kind: 'file', path: fixture('soapui-tutorials/sample-service.wsdl') });
    const api = result.apis[0]!;
    expect(api.api.soap).toMatchObject({ soapVersion: '1.1' });
    // An API has nothing to inherit from: its auth is none, and its requests inherit it.
    expect(api.api.auth).toEqual({ type: 'none' });
    const req = api.requests[0]!.request;
    expect(req).toMatchObject({ method: 'POST', url: api.api.baseUrl, body: { kind: 'raw', raw: { language: 'xml' } } });
    expect(req.body.raw.text).toContain('<soapenv:Envelope');
    expect(req.headers).toEqual([
      { name: 'Content-Type', value: 'text/xml; charset=utf-8', enabled: true },
      { name: 'SOAPAction', value: `"${req.soap!.action}"`, enabled: true },
    ]);
    expect(req.soap).toMatchObject({ soapVersion: '1.1', binding: api.api.soap!.binding });
  });

  test('a SOAP 1.2 binding puts the action in the Content-Type', async () => {
    const { result } = await importSource({ kind: 'file', path: fixture('node-soap/default_namespace_soap12.wsdl') });
    const soap12 = result.apis.flatMap((a) => a.requests).find((r) => r.request.soap?.soapVersion === '1.2');
    const dir = mkdtempSync(join(tmpdir(), 'wsdl12-'));
    const text = readFileSync(fixture('soapui-tutorials/sample-service.wsdl'), 'utf8')
      .replace('xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"', 'xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap12/"');
    writeFileSync(join(dir, 'svc12.wsdl'), text);
    const { result: r12 } = await importSource({ kind: 'file', path: join(dir, 'svc12.wsdl') });
    const req = r12.apis[0]!.requests[0]!.request;
    expect(r12.apis[0]!.api.soap!.soapVersion).toBe('1.2');
    expect(req.headers).toEqual([{ name: 'Content-Type', value: `application/soap+xml; charset=utf-8; action="${req.soap!.action}"`, enabled: true }]);
    expect(req.body.raw.text).toContain('http://www.w3.org/2003/05/soap-envelope');
    expect(soap12 ?? req).toBeDefined();
  });

  test('a pasted WSDL imports; its cached entry is service.wsdl', async () => {
    const { result } = await importSource({ kind: 'paste', text: readFileSync(fixture('bruno-fixtures/wsdl.xml'), 'utf8') });
    expect(result.apis.length).toBeGreaterThan(0);
    expect(result.apis[0]!.documents.map((d) => d.path)).toEqual(['service.wsdl']);
    expect(result.apis[0]!.api.definition?.source).toBeUndefined();
  });

  test('an HTTP binding is listed as not imported', async () => {
    const { result } = await importSource({ kind: 'file', path: fixture('node-soap/multi-service.wsdl') });
    expect(result.apis.length).toBeGreaterThan(0);
    for (const item of result.report.unimported) expect(item.reason).toMatch(/not a SOAP|not in its port type/);
  });
});

describe('XML safety through the importer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wsdl-unsafe-'));
  const wsdlImporting = (xsd: string) => `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types><xsd:schema targetNamespace="urn:t"><xsd:import namespace="urn:x" schemaLocation="${xsd}"/></xsd:schema></types>
  <message name="M"><part name="p" type="xsd:string"/></message>
  <portType name="P"><operation name="Op"><input message="tns:M"/><output message="tns:M"/></operation></portType>
  <binding name="B" type="tns:P"><s:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Op"><s:operation soapAction="a"/><input><s:body use="literal" namespace="urn:t"/></input><output><s:body use="literal" namespace="urn:t"/></output></operation></binding>
</definitions>`;

  test.each([
    ['an external entity', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">&e;</xsd:schema>', 'wsdl-dtd-refused'],
    ['billion laughs', '<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">&b;</xsd:schema>', 'wsdl-dtd-refused'],
    ['too deep nesting', `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">${'<xsd:annotation>'.repeat(400)}${'</xsd:annotation>'.repeat(400)}</xsd:schema>`, 'wsdl-too-deep'],
  ])('an XSD with %s fails the import with an error naming the XSD', async (_what, xsd, code) => {
    writeFileSync(join(dir, 'evil.xsd'), xsd);
    writeFileSync(join(dir, 'svc.wsdl'), wsdlImporting('evil.xsd'));
    const err = await importSource({ kind: 'file', path: join(dir, 'svc.wsdl') }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code });
    expect((err as Error).message).toContain('evil.xsd');
    expect((err as Error).message).not.toContain('root:');
  });

  test('a WSDL with a DTD is refused before anything else is read', async () => {
    writeFileSync(join(dir, 'dtd.wsdl'), `<!DOCTYPE definitions SYSTEM "file:///etc/passwd">${wsdlImporting('never.xsd')}`);
    await expect(importSource({ kind: 'file', path: join(dir, 'dtd.wsdl') })).rejects.toMatchObject({ code: 'wsdl-dtd-refused' });
  });

  test('a WSDL import leading outside the folder is a reported problem, not a read', async () => {
    writeFileSync(join(dir, 'escape.wsdl'), wsdlImporting('../../../../../../etc/passwd'));
    const { result } = await importSource({ kind: 'file', path: join(dir, 'escape.wsdl') });
    expect(result.report.errors).toHaveLength(1);
    expect(result.report.errors[0]!.message).toMatch(/passwd/);
    expect(result.apis[0]!.documents).toHaveLength(1);
  });
});

describe('URL import', () => {
  const seenA: { path: string; headers: IncomingHttpHeaders }[] = [];
  const seenB: { path: string; headers: IncomingHttpHeaders }[] = [];
  let a: Server;
  let b: Server;
  let portA = 0;
  let portB = 0;
  const xsd = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:types" elementFormDefault="qualified">
    <xsd:include schemaLocation="more.xsd"/>
    <xsd:element name="Ping"><xsd:complexType><xsd:sequence><xsd:element name="text" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
  </xsd:schema>`;
  const more = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:types"><xsd:element name="Pong" type="xsd:string"/></xsd:schema>`;
  const remote = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:remote"><xsd:element name="R" type="xsd:int"/></xsd:schema>`;
  const wsdl = () => `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:types" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  <types><xsd:schema targetNamespace="urn:svc"><xsd:import namespace="urn:types" schemaLocation="schemas/types.xsd"/><xsd:import namespace="urn:remote" schemaLocation="http://127.0.0.1:${portB}/remote.xsd"/></xsd:schema></types>
  <message name="In"><part name="p" element="t:Ping"/></message><message name="Out"><part name="p" element="t:Pong"/></message>
  <portType name="P"><operation name="Ping"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="PingBinding" type="tns:P"><s:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Ping"><s:operation soapAction="urn:svc#Ping"/><input><s:body use="literal"/></input><output><s:body use="literal"/></output></operation></binding>
  <service name="S"><port name="PingPort" binding="tns:PingBinding"><s:address location="http://127.0.0.1:${portA}/ping"/></port></service>
</definitions>`;

  beforeAll(async () => {
    const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
    a = createServer((req, res) => {
      seenA.push({ path: req.url ?? '', headers: req.headers });
      const body = req.url === '/svc?wsdl' ? wsdl() : req.url === '/schemas/types.xsd' ? xsd : req.url === '/schemas/more.xsd' ? more : undefined;
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/xml' }).end(body);
    });
    b = createServer((req, res) => {
      seenB.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/xml' }).end(remote);
    });
    portA = await listen(a);
    portB = await listen(b);
  });
  afterAll(() => {
    a.close();
    b.close();
  });

  test('imports and includes are fetched and cached; Basic credentials only to the WSDL origin; offline re-read works', async () => {
    const credentials = { type: 'basic' as const, username: 'u', password: 'pw-secret-1' };
    const { result } = await importSource({ kind: 'url', url: `http://127.0.0.1:${portA}/svc?wsdl`, credentials }, { useCredentialsForRequests: true }, { offline: false, credentials });
    expect(result.report.errors).toEqual([]);
    expect(seenA.map((s) => s.path)).toEqual(['/svc?wsdl', '/schemas/types.xsd', '/schemas/more.xsd']);
    for (const s of seenA) expect(s.headers.authorization).toBe(`Basic ${Buffer.from('u:pw-secret-1').toString('base64')}`);
    expect(seenB.map((s) => s.path)).toEqual(['/remote.xsd']);
    expect(seenB[0]!.headers.authorization).toBeUndefined();
    const api = result.apis[0]!;
    expect(api.documents.map((d) => d.path)).toEqual(['svc', 'schemas/types.xsd', 'schemas/more.xsd', `_remote/127.0.0.1_${portB}/remote.xsd`]);
    expect(api.api.definition?.source).toMatchObject({ kind: 'url', credentials: { type: 'basic', username: 'u' } });
    expect(api.api.auth).toEqual({ type: 'basic', username: 'u', password: `\${secret:api.${api.api.id}.definition}` });
    expect(JSON.stringify(result)).not.toContain('pw-secret-1');
    const reopened = await reopenFromCache(result);
    expect(listOperations(reopened)).toEqual([{ binding: 'PingBinding', operations: ['Ping'] }]);
    expect(reopened.schemas.elements.size).toBe(3);
    expect(api.requests[0]!.request.body.raw.text).toContain('<t:Ping>');
  });
});
