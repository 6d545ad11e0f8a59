/** The contract checker engine: prepare a definition once, then check exchanges against it. */
export { PreparedDefinition, detectDialect } from './definition.js';
export { checkExchange, screenBody, parseJson, validateValue, type CheckOptions, type ExchangeInput } from './check.js';
export { listOperations, matchOperation, requestPath, serverPathPrefix, type OperationEntry } from './select-operation.js';
export { essence, isJsonMediaType, selectMediaType, selectResponseKey } from './select-response.js';
export { CHECK_LIMITS, TOO_LARGE_TEXT, makeVerdict, reasoned } from './verdicts.js';
export { NeedsWorker } from './evaluation.js';
export type { Direction, Dialect } from './evaluation.js';
export type { Loc } from './keywords/site.js';
