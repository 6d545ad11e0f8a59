/**
 * The contract check of a SOAP mock (SPEC Mock HTTP surface rules 8 and 9). A request: its
 * Content-Type against the binding's SOAP version, the envelope's structure, the Body's element
 * against the operation's input, and that element against the schemas by XSD validation
 * (libxml2). A stub: the same against the output, its status (reply 200, fault 500 or in SOAP 1.2
 * 400/500, one-way acknowledgement 200/202 with no body); a fault gets the structure checks only.
 *
 * Parsing and validating cannot be interrupted on the thread they run on, so the mock host runs a
 * request check here on the listener's thread only while its work is linear and small: bodies up
 * to 64 KiB (8 KiB when the schemas have patterns), bounded by libxml2's depth and amplification
 * limits, with every `pattern` judged by the linear-time engine rather than libxml2's backtracking
 * one (xsd-patterns.ts). Anything else runs in its check pool's workers, which are stopped past
 * the 1000 ms budget.
 */
import type { MockProblem } from '../../../../protocol/model/mock.js';
import type { CheckOutcome, ContractChecker, ContractRequest, OperationRef } from '../contract.js';
import { readEnvelope, qname } from './envelope.js';
import { MAX_XML_BYTES, parseSafeXml } from './safe-xml.js';
import { compileWsdlSchemas, type CompiledSchemas } from './xsd-schemas.js';
import { contentTypeProblem } from './soap-version.js';
import type { SoapContract, SoapOperationContract } from './soap-contract.js';

/** SPEC Limits: at most 50 problems listed. */
const MAX_PROBLEMS = 50;
/** Bodies up to this are checked on the listener's thread; larger ones in a worker. */
export const SOAP_INLINE_BODY_MAX = 64 * 1024;
/**
 * The same when the schemas have patterns (`inlineLimit`): every value a pattern applies to then
 * costs libxml2 an error report, 20-120 µs (measured 2026-11-28 under load 18: 1,024 values in
 * 87 ms, 4,096 in 500 ms), so an 8 KiB body (at most ~500 such values) stays within tens of ms.
 */
export const SOAP_INLINE_PATTERN_BODY_MAX = 8 * 1024;

export interface SoapMessage {
  contentType: string;
  body: Uint8Array | string;
}

/** An operation reference as the mock engine passes it: the mock operation, which names its WSDL operation. */
export type SoapOperationRef = OperationRef & { name?: string; operationId?: string };

export class SoapContractCheck {
  private compiled: CompiledSchemas | undefined;
  private readonly operations = new Map<string, SoapOperationContract>();

  constructor(readonly contract: SoapContract) {
    for (const op of contract.operations) this.operations.set(op.name, op);
  }

  operation(ref: SoapOperationRef): SoapOperationContract | undefined {
    return this.operations.get(ref.operationId ?? ref.name ?? '');
  }

  /** The schemas, compiled on first use and kept. */
  schemas(): CompiledSchemas {
    if (this.compiled) return this.compiled;
    const rpc = this.contract.operations.flatMap((op) => [op.rpcInput, op.rpcOutput].filter((w) => w !== undefined));
    return (this.compiled = compileWsdlSchemas(this.contract.documents, this.contract.sources, rpc));
  }

  /** A request against the operation's input. */
  checkRequest(ref: SoapOperationRef, message: SoapMessage): CheckOutcome {
    const op = this.operation(ref);
    if (!op) return { problems: [] };
    return this.checkMessage(op, message, 'input');
  }

  /**
   * A message against the operation's input or output. `fault` messages get the structure checks
   * only; a reply's body element must be the output's.
   */
  checkMessage(op: SoapOperationContract, message: SoapMessage, direction: 'input' | 'output'): CheckOutcome & { fault?: boolean } {
    const problems: MockProblem[] = [];
    const outcome: CheckOutcome & { fault?: boolean } = { problems };
    const version = this.contract.version;
    const typeProblem = contentTypeProblem(version, message.contentType);
    if (typeProblem) problems.push({ in: 'header', pointer: 'Content-Type', message: typeProblem });
    const size = typeof message.body === 'string' ? Buffer.byteLength(message.body) : message.body.byteLength;
    if (size > MAX_XML_BYTES) {
      outcome.gaveUp = `the body is over ${MAX_XML_BYTES} bytes, which a contract check skips`;
      return outcome;
    }
    if (size === 0) {
      problems.push({ in: 'body', pointer: '', message: `The ${direction === 'input' ? 'request' : 'response'} has no body; a SOAP ${version} envelope was expected.` });
      return outcome;
    }
    const parsed = parseSafeXml(message.body);
    if (!parsed.ok) {
      problems.push({ in: 'body', pointer: '', message: parsed.reason });
      return outcome;
    }
    try {
      const envelope = readEnvelope(parsed.doc, version);
      for (const message of envelope.problems) problems.push({ in: 'body', pointer: '/Envelope', message });
      outcome.fault = envelope.fault;
      if (envelope.fault || envelope.problems.length > 0 || envelope.bodyElements.length !== 1) return cap(outcome);
      const element = envelope.bodyElements[0]!;
      const expected = direction === 'input' ? op.inputElement : op.outputElement;
      const actual = qname(element);
      if (expected && actual !== expected) {
        problems.push({ in: 'body', pointer: '/Envelope/Body', message: `The Body holds ${actual}, but operation ${op.name} expects ${expected}.` });
        return cap(outcome);
      }
      // An rpc body wraps typed parts in an element the definition does not declare: the schemas
      // declare it from the parts (rpc/literal); rpc/encoded gets the structure checks only.
      const wrapper = op.style === 'rpc' ? (direction === 'input' ? op.rpcInput : op.rpcOutput) : undefined;
      if (op.style === 'rpc' && !wrapper) return cap(outcome);
      const schemas = this.schemas();
      if (!schemas.ok) {
        outcome.gaveUp = schemas.reason;
        return cap(outcome);
      }
      if (wrapper && !schemas.rpc.has(`{${wrapper.ns}}${wrapper.name}`)) {
        outcome.gaveUp = `the parts of ${wrapper.name} use a type the definition's schemas do not declare, so only the envelope was checked`;
        return cap(outcome);
      }
      const checked = schemas.schemas.validate(element, MAX_PROBLEMS);
      for (const message of checked.problems) problems.push({ in: 'body', pointer: `/Envelope/Body/${element.name}`, message });
      if (checked.notChecked) outcome.gaveUp = checked.notChecked;
      return cap(outcome);
    } finally {
      parsed.doc.dispose();
    }
  }

  /**
   * The largest body checked on the listener's thread. libxml2's work is linear there when every
   * pattern is judged by the linear engine (xsd-patterns.ts); each value a pattern applies to
   * costs a validation error and a test, so bodies are held smaller then. Patterns left to
   * libxml2's backtracking engine can take any time on any body: every check goes to a worker.
   */
  inlineLimit(): number {
    const schemas = this.schemas();
    if (!schemas.ok) return SOAP_INLINE_BODY_MAX;
    const plan = schemas.schemas.patterns;
    if (!plan.linear) return 0;
    return plan.steps.size > 0 ? SOAP_INLINE_PATTERN_BODY_MAX : SOAP_INLINE_BODY_MAX;
  }

  /** A ContractChecker for the mock engine: on the spot for small bodies, `inWorker` for the rest. */
  contractChecker(inWorker?: (ref: SoapOperationRef, request: ContractRequest) => Promise<CheckOutcome>): ContractChecker {
    const message = (request: ContractRequest): SoapMessage => ({ contentType: request.contentType, body: request.bodyBytes ?? request.body });
    return {
      budgeted: inWorker !== undefined,
      checkRequestNow: (ref, request) => {
        const size = request.bodySize ?? request.bodyBytes?.byteLength ?? Buffer.byteLength(request.body);
        // Over 1 MiB the check only says it skipped the body: no need for a worker.
        if (inWorker && size > this.inlineLimit() && size <= MAX_XML_BYTES) return undefined;
        return this.checkRequest(ref, message(request));
      },
      checkRequest: async (ref, request) => (inWorker ? inWorker(ref, request) : this.checkRequest(ref, message(request))),
      checkResponseBody: async (ref, response) => {
        const op = this.operation(ref);
        return op ? this.checkMessage(op, { contentType: response.contentType, body: response.body }, 'output') : { problems: [] };
      },
    };
  }
}

function cap(outcome: CheckOutcome): CheckOutcome {
  if (outcome.problems.length > MAX_PROBLEMS) outcome.problems = outcome.problems.slice(0, MAX_PROBLEMS);
  return outcome;
}
