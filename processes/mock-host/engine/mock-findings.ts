/**
 * `checker.mockFindings`: stubs against the contract (SPEC Mock HTTP surface rule 9). The mock
 * engine says what to look at; the checker engine (through the mock host's adapter) judges JSON
 * bodies, so a stub is held to exactly what a send's contract chip would hold it to. Pure: the CLI
 * calls the same function in its own process.
 */
import type { Mock, MockFinding } from '../../../protocol/model/mock.js';
// Single engine modules, not its index: the index also reaches isolated-vm and TypeScript.
import { openApiDefinition, readContract, type Contract } from './contract.js';
import type { Definition, MockDocuments } from '../../../protocol/model/verdict.js';
import { findStubProblems, operationsNotInContract } from './stub-findings.js';
import { contractChecker } from './contract-checker.js';
import type { SoapContractCheck } from './soap/soap-checker.js';

export interface MockFindings {
  findings: MockFinding[];
  /** One line per operation the contract no longer has (shown when the mock starts). */
  warnings: string[];
}

/**
 * Contracts (read as written, never bundled) by their documents' key (`definitionKey`: the API's
 * id and definition fingerprint), so a tab's every edit re-checks the same one without
 * stringifying, let alone hashing, a definition of tens of MB each time.
 */
const contracts = new Map<string, Promise<Contract>>();
const MAX_CONTRACTS = 8;

/** SOAP contract checks (their schemas compiled once) by binding and documents. */
const soapChecks = new Map<string, Promise<SoapContractCheck>>();

/** `definitionKey` names `documents` exactly; without one (a test's documents) the contract is read and not kept. */
export async function mockFindings(mock: Mock, documents: MockDocuments, definitionKey?: string): Promise<MockFindings> {
  if (mock.kind === 'soap') {
    // Loaded only for a SOAP mock: libxml2 takes a few hundred ms to load.
    const { findSoapStubProblems } = await import('./soap/soap-findings.js');
    const findings = findSoapStubProblems(mock, await cachedSoapCheck(mock.binding, documents, definitionKey));
    return { findings, warnings: findings.filter((f) => f.rule === 'operation-not-in-contract').map((f) => f.message) };
  }
  const contract = await cachedContract(openApiDefinition(documents), definitionKey);
  const findings = await findStubProblems(mock, contract, contractChecker(contract));
  return { findings, warnings: contractWarnings(mock, contract) };
}

export function contractWarnings(mock: Mock, contract: Contract): string[] {
  return operationsNotInContract(mock, contract).map(
    (op) => `The contract no longer has ${op.method} ${op.path}: the responses of ${op.name} are not checked.`,
  );
}

function cachedSoapCheck(binding: string | undefined, documents: MockDocuments, definitionKey: string | undefined): Promise<SoapContractCheck> {
  const key = `${binding ?? ''}\n${definitionKey}`;
  let check = definitionKey === undefined ? undefined : soapChecks.get(key);
  if (!check) {
    check = Promise.all([import('./soap/soap-contract-from-wsdl.js'), import('./soap/soap-checker.js')]).then(async ([{ loadSoapContract, wsdlDocuments }, { SoapContractCheck }]) => new SoapContractCheck(await loadSoapContract(wsdlDocuments(documents), binding)));
    if (definitionKey === undefined) return check;
    soapChecks.set(key, check);
    check.catch(() => soapChecks.delete(key));
    if (soapChecks.size > MAX_CONTRACTS) soapChecks.delete(soapChecks.keys().next().value!);
  }
  return check;
}

function cachedContract(definition: Definition, key: string | undefined): Promise<Contract> {
  if (key === undefined) return readContract(definition);
  let contract = contracts.get(key);
  if (!contract) {
    contract = readContract(definition);
    contracts.set(key, contract);
    contract.catch(() => contracts.delete(key));
    if (contracts.size > MAX_CONTRACTS) contracts.delete(contracts.keys().next().value!);
  }
  return contract;
}
