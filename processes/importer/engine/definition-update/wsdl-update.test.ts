/**
 * The definition update of a WSDL interface, as the importer child runs it (run-job): a WSDL
 * v1 imported from a file, the file replaced by v2 (an action changed, an input element
 * changed, an operation removed, one added, the endpoint moved, the types moved to an imported
 * schema), then preview and Apply. Fixtures: test/fixtures/wsdl/parley/update (SOURCES.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionUpdateJob, DefinitionUpdatePreview, DefinitionUpdateResult, type ImportedApi } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { checkAll } from '../../../../protocol/validate-node.js';
import { runDefinitionApply, runDefinitionPreview } from '../run-job.js';
import { FIXED_CLOCK, counterIds, runHttpImportJob, type HttpImportResult } from '../test-support.js';

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures/wsdl/parley/update');
const V1 = readFileSync(join(FIXTURES, 'calc-v1.wsdl'), 'utf8');
const V2 = readFileSync(join(FIXTURES, 'calc-v2.wsdl'), 'utf8');
const V2_TYPES = readFileSync(join(FIXTURES, 'calc-v2-types.xsd'), 'utf8');
const network = { proxy: '', caPem: '' };
const deps = { now: FIXED_CLOCK };

let dir = '';
let wsdlPath = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-wsdl-update-'));
  wsdlPath = join(dir, 'service.wsdl');
  writeFileSync(wsdlPath, V1);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function publishV2(wsdl = V2): void {
  writeFileSync(join(dir, 'calc-v2-types.xsd'), V2_TYPES);
  writeFileSync(wsdlPath, wsdl);
}

async function importV1(options: { cacheDefinition?: boolean } = {}): Promise<HttpImportResult['apis'][number]> {
  const { result } = await runHttpImportJob({ source: { kind: 'file', path: wsdlPath }, format: 'auto', options, network }, { newId: counterIds(), now: FIXED_CLOCK });
  expect(result.report.errors).toEqual([]);
  return result.apis[0]!;
}

/** The job the supervisor builds: the stored API and requests, the cached files without their sources. */
function jobOf(imported: Pick<ImportedApi, 'api' | 'documents'>, requests: Request[]): DefinitionUpdateJob {
  const job: DefinitionUpdateJob = {
    api: imported.api,
    requests,
    cached: imported.documents.map((d) => ({ path: d.path, bytes: d.bytes })),
    source: { kind: 'file', path: wsdlPath },
    network,
  };
  expect(checkAll(DefinitionUpdateJob, job)).toEqual([]);
  return job;
}

const named = (requests: readonly Request[], name: string): Request => {
  const found = requests.find((r) => r.name === name);
  if (!found) throw new Error(`no request ${name}`);
  return found;
};
const header = (r: Request, name: string) => r.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
const envelope = (r: Request) => r.body.raw.text;

/** v1 imported; Add's and one Divide's envelopes edited; a second, untouched Divide; a hand-made request. */
async function scenario() {
  const imported = await importV1();
  const requests = imported.requests.map((p) => structuredClone(p.request));
  const add = named(requests, 'Add');
  add.body.raw.text = envelope(add).replace('<c:a>0</c:a>', '<c:a>40</c:a>');
  const divide = named(requests, 'Divide');
  const edited: Request = { ...structuredClone(divide), id: 'r_edited', name: 'Divide edited' };
  edited.body.raw.text = envelope(divide).replace('<c:dividend>0</c:dividend>', '<c:dividend>84</c:dividend>');
  const handMade: Request = { ...structuredClone(divide), id: 'r_hand', name: 'Hand made', url: 'http://127.0.0.1:1/x' };
  delete handMade.soap;
  requests.push(edited, handMade);
  return { imported, requests, job: jobOf(imported, requests) };
}

describe('WSDL definition update: preview', () => {
  it('lists operations added, removed and changed (input, action), the endpoint, and the edits it keeps', async () => {
    const { job } = await scenario();
    publishV2();
    const preview = await runDefinitionPreview(job, deps);
    expect(checkAll(DefinitionUpdatePreview, preview)).toEqual([]);
    expect(preview.added).toEqual([{ method: 'SOAP', path: 'Modulo' }]);
    expect(preview.removed).toEqual([{ method: 'SOAP', path: 'Subtract' }]);
    expect(preview.changed).toEqual([
      { method: 'SOAP', path: 'Add', reasons: ['action'] },
      { method: 'SOAP', path: 'Divide', reasons: ['input'] },
    ]);
    expect(preview.apiWide).toEqual({ servers: true, security: false, endpoint: { from: 'http://127.0.0.1:8080/calc', to: 'http://127.0.0.1:8080/v2/calc' } });
    expect(preview.declaredVersion).toBe('wsdl-1.1');
    expect(preview.keptEdits).toEqual([{ method: 'SOAP', path: 'Divide', id: 'r_edited', name: 'Divide edited' }]);
    expect(preview.warnings).toEqual([]);
  });

  it('the same WSDL again changes nothing', async () => {
    const imported = await importV1();
    const preview = await runDefinitionPreview(jobOf(imported, imported.requests.map((p) => p.request)), deps);
    expect(preview).toMatchObject({ added: [], removed: [], changed: [], keptEdits: [] });
    expect(preview.apiWide).toBeUndefined();
  });

  it('a WSDL without the API’s binding is refused, naming it and the bindings the WSDL has', async () => {
    const { job } = await scenario();
    publishV2(V2.replaceAll('CalcSoap11', 'CalcV2'));
    const refused = runDefinitionPreview(job, deps);
    await expect(refused).rejects.toMatchObject({ code: 'definition-binding-missing' });
    await expect(refused).rejects.toThrow(/no SOAP binding named CalcSoap11.*it has CalcV2/);
  });
});

describe('WSDL definition update: Apply', () => {
  async function applied() {
    const { job, requests, imported } = await scenario();
    publishV2();
    const preview = await runDefinitionPreview(job, deps);
    const result = await runDefinitionApply({ ...job, expectedFingerprint: preview.fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    expect(checkAll(DefinitionUpdateResult, result)).toEqual([]);
    return { result, requests, imported };
  }

  it('an unedited request of a changed operation gets the new envelope; an edited one is kept and counted', async () => {
    const { result, requests } = await applied();
    const divide = named(result.requests, 'Divide');
    expect(envelope(divide)).toMatch(/<c:dividend>0<\/c:dividend>\s*<c:divisor>0<\/c:divisor>\s*<c:scale>0<\/c:scale>/);
    const edited = named(result.requests, 'Divide edited');
    expect(envelope(edited)).toBe(envelope(named(requests, 'Divide edited')));
    expect(edited.orphaned).toBeUndefined();
    expect(result.counts.kept).toBe(1);
  });

  it('an edited envelope keeps the user’s text while its action, SOAPAction header and endpoint follow the WSDL', async () => {
    const { result, requests } = await applied();
    const add = named(result.requests, 'Add');
    expect(envelope(add)).toBe(envelope(named(requests, 'Add')));
    expect(envelope(add)).toContain('<c:a>40</c:a>');
    expect(add.soap).toEqual({ binding: 'CalcSoap11', operation: 'Add', soapVersion: '1.1', action: 'urn:parley:calc:v2#Add' });
    expect(header(add, 'SOAPAction')).toBe('"urn:parley:calc:v2#Add"');
    expect(add.url).toBe('http://127.0.0.1:8080/v2/calc');
  });

  it('an action the user edited is kept', async () => {
    const { job } = await scenario();
    const add = named(job.requests, 'Add');
    add.soap = { ...add.soap!, action: 'urn:mine' };
    add.headers = add.headers.map((h) => (h.name === 'SOAPAction' ? { ...h, value: '"urn:mine"' } : h));
    publishV2();
    const result = await runDefinitionApply({ ...job, expectedFingerprint: (await runDefinitionPreview(job, deps)).fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    const after = named(result.requests, 'Add');
    expect(after.soap?.action).toBe('urn:mine');
    expect(header(after, 'SOAPAction')).toBe('"urn:mine"');
  });

  it('a removed operation’s request is kept and badged orphaned; a new operation gets a request; nothing is deleted', async () => {
    const { result, requests } = await applied();
    const subtract = named(result.requests, 'Subtract');
    expect(subtract.orphaned).toBe(true);
    const { orphaned: _o, ...rest } = subtract;
    expect(rest).toEqual(named(requests, 'Subtract'));
    expect(result.counts.orphaned).toBe(1);
    expect(result.requests.map((r) => r.id)).toEqual(requests.map((r) => r.id));
    expect(result.added).toHaveLength(1);
    const modulo = result.added[0]!;
    expect(modulo.folder).toBe('');
    expect(modulo.request).toMatchObject({ name: 'Modulo', method: 'POST', url: 'http://127.0.0.1:8080/v2/calc', soap: { binding: 'CalcSoap11', operation: 'Modulo', action: 'urn:parley:calc#Modulo' } });
    expect(envelope(modulo.request as Request)).toMatch(/<c:Modulo>\s*<c:a>0<\/c:a>/);
    expect(result.counts.added).toBe(1);
  });

  it('an unchanged operation’s request only follows the endpoint; a hand-made request is untouched', async () => {
    const { result, requests } = await applied();
    const negate = named(result.requests, 'Negate');
    expect(envelope(negate)).toBe(envelope(named(requests, 'Negate')));
    expect(negate.url).toBe('http://127.0.0.1:8080/v2/calc');
    expect(named(result.requests, 'Hand made')).toEqual(named(requests, 'Hand made'));
    // Add, Divide (envelope), Negate (endpoint), Divide edited (endpoint); not Subtract or the hand-made one.
    expect(result.counts.rewritten).toBe(4);
  });

  it('the cached WSDL and its imports are replaced, with their sources, and the endpoint follows', async () => {
    const { result } = await applied();
    expect(result.documents.map((d) => d.path)).toEqual(['service.wsdl', 'calc-v2-types.xsd']);
    expect(new TextDecoder().decode(result.documents[0]!.bytes)).toBe(V2);
    expect(result.api.definition).toMatchObject({ format: 'wsdl-1.1', cached: ['definition/service.wsdl', 'definition/calc-v2-types.xsd'], source: { kind: 'file', location: wsdlPath } });
    expect(result.api.soap?.sources).toEqual([pathToFileURL(wsdlPath).href, pathToFileURL(join(dir, 'calc-v2-types.xsd')).href]);
    expect(result.api.baseUrl).toBe('http://127.0.0.1:8080/v2/calc');
  });

  it('a later update reads the new cache: the same WSDL again changes nothing', async () => {
    const { result } = await applied();
    const all = [...result.requests, ...result.added.map((p) => p.request as Request)];
    const again = await runDefinitionPreview(jobOf({ api: result.api, documents: result.documents }, all), deps);
    expect(again).toMatchObject({ added: [], removed: [], changed: [], keptEdits: [] });
    expect(again.apiWide).toBeUndefined();
  });

  it('an orphan whose operation comes back is restored and counted; the unedited one takes the old envelope again', async () => {
    const { result } = await applied();
    writeFileSync(wsdlPath, V1);
    const all = [...result.requests, ...result.added.map((p) => p.request as Request)];
    const job = jobOf({ api: result.api, documents: result.documents }, all);
    const back = await runDefinitionApply({ ...job, expectedFingerprint: (await runDefinitionPreview(job, deps)).fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    const subtract = named(back.requests, 'Subtract');
    expect(subtract.orphaned).toBeUndefined();
    expect(subtract.restored).toBe(true);
    expect(back.counts.restored).toBe(1);
    expect(named(back.requests, 'Modulo').orphaned).toBe(true);
    expect(envelope(named(back.requests, 'Divide'))).not.toContain('<c:scale>');
    expect(back.api.definition?.cached).toEqual(['definition/service.wsdl']);
  });

  it('an endpoint the user changed is kept', async () => {
    const { job } = await scenario();
    job.api = { ...job.api, baseUrl: 'http://localhost:9999/mock' };
    publishV2();
    const result = await runDefinitionApply({ ...job, expectedFingerprint: (await runDefinitionPreview(job, deps)).fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    expect(result.api.baseUrl).toBe('http://localhost:9999/mock');
    expect(result.added[0]?.request.url).toBe('http://localhost:9999/mock');
  });

  it('is refused when the WSDL changed since the preview, and nothing is applied', async () => {
    const { job } = await scenario();
    publishV2();
    const preview = await runDefinitionPreview(job, deps);
    writeFileSync(join(dir, 'calc-v2-types.xsd'), V2_TYPES.replace('name="scale"', 'name="precision"'));
    await expect(runDefinitionApply({ ...job, expectedFingerprint: preview.fingerprint }, { newId: counterIds(), now: FIXED_CLOCK })).rejects.toMatchObject({ code: 'definition-changed' });
  });
});

describe('WSDL definition update of one binding of several (SOAP 1.2)', () => {
  it('updates the action inside the SOAP 1.2 Content-Type, and compares only its own binding', async () => {
    const calc = readFileSync(resolve(FIXTURES, '../calc.wsdl'), 'utf8');
    writeFileSync(wsdlPath, calc);
    const { result } = await runHttpImportJob({ source: { kind: 'file', path: wsdlPath }, format: 'auto', options: {}, network }, { newId: counterIds(), now: FIXED_CLOCK });
    const soap12 = result.apis.find((a) => a.api.soap?.binding === 'CalcSoap12')!;
    const requests = soap12.requests.map((p) => p.request);
    expect(header(named(requests, 'Add'), 'Content-Type')).toBe('application/soap+xml; charset=utf-8; action="urn:parley:calc#Add"');
    const job = jobOf(soap12, requests);
    // Add's action changes in both document bindings; the rpc binding loses Multiply (not this API's).
    const v2 = calc.replaceAll('urn:parley:calc#Add', 'urn:parley:calc:v2#Add').replace(/<wsdl:binding name="CalcRpc"[^]*?<\/wsdl:binding>/, '<wsdl:binding name="CalcRpc" type="tns:CalcRpcPortType"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/></wsdl:binding>');
    writeFileSync(wsdlPath, v2);
    const preview = await runDefinitionPreview(job, deps);
    expect(preview).toMatchObject({ added: [], removed: [], changed: [{ method: 'SOAP', path: 'Add', reasons: ['action'] }] });
    const applied = await runDefinitionApply({ ...job, expectedFingerprint: preview.fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    const add = named(applied.requests, 'Add');
    expect(header(add, 'Content-Type')).toBe('application/soap+xml; charset=utf-8; action="urn:parley:calc:v2#Add"');
    expect(add.headers.map((h) => h.name)).toEqual(['Content-Type']);
    expect(add.soap).toMatchObject({ soapVersion: '1.2', action: 'urn:parley:calc:v2#Add' });
    expect(applied.api.soap).toMatchObject({ binding: 'CalcSoap12', soapVersion: '1.2' });
  });
});

describe('WSDL definition update with an unreadable cache', () => {
  it('a cached WSDL with a DTD is not read: a warning, and every envelope is kept', async () => {
    const imported = await importV1();
    const requests = imported.requests.map((p) => p.request);
    const poisoned = { ...imported, documents: imported.documents.map((d) => ({ ...d, bytes: new TextEncoder().encode(V1.replace('<wsdl:definitions', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<wsdl:definitions')) })) };
    const job = jobOf(poisoned, requests);
    publishV2();
    const preview = await runDefinitionPreview(job, deps);
    expect(preview.warnings[0]?.message).toMatch(/cached WSDL could not be read .*every envelope, header and endpoint you have is kept/);
    expect(preview.warnings[0]?.file).toBe('definition/service.wsdl');
    expect(preview.changed).toEqual([]);
    const result = await runDefinitionApply({ ...job, expectedFingerprint: preview.fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    expect(envelope(named(result.requests, 'Divide'))).toBe(envelope(named(requests, 'Divide')));
    expect(named(result.requests, 'Divide').url).toBe('http://127.0.0.1:8080/calc');
  });
});

describe('WSDL definition update without a cached WSDL', () => {
  it('previews from the requests’ links and keeps every envelope, adding new operations', async () => {
    const imported = await importV1({ cacheDefinition: false });
    expect(imported.documents).toEqual([]);
    const requests = imported.requests.map((p) => p.request);
    const job = jobOf(imported, requests);
    publishV2();
    const preview = await runDefinitionPreview(job, deps);
    expect(preview.added).toEqual([{ method: 'SOAP', path: 'Modulo' }]);
    expect(preview.removed).toEqual([{ method: 'SOAP', path: 'Subtract' }]);
    expect(preview.changed).toEqual([]);
    const result = await runDefinitionApply({ ...job, expectedFingerprint: preview.fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
    expect(envelope(named(result.requests, 'Divide'))).toBe(envelope(named(requests, 'Divide')));
    expect(result.added.map((p) => p.request.name)).toEqual(['Modulo']);
    // From now on the API has a cache to compare with.
    expect(result.api.definition?.cached).toEqual(['definition/service.wsdl', 'definition/calc-v2-types.xsd']);
  });
});
