/**
 * `parley import` of a WSDL end to end (the built CLI with its own supervisor and importer
 * child): from a file whose wsdl:import and xsd:import cross folders, and from a URL served on
 * 127.0.0.1 with an xsd:import and xsd:include; then, with the server gone, the project opens
 * and its interface reads back from the cached documents alone. Unsafe XML is refused with exit
 * code 2 and an error naming what was wrong. dist/ must be built first.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { Api } from '../../protocol/model/api.js';
import type { Request } from '../../protocol/model/request.js';
import { cachedWsdlReader, listOperations, readWsdl } from '../../protocol/wsdl/index.js';
import { filesUnder, runParley, type Run } from '../support/processes.js';

const root = repoRoot();
const FIXTURES = join(root, 'test', 'fixtures', 'wsdl');
const SLOW = { timeout: 120_000 };

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-cli-wsdl-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function parley(args: string[]): Promise<Run> {
  return runParley(args, { home: join(work, 'home') });
}

/** Reads every API folder of the project from disk and the WSDL back from its cached copies only. */
async function reopen(project: string) {
  const apis: { api: Api; requests: Request[]; operations: ReturnType<typeof listOperations> }[] = [];
  for (const name of await readdir(join(project, 'apis'))) {
    const dir = join(project, 'apis', name);
    const api = parseYaml(await readFile(join(dir, 'api.yaml'), 'utf8')) as Api;
    const requests: Request[] = [];
    for (const f of await filesUnder(join(dir, 'requests'))) requests.push(parseYaml(await readFile(join(dir, 'requests', f), 'utf8')) as Request);
    const cached = api.definition!.cached;
    const sources = api.soap!.sources;
    const files = cached.map((path, i) => ({ path, source: sources[i]! }));
    const entry = files[0]!;
    const def = await readWsdl({ location: entry.source, text: await readFile(join(dir, entry.path), 'utf8') }, cachedWsdlReader(files, (p) => readFile(join(dir, p), 'utf8')));
    expect(def.problems.filter((p) => p.code !== 'wsdl-binding-not-soap')).toEqual([]);
    apis.push({ api, requests, operations: listOperations(def).filter((b) => b.binding === api.soap!.binding) });
  }
  return apis;
}

describe('parley import <wsdl>', SLOW, () => {
  it('a file with wsdl:import and xsd:import across folders: every binding an API, documents cached, re-opened offline', async () => {
    const project = join(work, 'file-project');
    const run = await parley(['import', join(FIXTURES, 'soapui-system-test/test7/TestService.wsdl'), '--new-project', project, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ format: 'wsdl-1.1', declaredVersion: 'wsdl-1.1', errors: [] });
    const apis = await reopen(project);
    expect(apis.length).toBe(out.apis.length);
    for (const { api, requests, operations } of apis) {
      expect(api.definition).toMatchObject({ format: 'wsdl-1.1' });
      expect(api.definition!.cached).toContain('definition/wsdls/TestBinding.wsdl');
      expect(requests.map((r) => r.soap!.operation).sort()).toEqual([...operations[0]!.operations].sort());
      for (const r of requests) expect(r).toMatchObject({ method: 'POST', body: { kind: 'raw', raw: { language: 'xml' } } });
    }
  });

  describe('from a URL', () => {
    let server: Server;
    let origin = '';
    const wsdl = (o: string) =>
      `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:types" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  <types><xsd:schema targetNamespace="urn:svc"><xsd:import namespace="urn:types" schemaLocation="xsd/types.xsd"/></xsd:schema></types>
  <message name="In"><part name="p" element="t:Echo"/></message><message name="Out"><part name="p" element="t:Echoed"/></message>
  <portType name="P"><operation name="Echo"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="EchoSoap12" type="tns:P"><s12:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Echo"><s12:operation soapAction="urn:svc#Echo"/><input><s12:body use="literal"/></input><output><s12:body use="literal"/></output></operation></binding>
  <service name="S"><port name="EchoPort" binding="tns:EchoSoap12"><s12:address location="${o}/echo"/></port></service>
</definitions>`;
    const types = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:types" targetNamespace="urn:types" elementFormDefault="qualified"><xsd:include schemaLocation="common.xsd"/><xsd:element name="Echo"><xsd:complexType><xsd:sequence><xsd:element name="text" type="t:Text"/></xsd:sequence></xsd:complexType></xsd:element></xsd:schema>`;
    const common = `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:types"><xsd:simpleType name="Text"><xsd:restriction base="xsd:string"><xsd:enumeration value="hello"/></xsd:restriction></xsd:simpleType><xsd:element name="Echoed" type="xsd:string"/></xsd:schema>`;

    beforeAll(async () => {
      server = createServer((req, res) => {
        const body = req.url === '/service?wsdl' ? wsdl(origin) : req.url === '/xsd/types.xsd' ? types : req.url === '/xsd/common.xsd' ? common : undefined;
        if (body === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'text/xml' }).end(body);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it('imports, caches the xsd:import and xsd:include, and re-opens with the server gone', async () => {
      const project = join(work, 'url-project');
      const run = await parley(['import', `${origin}/service?wsdl`, '--new-project', project]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/EchoSoap12/);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      const [only] = await reopen(project);
      expect(only!.api.soap).toMatchObject({ binding: 'EchoSoap12', soapVersion: '1.2' });
      expect(only!.api.definition!.cached).toEqual(['definition/service', 'definition/xsd/types.xsd', 'definition/xsd/common.xsd']);
      expect(only!.operations).toEqual([{ binding: 'EchoSoap12', operations: ['Echo'] }]);
      const request = only!.requests[0]!;
      expect(request.url).toBe(`${origin}/echo`);
      expect(request.headers).toEqual([{ name: 'Content-Type', value: 'application/soap+xml; charset=utf-8; action="urn:svc#Echo"', enabled: true }]);
      expect(request.body.raw.text).toContain('<t:text>hello</t:text>');
    });
  });

  it.each([
    ['a DTD with an external entity', '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>', 'wsdl', /DTD/],
    ['billion laughs', '<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>', 'wsdl', /DTD/],
    ['a too-deep XSD', '', 'deep-xsd', /more than 256 deep/],
  ])('refuses %s with exit code 2 and a clear error', async (_what, doctype, kind, message) => {
    const dir = await mkdtemp(join(work, 'unsafe-'));
    const schemaImport = kind === 'deep-xsd' ? '<types><xsd:schema targetNamespace="urn:x"><xsd:import namespace="urn:y" schemaLocation="deep.xsd"/></xsd:schema></types>' : '';
    await writeFile(join(dir, 'deep.xsd'), `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">${'<xsd:annotation>'.repeat(300)}${'</xsd:annotation>'.repeat(300)}</xsd:schema>`);
    await writeFile(join(dir, 'svc.wsdl'), `<?xml version="1.0"?>${doctype}<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">${schemaImport}</definitions>`);
    const run = await parley(['import', join(dir, 'svc.wsdl'), '--new-project', join(dir, 'p')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr + run.stdout).not.toMatch(/root:x:0/);
  });

  it('refuses an oversized WSDL (over 10 MiB) with exit code 2, naming the limit', async () => {
    const dir = await mkdtemp(join(work, 'big-'));
    await writeFile(join(dir, 'big.wsdl'), `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><documentation>${'x'.repeat(11 * 1024 * 1024)}</documentation></definitions>`);
    const run = await parley(['import', join(dir, 'big.wsdl'), '--new-project', join(dir, 'p')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/over the limit of 10,485,760/);
  });
});
