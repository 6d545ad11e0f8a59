/**
 * Legacy SoapUI project import through the importer engine: detection, every corpus project,
 * operation lists equal to the WSDL engine's for the carried WSDL, and SPEC's rules (passwords,
 * scripts, compressed envelopes, expansions, not-mapped items, carried vs fetched definitions,
 * unsafe XML, file only).
 */
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cachedWsdlReader, listOperations, readWsdl } from '../../../../protocol/wsdl/index.js';
import { createImporterRegistry } from '../registry.js';
import { importSource, type HttpImportResult } from '../test-support.js';
import { looksLikeSoapuiProject } from './detect.js';

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures/soapui');
const dir = mkdtempSync(join(tmpdir(), 'parley-soapui-'));

function corpusFiles(d = FIXTURES): string[] {
  return readdirSync(d)
    .sort()
    .flatMap((n) => {
      const p = join(d, n);
      return statSync(p).isDirectory() ? corpusFiles(p) : p.endsWith('.xml') ? [p] : [];
    });
}

const SIMPLE_WSDL = (address = 'http://127.0.0.1:9/calc') => `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:calc" targetNamespace="urn:calc">
  <types><xsd:schema targetNamespace="urn:calc" elementFormDefault="qualified"><xsd:element name="Add"><xsd:complexType><xsd:sequence><xsd:element name="a" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element><xsd:element name="AddResponse" type="xsd:int"/></xsd:schema></types>
  <message name="In"><part name="p" element="tns:Add"/></message><message name="Out"><part name="p" element="tns:AddResponse"/></message>
  <portType name="P"><operation name="Add"><input message="tns:In"/><output message="tns:Out"/></operation><operation name="Sub"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="CalcBinding" type="tns:P"><s:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Add"><s:operation soapAction="urn:calc#Add"/><input><s:body use="literal"/></input><output><s:body use="literal"/></output></operation>
    <operation name="Sub"><s:operation soapAction="urn:calc#Sub"/><input><s:body use="literal"/></input><output><s:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="CalcPort" binding="tns:CalcBinding"><s:address location="${address}"/></port></service>
</definitions>`;

const ENVELOPE = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:c="urn:calc">
   <soapenv:Header/>
   <soapenv:Body><c:Add><c:a>\${#Project#first}</c:a></c:Add></soapenv:Body>
</soapenv:Envelope>`;

interface ProjectParts {
  cache?: string;
  calls?: string;
  extra?: string;
  definition?: string;
  head?: string;
}

/** A SoapUI project with one WSDL interface (CalcBinding), carried or not, and what else a test puts in. */
function project(p: ProjectParts = {}): string {
  const definition = p.definition ?? 'http://example.invalid/calc?wsdl';
  const cache = p.cache ?? `<con:definitionCache type="TEXT" rootPart="${definition}"><con:part><con:url>${definition}</con:url><con:content><![CDATA[${SIMPLE_WSDL()}]]></con:content><con:type>http://schemas.xmlsoap.org/wsdl/</con:type></con:part></con:definitionCache>`;
  const calls = p.calls ?? `<con:call name="Add 1"><con:settings/><con:endpoint>http://127.0.0.1:9/calc</con:endpoint><con:request><![CDATA[${ENVELOPE}]]></con:request></con:call>`;
  return `<?xml version="1.0" encoding="UTF-8"?>${p.head ?? ''}
<con:soapui-project name="Calc Project" soapui-version="5.7.0" xmlns:con="http://eviware.com/soapui/config">
<con:interface xsi:type="con:WsdlInterface" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="CalcBinding" type="wsdl" bindingName="{urn:calc}CalcBinding" soapVersion="1_1" definition="${definition}">
<con:settings/>${cache}
<con:endpoints><con:endpoint>http://127.0.0.1:9/calc</con:endpoint><con:endpoint>http://backup.example/calc</con:endpoint></con:endpoints>
<con:operation name="Add" action="urn:calc#Add">${calls}</con:operation>
<con:operation name="Sub" action="urn:calc#Sub"/>
</con:interface>
${p.extra ?? ''}
<con:properties><con:property><con:name>first</con:name><con:value>1</con:value></con:property></con:properties>
</con:soapui-project>`;
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function importText(name: string, text: string, loaderOptions = { offline: true }): Promise<HttpImportResult> {
  return (await importSource({ kind: 'file', path: write(name, text) }, {}, loaderOptions)).result;
}

describe('detect', () => {
  test('by a -soapui-project.xml name, by a soapui-project root in the SoapUI namespace, not other XML', () => {
    const registry = createImporterRegistry();
    expect(registry.detectFormat({ name: 'Calc-soapui-project.xml', text: 'anything' })).toMatchObject({ format: 'soapui', settledBy: 'file-name' });
    expect(registry.detectFormat({ name: 'calc.xml', text: project() })).toMatchObject({ format: 'soapui', settledBy: 'content', label: 'Legacy SOAP project (SoapUI)' });
    expect(looksLikeSoapuiProject('<?xml version="1.0"?>\n<!-- c --><soapui-project xmlns="http://eviware.com/soapui/config"/>')).toBe(true);
    expect(looksLikeSoapuiProject('<con:soapui-project xmlns:con="urn:other"/>')).toBe(false);
    expect(registry.detectFormat({ name: 'calc.xml', text: SIMPLE_WSDL() })).toMatchObject({ format: 'wsdl' });
  });
});

describe('the corpus', () => {
  const files = corpusFiles();
  test('the fixtures are all there', () => expect(files.length).toBe(20));

  test.each(files.map((f) => [relative(FIXTURES, f)]))('%s imports, its WSDL interfaces with the operations the WSDL engine reads from the carried WSDL', async (rel) => {
    const path = join(FIXTURES, rel);
    if (rel === 'soapui-installer/test-soapui-project.xml') {
      // The one encrypted project: nothing can be read without SoapUI's password.
      await expect(importSource({ kind: 'file', path })).rejects.toMatchObject({ code: 'import-refused', message: expect.stringMatching(/encrypted/) });
      return;
    }
    const { result } = await importSource({ kind: 'file', path });
    expect(result.report.format).toBe('soapui');
    const counts = new Map(result.report.counts!.map((c) => [c.label, c.count]));
    expect(counts.get('Interfaces')).toBe(result.apis.length);
    for (const { api, requests, documents } of result.apis) {
      expect(api.soap).toBeDefined();
      const ops = [...new Set(requests.map((r) => r.request.soap!.operation))].sort();
      if (documents.length === 0) continue;
      // Read the carried WSDL back from the cached copies alone: the same operations as the requests cover.
      const texts = new Map(documents.map((d) => [d.path, new TextDecoder().decode(d.bytes)]));
      const definition = await readWsdl({ location: documents[0]!.source, text: texts.get(documents[0]!.path)! }, cachedWsdlReader(documents, async (p) => texts.get(p)!));
      const wsdlOps = listOperations(definition).find((b) => b.binding === api.soap!.binding)!.operations;
      expect(ops).toEqual([...wsdlOps].sort());
    }
  });

  test('Sample SOAP Project: inline WSDL part, saved envelopes kept, scripts kept, not-mapped items with reasons', async () => {
    const { result } = await importSource({ kind: 'file', path: join(FIXTURES, 'soapui-installer/Tutorials/Sample-SOAP-Project-soapui-project.xml') });
    expect(result.projectName).toBe('Sample SOAP Project Core');
    const api = result.apis[0]!;
    expect(api.api).toMatchObject({ name: 'ServiceSoapBinding', soap: { binding: 'ServiceSoapBinding', soapVersion: '1.1' }, definition: { format: 'wsdl-1.1' } });
    expect(api.requests.map((r) => r.request.soap!.operation).sort()).toEqual(['login', 'logout', 'search', 'buy'].sort());
    // Its part's relative address is relative to the project file, as in SoapUI: the cache keeps the WSDL's name.
    expect(api.documents.map((d) => d.path)).toEqual(['sample-service.wsdl']);
    expect(api.documents[0]!.source).toMatch(/^file:\/\/.*\/Tutorials\/WSDL-WADL\/sample-service\.wsdl$/);
    expect(result.scripts!.length).toBe(13);
    expect(result.report.unimported.map((u) => u.item)).toEqual(['3 test suites (9 test cases)', '1 mock service']);
    for (const u of result.report.unimported) expect(u.reason.length).toBeGreaterThan(20);
  });
});

describe('SPEC rules', () => {
  test('a saved call becomes a request in its operation folder: name, endpoint, envelope, headers; an operation without calls gets a generated envelope', async () => {
    const calls = `<con:call name="Add 1"><con:settings><con:setting id="com.eviware.soapui.impl.wsdl.WsdlRequest@request-headers">&lt;xml-fragment xmlns:con="http://eviware.com/soapui/config">&lt;con:entry key="X-Trace" value="\${#Project#first}"/>&lt;/xml-fragment></con:setting></con:settings><con:endpoint>http://127.0.0.1:9/other</con:endpoint><con:request><![CDATA[${ENVELOPE}]]></con:request></con:call>`;
    const result = await importText('calls-soapui-project.xml', project({ calls }));
    const [add, sub] = result.apis[0]!.requests;
    expect(add).toMatchObject({ folder: 'Add', request: { name: 'Add 1', method: 'POST', url: 'http://127.0.0.1:9/other', soap: { binding: 'CalcBinding', operation: 'Add', soapVersion: '1.1', action: 'urn:calc#Add' } } });
    expect(add!.request.body.raw.text).toBe(ENVELOPE.replace('${#Project#first}', '${first}'));
    expect(add!.request.headers).toEqual([
      { name: 'Content-Type', value: 'text/xml; charset=utf-8', enabled: true },
      { name: 'SOAPAction', value: '"urn:calc#Add"', enabled: true },
      { name: 'X-Trace', value: '${first}', enabled: true },
    ]);
    expect(sub).toMatchObject({ folder: 'Sub', request: { name: 'Sub', soap: { operation: 'Sub' } } });
    expect(sub!.request.body.raw.text).toContain('<tns:Add>');
    expect(result.apis[0]!.api.baseUrl).toBe('http://127.0.0.1:9/calc');
    expect(result.report.notes!.map((n) => n.message).join('\n')).toMatch(/http:\/\/backup\.example\/calc/);
    expect(result.properties).toEqual([{ name: 'first', value: '1', enabled: true }]);
  });

  test('passwords are never imported: not in any result part or report; each request that had one is listed; the user name stays as Basic auth', async () => {
    const secret = 'pw-SECRET-4711';
    const wsse = ENVELOPE.replace('<soapenv:Header/>', `<soapenv:Header><wsse:Security xmlns:wsse="urn:wsse"><wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password>${secret}</wsse:Password></wsse:UsernameToken></wsse:Security></soapenv:Header>`);
    const headers = `<con:settings><con:setting id="x@request-headers">&lt;xml-fragment xmlns:con="http://eviware.com/soapui/config">&lt;con:entry key="Authorization" value="Basic ${secret}"/>&lt;con:entry key="X-Api-Key" value="\${#Project#key}"/>&lt;/xml-fragment></con:setting></con:settings>`;
    const calls = `<con:call name="Add secured"><con:settings/><con:endpoint>http://127.0.0.1:9/calc</con:endpoint><con:request><![CDATA[${ENVELOPE}]]></con:request><con:credentials><con:username>alice</con:username><con:password>${secret}</con:password><con:authType>Global HTTP Settings</con:authType></con:credentials></con:call><con:call name="Add open"><con:settings/><con:request/><con:credentials><con:username/><con:password/></con:credentials></con:call><con:call name="Add written in">${headers}<con:endpoint>http://alice:${secret}@127.0.0.1:9/calc?token=${secret}</con:endpoint><con:request><![CDATA[${wsse}]]></con:request></con:call>`;
    const extra = `<con:environment name="Staging"><con:property><con:name>apiPassword</con:name><con:value>${secret}</con:value></con:property><con:property><con:name>host</con:name><con:value>stage.example</con:value></con:property></con:environment>`;
    const result = await importText('pw-soapui-project.xml', project({ calls, extra }));
    expect(JSON.stringify(result)).not.toContain(secret);
    const secured = result.apis[0]!.requests.find((r) => r.request.name === 'Add secured')!;
    expect(secured.request.auth).toEqual({ type: 'basic', username: 'alice', password: '' });
    expect(result.apis[0]!.requests.find((r) => r.request.name === 'Add open')!.request.auth).toEqual({ type: 'inherit' });
    const warnings = result.report.warnings.map((w) => w.message);
    expect(warnings.filter((w) => /had a password/.test(w))).toEqual([expect.stringContaining('CalcBinding / Add / Add secured had a password (its user name alice was kept as Basic auth), which was not imported')]);
    // Credentials written into a call: the endpoint's user info and query, a credential header, wsse:Password in the envelope.
    expect(warnings).toContain('Request CalcBinding / Add / Add written in had 1 credential value in its envelope, the value of its Authorization header, a user name and password in its endpoint, 1 credential value in its endpoint\'s query, which were not imported: set them on the request in Parley.');
    const written = result.apis[0]!.requests.find((r) => r.request.name === 'Add written in')!.request;
    expect(written.url).toBe('http://127.0.0.1:9/calc?token=');
    expect(written.headers.slice(2)).toEqual([
      { name: 'Authorization', value: 'Basic ', enabled: true },
      { name: 'X-Api-Key', value: '${key}', enabled: true },
    ]);
    // The shared credential rule blanks a UsernameToken element whole (its name says token).
    expect(written.body.raw.text).toContain('<wsse:Security xmlns:wsse="urn:wsse"><wsse:UsernameToken></wsse:UsernameToken></wsse:Security>');
    expect(warnings.some((w) => /apiPassword in environment Staging/.test(w))).toBe(true);
    expect(result.environments).toEqual([
      {
        name: 'Staging',
        variables: [
          { name: 'apiPassword', value: '', enabled: true, secret: false },
          { name: 'host', value: 'stage.example', enabled: true, secret: false },
        ],
      },
    ]);
  });

  test('every script is kept verbatim under a unique portable name', async () => {
    const groovy = '  // keeps  spacing\n\tdef x = "<a>" && 1 < 2\n  log.info(x)  \n';
    const extra = `<con:testSuite name="Suite/1"><con:testCase name="Case"><con:testStep type="groovy" name="Step"><con:config><script><![CDATA[${groovy}]]></script></con:config></con:testStep><con:setupScript>log.info('a &amp; b')</con:setupScript></con:testCase><con:testCase name="Case"><con:setupScript>second</con:setupScript></con:testCase></con:testSuite><con:afterLoadScript>project.name</con:afterLoadScript>`;
    const result = await importText('scripts-soapui-project.xml', project({ extra }));
    expect(result.scripts).toEqual([
      { name: 'Suite-1 - Case - Step - script.groovy', text: groovy },
      { name: 'Suite-1 - Case - setupScript.groovy', text: "log.info('a & b')" },
      { name: 'Suite-1 - Case - setupScript 2.groovy', text: 'second' },
      { name: 'afterLoadScript.groovy', text: 'project.name' },
    ]);
    expect(result.report.counts).toContainEqual({ label: 'Scripts kept', count: 4 });
  });

  test('a compressed envelope is decoded; one that fails to decode is skipped and reported', async () => {
    const packed = gzipSync(Buffer.from(ENVELOPE)).toString('base64');
    const calls = `<con:call name="Packed"><con:settings/><con:request compression="gzip">${packed}</con:request></con:call><con:call name="Broken"><con:settings/><con:request compression="gzip">bm90IGEgZ3ppcCBzdHJlYW0=</con:request></con:call><con:call name="Not base64"><con:settings/><con:request compression="gzip">@@@</con:request></con:call>`;
    const result = await importText('packed-soapui-project.xml', project({ calls }));
    const names = result.apis[0]!.requests.map((r) => r.request.name);
    expect(names).toEqual(['Packed', 'Sub']);
    expect(result.apis[0]!.requests[0]!.request.body.raw.text).toBe(ENVELOPE.replace('${#Project#first}', '${first}'));
    expect(result.report.unimported.map((u) => u.item)).toEqual(['Request CalcBinding / Add / Broken', 'Request CalcBinding / Add / Not base64']);
    expect(result.report.unimported[0]!.reason).toMatch(/could not be decoded/);
  });

  test('a compressed envelope that would inflate past 10 MB is skipped, not inflated', async () => {
    const bomb = gzipSync(Buffer.alloc(11 * 1024 * 1024, 0x20)).toString('base64');
    const result = await importText('bomb-soapui-project.xml', project({ calls: `<con:call name="Bomb"><con:request compression="gzip">${bomb}</con:request></con:call>` }));
    expect(result.report.unimported).toEqual([{ item: 'Request CalcBinding / Add / Bomb', reason: expect.stringMatching(/more than 10 MB/) }]);
  });

  test('expansions: #Project# and #Global# become ${name}; the others are kept as written and warned once', async () => {
    const env = ENVELOPE.replace('${#Project#first}', '${#Global#g} ${#TestCase#tc} ${=1+1} ${#Env#HOME} ${plain}');
    const result = await importText('exp-soapui-project.xml', project({ calls: `<con:call name="E"><con:request><![CDATA[${env}]]></con:request></con:call>` }));
    expect(result.apis[0]!.requests[0]!.request.body.raw.text).toContain('${g} ${#TestCase#tc} ${=1+1} ${#Env#HOME} ${plain}');
    const warning = result.report.warnings.find((w) => /property expansion/.test(w.message))!;
    expect(warning.message).toContain('${#TestCase#tc}, ${=1+1}, ${#Env#HOME}');
  });

  test.each([
    ['test suites', '<con:testSuite name="S"><con:testCase name="A"/><con:testCase name="B"/></con:testSuite>', '1 test suite (2 test cases)', /test runner/],
    ['mock services', '<con:mockService name="M"/><con:restMockService name="R"/>', '2 mock services', /mock/],
    ['REST services', '<con:interface type="rest" name="R"/>', '1 REST service', /REST/],
    ['security configurations', '<con:wssContainer><con:crypto><con:source>k.jks</con:source></con:crypto><con:outgoing><con:name>sign</con:name></con:outgoing></con:wssContainer>', '2 security configurations', /WS-Security/],
    ['database connections', '<con:databaseConnectionContainer><con:databaseConnection name="db"/></con:databaseConnectionContainer>', '1 database connection', /JDBC/],
    ['auth profiles', '<con:oAuth2ProfileContainer><con:oAuth2Profile name="o"/></con:oAuth2ProfileContainer><con:authRepository><con:basicAuthEntry name="b"/></con:authRepository>', '2 auth profiles', /Auth profiles/],
  ])('%s are not mapped and reported with the reason', async (_what, extra, item, reason) => {
    const result = await importText('nm-soapui-project.xml', project({ extra }));
    expect(result.report.unimported).toEqual([{ item, reason: expect.stringMatching(reason) }]);
  });

  describe('a definition with no carried copy', () => {
    let server: Server;
    let port = 0;
    const seen: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'text/xml' }).end(SIMPLE_WSDL());
      });
      port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
    });
    afterAll(() => server.close());

    test('is fetched over HTTP and the report notes it; a carried one is never fetched', async () => {
      const definition = `http://127.0.0.1:${port}/calc?wsdl`;
      const fetched = await importText('fetch-soapui-project.xml', project({ definition, cache: '<con:definitionCache/>' }), { offline: false } as never);
      expect(seen).toEqual(['/calc?wsdl']);
      expect(fetched.report.errors).toEqual([]);
      expect(fetched.report.notes!.map((n) => n.message)).toContainEqual(`Interface CalcBinding: ${definition} is not carried in the project and was fetched.`);
      expect(fetched.apis[0]!.documents.map((d) => d.source)).toEqual([definition]);
      const carried = await importText('carried-soapui-project.xml', project({ definition }), { offline: false } as never);
      expect(seen).toHaveLength(1);
      expect(carried.report.notes!.some((n) => /was fetched/.test(n.message))).toBe(false);
    });

    test('that cannot be fetched is an error; the saved requests still import', async () => {
      const result = await importText('gone-soapui-project.xml', project({ definition: 'WSDL/local.wsdl', cache: '<con:definitionCache/>' }));
      expect(result.report.errors).toEqual([{ message: expect.stringMatching(/could not be read.*not an http\(s\) address/) }]);
      expect(result.apis[0]!.api.definition).toBeUndefined();
      expect(result.apis[0]!.requests.map((r) => r.request.name)).toEqual(['Add 1']);
    });
  });

  test.each([
    ['an external entity in the project', project({ head: '<!DOCTYPE con:soapui-project [<!ENTITY x SYSTEM "file:///etc/passwd">]>' }), 'wsdl-dtd-refused'],
    ['billion laughs in the project', project({ head: '<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' }), 'wsdl-dtd-refused'],
    ['a DTD in a carried WSDL part', project({ cache: `<con:definitionCache rootPart="http://x/a?wsdl"><con:part><con:url>http://x/a?wsdl</con:url><con:content><![CDATA[<!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]>${SIMPLE_WSDL()}]]></con:content></con:part></con:definitionCache>`, definition: 'http://x/a?wsdl' }), 'wsdl-dtd-refused'],
    ['too deep nesting', project({ extra: `${'<con:x>'.repeat(300)}${'</con:x>'.repeat(300)}` }), 'wsdl-too-deep'],
    ['more than the XML size limit (10 MiB)', project({ extra: `<!--${' '.repeat(10 * 1024 * 1024)}-->` }), 'wsdl-too-large'],
  ])('%s is refused with a clear error', async (_what, text, code) => {
    const err = await importText('evil-soapui-project.xml', text).catch((e: unknown) => e);
    expect(err).toMatchObject({ code });
    expect((err as Error).message).not.toContain('root:');
  });

  test('a pasted copy is refused: File tab only', async () => {
    await expect(importSource({ kind: 'paste', text: project() }, {}, { offline: true }, 'soapui')).rejects.toMatchObject({ code: 'import-refused', message: expect.stringMatching(/file only/) });
    await expect(importSource({ kind: 'paste', text: project() })).rejects.toMatchObject({ code: 'import-refused' });
  });

  test('the unchanged input imports the same twice (deterministic)', async () => {
    const text = readFileSync(join(FIXTURES, 'soapui-installer/HelloWS-soapui-project.xml'), 'utf8');
    const a = await importText('a-soapui-project.xml', text);
    const b = await importText('a-soapui-project.xml', text);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});
