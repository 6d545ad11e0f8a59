/** The mock engine's public surface: what processes/mock-host/main.ts and the supervisor call. */
export { MockServer, MAX_REQUEST_BODY, type MockServerOptions, type MockAddress, type MockReconfiguration } from './mock-server.js';
export {
  loadSampledContract,
  openApiDefinition,
  readContract,
  indexContract,
  findContractOperation,
  responseForStatus,
  type SampledContract,
  type Contract,
  type ContractOperation,
  type ContractResponse,
  type ContractChecker,
  type ContractRequest,
  type CheckOutcome,
  type OperationRef,
} from './contract.js';
export { bundleOpenApi, type OpenApiDocument } from './definition-bundle.js';
export { newMockFromDocuments, newMockFromContract, type NewMockOptions } from './new-mock.js';
export { findStubProblems, operationsNotInContract, type BodyChecker } from './stub-findings.js';
export { checkDispatchScript, dispatchDeclarations, type ScriptDiagnostic } from './script-diagnostics.js';
export { maskHeaders } from './mock-log.js';
export type { MockErrorCode } from './problem-reply.js';
