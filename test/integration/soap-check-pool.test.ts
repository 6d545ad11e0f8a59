/**
 * SOAP request checks in the mock host's check workers (dist/mock-check-worker.js, built): a body
 * over 64 KiB is not checked on the listener's thread but in a worker, with the same verdicts; a
 * check past its budget is stopped and answered as not checked with the reason; a body over 1 MiB
 * is skipped at once; the pool keeps checking afterwards. dist/ must be built first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MockCheckPool } from '../../processes/mock-host/check-pool.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { envelope11, testServiceContract, TEST_NS } from '../../processes/mock-host/engine/test-support/soap-fixtures.js';
import type { ContractRequest } from '../../processes/mock-host/engine/contract.js';
import { loadSoapContract } from '../../processes/mock-host/engine/soap/soap-contract-from-wsdl.js';

const workerFile = join(repoRoot(), 'dist', 'mock-check-worker.js');
const pools: MockCheckPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const op = { method: 'POST', path: '/', name: 'GetPage', operationId: 'GetPage' };
function request(body: string): ContractRequest {
  const bytes = Buffer.from(body);
  return { method: 'POST', path: '/', pathParams: {}, query: {}, headers: [['SOAPAction', `${TEST_NS}GetPage`]], contentType: 'text/xml', body, bodyBytes: bytes, bodySize: bytes.byteLength };
}
const page = (id: string, site: string) => envelope11(`<v1:GetPage><v1:pageLink><v1:ID>${id}</v1:ID><v1:WorkID>2</v1:WorkID><v1:RemoteSite>${site}</v1:RemoteSite><v1:LoadRawPageData>true</v1:LoadRawPageData></v1:pageLink></v1:GetPage>`);

describe('SOAP checks in the mock host check workers', () => {
  it('a body over 64 KiB is checked in a worker with the same verdicts', async () => {
    const pool = new MockCheckPool({ workerFile });
    pools.push(pool);
    const checker = await pool.soapChecker(testServiceContract());
    const big = request(page('1', 'x'.repeat(200 * 1024)));
    expect(checker.checkRequestNow!(op, big)).toBeUndefined();
    expect(await checker.checkRequest(op, big)).toEqual({ problems: [], fault: false });
    const broken = await checker.checkRequest(op, request(page('one', 'x'.repeat(200 * 1024))));
    expect(broken.problems.map((p) => p.message).join()).toMatch(/ID.*not a valid value/);
    // Small bodies stay on the listener's thread.
    expect(checker.checkRequestNow!(op, request(page('1', 'small')))).toEqual({ problems: [], fault: false });
  }, 30_000);

  it('a check past its budget is stopped and answered as not checked; checks go on', async () => {
    const pool = new MockCheckPool({ workerFile, budgetMs: 40 });
    pools.push(pool);
    const checker = await pool.soapChecker(testServiceContract());
    // About 1 MB of elements: parsing and validating it takes well over 40 ms of a worker.
    const many = envelope11(`<v1:GetPage><v1:pageLink><v1:ID>1</v1:ID><v1:WorkID>2</v1:WorkID><v1:RemoteSite>${'<b/>'.repeat(240_000)}</v1:RemoteSite></v1:pageLink></v1:GetPage>`);
    const outcome = await checker.checkRequest(op, request(many));
    expect(outcome.gaveUp).toMatch(/took longer than 40 ms and was stopped/);
    // The listener's own checks never waited on it. (A worker compiles the schemas before the
    // budget starts, so the 40 ms are the check's own.)
    expect(checker.checkRequestNow!(op, request(page('1', 'small')))).toEqual({ problems: [], fault: false });
    expect(checker.checkRequestNow!(op, request(page('one', 'small')))?.problems.length).toBeGreaterThan(0);
  }, 30_000);

  it('a body over 1 MiB is skipped on the spot, not sent to a worker', async () => {
    const pool = new MockCheckPool({ workerFile });
    pools.push(pool);
    const outcome = (await pool.soapChecker(testServiceContract())).checkRequestNow!(op, request(page('1', 'z'.repeat(1100 * 1024))));
    expect(outcome?.gaveUp).toMatch(/over 1048576 bytes/);
  });

  it('a mock whose patterns stay libxml2\'s checks even small bodies in a worker; a runaway one is stopped with the reason', async () => {
    // codes.wsdl with a pattern the linear engine cannot take (\i), so libxml2 runs it, with backtracking.
    const text = readFileSync(join(repoRoot(), 'test', 'fixtures', 'wsdl', 'mock', 'pattern', 'codes.wsdl'), 'utf8').replaceAll('((a|aa)+)+c', '((a|aa)+)+\\i');
    const contract = await loadSoapContract([{ path: 'codes.wsdl', text }], 'CodesSoap');
    const pool = new MockCheckPool({ workerFile, threads: 1 });
    pools.push(pool);
    const checker = await pool.soapChecker(contract);
    const lookup = { method: 'POST', path: '/', name: 'Lookup', operationId: 'Lookup' };
    const code = (value: string) => {
      const body = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:c="urn:parley:codes"><soapenv:Body><c:Lookup><c:code>${value}</c:code></c:Lookup></soapenv:Body></soapenv:Envelope>`;
      const bytes = Buffer.from(body);
      return { method: 'POST', path: '/', pathParams: {}, query: {}, headers: [], contentType: 'text/xml', body, bodyBytes: bytes, bodySize: bytes.byteLength } satisfies ContractRequest;
    };
    expect(checker.checkRequestNow!(lookup, code('aac'))).toBeUndefined();
    expect(await checker.checkRequest(lookup, code('aaa_'))).toEqual({ problems: [], fault: false });
    const runaway = await checker.checkRequest(lookup, code(`${'a'.repeat(60)}!`));
    expect(runaway.problems).toEqual([]);
    // Stopped by the pool past its budget, or by libxml2's own step limit: either way, said.
    expect(runaway.gaveUp).toMatch(/took longer than 1000 ms and was stopped|the schema validator gave up/);
    // The next check is answered (by a new worker if the old one was stopped).
    expect((await checker.checkRequest(lookup, code('!'))).problems.map((p) => p.message).join()).toMatch(/not accepted by the pattern/);
  }, 60_000);

  it('a mock with patterns checks bodies up to 8 KiB on the spot and larger ones in a worker, both on the linear engine', async () => {
    const text = readFileSync(join(repoRoot(), 'test', 'fixtures', 'wsdl', 'mock', 'pattern', 'codes.wsdl'), 'utf8');
    const pool = new MockCheckPool({ workerFile });
    pools.push(pool);
    const checker = await pool.soapChecker(await loadSoapContract([{ path: 'codes.wsdl', text }], 'CodesSoap'));
    const lookup = { method: 'POST', path: '/', name: 'Lookup', operationId: 'Lookup' };
    const code = (value: string): ContractRequest => {
      const body = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:c="urn:parley:codes"><soapenv:Body><c:Lookup><c:code>${value}</c:code></c:Lookup></soapenv:Body></soapenv:Envelope>`;
      const bytes = Buffer.from(body);
      return { method: 'POST', path: '/', pathParams: {}, query: {}, headers: [], contentType: 'text/xml', body, bodyBytes: bytes, bodySize: bytes.byteLength };
    };
    const pattern = /The value 'a+!' is not accepted by the pattern '\(\(a\|aa\)\+\)\+c'/;
    expect(checker.checkRequestNow!(lookup, code(`${'a'.repeat(7000)}!`))?.problems.map((p) => p.message).join()).toMatch(pattern);
    const large = code(`${'a'.repeat(10_000)}!`);
    expect(checker.checkRequestNow!(lookup, large)).toBeUndefined();
    const inWorker = await checker.checkRequest(lookup, large);
    expect(inWorker.gaveUp).toBeUndefined();
    expect(inWorker.problems.map((p) => p.message).join()).toMatch(pattern);
  }, 60_000);
});
