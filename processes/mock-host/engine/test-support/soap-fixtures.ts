/** Test support: the WSDL fixtures of test/fixtures/wsdl/mock read as a definition's documents. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SoapContract } from '../soap/soap-contract.js';

const ROOT = new URL('../../../../test/fixtures/wsdl/mock/', import.meta.url);

/** Every file of a fixture folder, by path relative to it. */
export function fixtureDocuments(folder: string): Map<string, string> {
  const dir = new URL(`${folder}/`, ROOT);
  const documents = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const entry of readdirSync(new URL(rel || '.', dir), { withFileTypes: true })) {
      const path = rel ? join(rel, entry.name) : entry.name;
      if (entry.isDirectory()) walk(`${path}/`);
      else documents.set(path.replace(/\/$/, ''), readFileSync(new URL(path, dir), 'utf8'));
    }
  };
  walk('');
  return documents;
}

const TNS = 'http://schemas.eviware.com/TestService/v1/';

/** test1's binding as the WSDL engine describes it (a few of its operations). */
export function testServiceContract(): SoapContract {
  return {
    version: '1.1',
    binding: 'TestServiceSoap',
    entry: 'TestService.wsdl',
    documents: fixtureDocuments('test1'),
    sources: new Map(),
    operations: [
      { name: 'GetPage', action: `${TNS}GetPage`, style: 'document', inputElement: `{${TNS}}GetPage`, outputElement: `{${TNS}}GetPageResponse`, oneWay: false },
      { name: 'Ping', action: `${TNS}Ping`, style: 'document', inputElement: `{${TNS}}Ping`, outputElement: `{${TNS}}PingResponse`, oneWay: false },
    ],
  };
}

export const TEST_NS = TNS;

export function envelope11(body: string, header = ''): string {
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:v1="${TNS}">${header}<soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

export function envelope12(body: string): string {
  return `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:v1="${TNS}"><env:Body>${body}</env:Body></env:Envelope>`;
}
