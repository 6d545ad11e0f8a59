/**
 * `parley import` of a legacy SoapUI project end to end (the built CLI with its own supervisor
 * and importer child): the report and exit codes as for OpenAPI and WSDL, --project-name, the
 * project written (APIs, requests, cached WSDL, properties, scripts in imported-scripts/), the
 * clash rules on a second import, no password anywhere, and unsafe XML refused with nothing
 * written. dist/ must be built first.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { filesUnder, runParley, type Run } from '../support/processes.js';

const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'soapui');
const SLOW = { timeout: 120_000 };
const SECRET = 'pw-CLI-SECRET-9931';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-cli-soapui-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function parley(args: string[], stdin?: string): Promise<Run> {
  return runParley(args, { home: join(work, 'home'), ...(stdin !== undefined ? { stdin } : {}) });
}

const WSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:calc" targetNamespace="urn:calc">
  <types><xsd:schema targetNamespace="urn:calc" elementFormDefault="qualified"><xsd:element name="Add" type="xsd:int"/></xsd:schema></types>
  <message name="In"><part name="p" element="tns:Add"/></message>
  <portType name="P"><operation name="Add"><input message="tns:In"/></operation></portType>
  <binding name="CalcBinding" type="tns:P"><s:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><operation name="Add"><s:operation soapAction="urn:calc#Add"/><input><s:body use="literal"/></input></operation></binding>
  <service name="S"><port name="P" binding="tns:CalcBinding"><s:address location="http://127.0.0.1:9/calc"/></port></service>
</definitions>`;

/** A small project: one interface, a call with a password, a property, an environment and a script. */
function calcProject(definition = 'http://example.invalid/calc?wsdl', cache = `<con:definitionCache rootPart="${definition}"><con:part><con:url>${definition}</con:url><con:content><![CDATA[${WSDL}]]></con:content></con:part></con:definitionCache>`): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<con:soapui-project name="Calc" soapui-version="5.7.0" xmlns:con="http://eviware.com/soapui/config">
<con:interface type="wsdl" name="CalcBinding" bindingName="{urn:calc}CalcBinding" soapVersion="1_1" definition="${definition}">${cache}
<con:operation name="Add" action="urn:calc#Add"><con:call name="Add 1"><con:endpoint>http://127.0.0.1:9/calc</con:endpoint><con:request><![CDATA[<e/>]]></con:request><con:credentials><con:username>bob</con:username><con:password>${SECRET}</con:password></con:credentials></con:call></con:operation>
</con:interface>
<con:properties><con:property><con:name>region</con:name><con:value>eu</con:value></con:property></con:properties>
<con:environment name="Staging"><con:property><con:name>host</con:name><con:value>stage</con:value></con:property></con:environment>
<con:afterLoadScript>log.info 'loaded'</con:afterLoadScript>
</con:soapui-project>`;
}

describe('parley import <soapui project>', SLOW, () => {
  it('the sample SOAP project into a new project named by --project-name: report, exit 0, files written, scripts verbatim', async () => {
    const project = join(work, 'sample');
    const run = await parley(['import', join(FIXTURES, 'soapui-installer/Tutorials/Sample-SOAP-Project-soapui-project.xml'), '--new-project', project, '--project-name', 'My SOAP']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Format recognised\s+Legacy SOAP project \(SoapUI\) \(by its file name\)/);
    expect(run.stdout).toMatch(/Interfaces\s+1/);
    expect(run.stdout).toMatch(/Operations\s+4/);
    expect(run.stdout).toMatch(/Scripts kept\s+13/);
    expect(run.stdout).not.toMatch(/^\s*Properties\s/m);
    expect(run.stdout).toMatch(/Not imported \(2\)\n {2}3 test suites \(9 test cases\): Parley has no SoapUI test runner/);
    const parleyYaml = parseYaml(await readFile(join(project, 'parley.yaml'), 'utf8')) as { name: string };
    expect(parleyYaml.name).toBe('My SOAP');
    const files = await filesUnder(project);
    expect(files.filter((f) => f.startsWith('imported-scripts/'))).toHaveLength(13);
    expect(files.some((f) => /^apis\/[^/]+\/definition\/.+/.test(f))).toBe(true);
    expect(files.filter((f) => f.endsWith('.request.yaml')).length).toBe(4);
    const source = await readFile(join(FIXTURES, 'soapui-installer/Tutorials/Sample-SOAP-Project-soapui-project.xml'), 'utf8');
    const first = files.find((f) => f.startsWith('imported-scripts/'))!;
    expect(source).toContain((await readFile(join(project, first), 'utf8')).replace(/&/g, '&amp;').replace(/</g, '&lt;').slice(0, 40));
  });

  it("without --project-name the new project takes the file's name; --json carries the counts", async () => {
    const project = join(work, 'hello');
    const run = await parley(['import', join(FIXTURES, 'soapui-installer/HelloWS-soapui-project.xml'), '--new-project', project, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ importer: 'soapui', declaredVersion: 'soapui-2.0.2', properties: 0, errors: [] });
    // Project properties are counted once, as added (the top-level `properties`), not again among the counts.
    expect(out.counts).toEqual({ Interfaces: 1, Operations: 1, Environments: 0, 'Scripts kept': 0 });
    expect(out.unimported).toContainEqual(expect.objectContaining({ reason: expect.stringContaining('New Mock… on its row in the sidebar') }));
    expect((parseYaml(await readFile(join(project, 'parley.yaml'), 'utf8')) as { name: string }).name).toBe('HelloWS');
  });

  it('a second import into the same project: properties keep their values, the environment and scripts get numbered names, noted; no password anywhere', async () => {
    const file = join(work, 'calc-soapui-project.xml');
    await writeFile(file, calcProject());
    const project = join(work, 'calc');
    const once = await parley(['import', file, '--new-project', project, '--json']);
    expect(once.code, once.stderr).toBe(0);
    expect(JSON.parse(once.stdout).warnings).toEqual([expect.objectContaining({ message: expect.stringContaining('CalcBinding / Add / Add 1 had a password') })]);
    const twice = await parley(['import', file, '--project', project, '--json']);
    expect(twice.code, twice.stderr).toBe(0);
    const notes = (JSON.parse(twice.stdout).notes as { message: string }[]).map((n) => n.message);
    expect(notes).toContain('The project already has a property named region: it keeps its value.');
    expect(notes).toContain('The workspace already has an environment named Staging: this one was imported as Staging 2.');
    expect((await readdir(join(project, 'imported-scripts'))).sort()).toEqual(['afterLoadScript 2.groovy', 'afterLoadScript.groovy']);
    expect(await readFile(join(project, 'imported-scripts', 'afterLoadScript.groovy'), 'utf8')).toBe("log.info 'loaded'");
    const request = (await filesUnder(project)).find((f) => f.endsWith('.request.yaml'))!;
    expect(parseYaml(await readFile(join(project, request), 'utf8'))).toMatchObject({ auth: { type: 'basic', username: 'bob', password: '' } });
    for (const f of await filesUnder(project)) expect(await readFile(join(project, f), 'utf8')).not.toContain(SECRET);
    for (const f of await filesUnder(join(work, 'home'))) expect(await readFile(join(work, 'home', f), 'utf8')).not.toContain(SECRET);
    expect(once.stdout + twice.stdout).not.toContain(SECRET);
  });

  it('a definition neither carried nor fetchable: imported with the error listed, exit 1', async () => {
    const file = join(work, 'gone-soapui-project.xml');
    await writeFile(file, calcProject('http://127.0.0.1:9/calc?wsdl', '<con:definitionCache/>'));
    const run = await parley(['import', file, '--new-project', join(work, 'gone')]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Errors \(1\)\n {2}The WSDL of interface CalcBinding could not be read/);
  });

  it.each([
    ['an external entity', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'],
    ['billion laughs', '<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'],
  ])('a project with %s is refused with exit 2 and nothing is written', async (what, doctype) => {
    const file = join(work, `evil-${what.length}-soapui-project.xml`);
    await writeFile(file, calcProject().replace('?>', `?>${doctype}`));
    const project = join(work, `evil-${what.length}`);
    const run = await parley(['import', file, '--new-project', project]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DTD/);
    expect(existsSync(project)).toBe(false);
  });

  it('standard input (a pasted copy) is refused with exit 2; --project-name needs --new-project', async () => {
    const run = await parley(['import', '-', '--new-project', join(work, 'stdin'), '--format', 'soapui'], calcProject());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/file only/);
    const usage = await parley(['import', join(work, 'calc-soapui-project.xml'), '--project', join(work, 'calc'), '--project-name', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--project-name names a new project/);
  });
});
