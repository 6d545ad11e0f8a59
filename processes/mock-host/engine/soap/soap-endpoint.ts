/**
 * The HTTP face of a SOAP mock, for the mock engine: `GET <path>?wsdl` (and `?wsdl=<document>`)
 * serves the WSDL with every address rewritten to the mock; a POST to the mock's Path goes to
 * the operation its action names (SOAPAction, or SOAP 1.2's action parameter), or else the one
 * whose input element the Body holds; refusals and a request for no operation are SOAP faults.
 */
import type { Mock, MockOperation, MockProblem } from '../../../../protocol/model/mock.js';
import type { MockErrorCode, ProblemReply } from '../problem-reply.js';
import { headerPairs } from '../mock-log.js';
import { SoapRouter, type SoapContract } from './soap-contract.js';
import { soapFaultReply } from './fault.js';
import { requestAction } from './soap-version.js';
import { parseSafeXml } from './safe-xml.js';
import { qname, readEnvelope } from './envelope.js';
import { serveWsdlDocument, wsdlQuery } from './wsdl-addresses.js';
import { cachedLocator } from '../../../../protocol/wsdl/cached-wsdl.js';

export interface SoapIncoming {
  method: string;
  rawHeaders: readonly string[];
  body: Buffer;
}

/** What the mock engine asks of a SOAP mock's endpoint (the engine imports only this type, so a REST mock never loads libxml2). */
export interface SoapRouting {
  route(incoming: SoapIncoming, path: string, search: string, prefix: string): { operation: MockOperation } | ProblemReply;
  refusal(op: MockOperation, problems: readonly MockProblem[]): ProblemReply;
  /** An answer the mock makes itself (body too large, a template or script that failed) as a fault of the binding's version, with the status given. */
  ownFault(status: number, code: MockErrorCode, reason: string): ProblemReply;
}

/** Makes the endpoint of a mock (again after each edit of it). */
export type SoapRoutingFactory = (mock: Mock) => SoapRouting;

export function soapRouting(contract: SoapContract): SoapRoutingFactory {
  return (mock) => new SoapEndpoint(mock, contract);
}

/** Rewritten WSDL documents kept per Host and document; clients fetch `?wsdl` again and again. */
const SERVED_MAX = 32;

export class SoapEndpoint implements SoapRouting {
  private readonly router: SoapRouter<MockOperation>;
  private readonly served = new Map<string, ProblemReply>();

  constructor(
    mock: Mock,
    readonly contract: SoapContract,
  ) {
    const byName = new Map(contract.operations.map((op) => [op.name, op]));
    const entries: Array<{ contract: SoapContract['operations'][number]; target: MockOperation }> = [];
    for (const op of mock.operations) {
      const found = byName.get(op.operationId ?? op.name);
      if (found) entries.push({ contract: found, target: op });
    }
    this.router = new SoapRouter(entries);
  }

  /** The operation a request is for, or the reply to send instead (the WSDL, or a fault). */
  route(incoming: SoapIncoming, path: string, search: string, prefix: string): { operation: MockOperation } | ProblemReply {
    const version = this.contract.version;
    if (path !== '/' && path !== '') return this.fault('client', 'mock-no-route', `This SOAP mock answers at ${prefix || '/'} only.`, 404);
    if (incoming.method === 'GET' || incoming.method === 'HEAD') {
      const query = wsdlQuery(search);
      if (query) return this.wsdl(incoming.rawHeaders, prefix, query.path);
      return this.fault('client', 'mock-no-route', `This SOAP mock answers POST requests; its WSDL is at ${prefix || '/'}?wsdl.`, 405);
    }
    if (incoming.method !== 'POST') return this.fault('client', 'mock-no-route', `This SOAP mock answers POST requests, not ${incoming.method.slice(0, 20)}.`, 405);
    const header = headerLookup(incoming.rawHeaders);
    const action = requestAction(header);
    const byAction = this.router.byActionName(action);
    if (byAction) return { operation: byAction };
    const element = bodyElement(incoming.body, version);
    const byElement = element === undefined ? undefined : this.router.byBodyElement(element);
    if (byElement) return { operation: byElement };
    const said = [action ? `action ${action.slice(0, 200)}` : 'no action', element ? `Body element ${element.slice(0, 200)}` : 'no readable Body element'].join(' and ');
    return this.fault('client', 'mock-no-route', `No operation of binding ${this.contract.binding} matches this request (${said}).`);
  }

  /** Refuse mode: the request broke the contract. */
  refusal(op: MockOperation, problems: readonly MockProblem[]): ProblemReply {
    return soapFaultReply({
      version: this.contract.version,
      party: 'client',
      code: 'mock-contract-refused',
      reason: `The request does not match operation ${op.operationId ?? op.name}.`,
      problems: problems.map((p) => p.message),
    });
  }

  ownFault(status: number, code: MockErrorCode, reason: string): ProblemReply {
    return this.fault(status < 500 ? 'client' : 'server', code, reason, status);
  }

  private fault(party: 'client' | 'server', code: string, reason: string, status?: number): ProblemReply {
    const reply = soapFaultReply({ version: this.contract.version, party, code, reason });
    return status === undefined ? reply : { ...reply, status };
  }

  private wsdl(rawHeaders: readonly string[], prefix: string, document: string | undefined): ProblemReply {
    const host = headerLookup(rawHeaders)('host') ?? '127.0.0.1';
    const key = `${host}\n${document ?? ''}`;
    const kept = this.served.get(key);
    if (kept) return kept;
    const site = { documents: this.contract.documents, entry: this.contract.entry, locate: cachedLocator(this.contract.documents, this.contract.sources) };
    const served = serveWsdlDocument(site, `http://${host}${prefix || '/'}`, document ?? this.contract.entry);
    if (!served.ok) return this.fault('client', 'mock-no-route', `${served.reason} (${(document ?? this.contract.entry).slice(0, 200)})`, 404);
    const reply: ProblemReply = { status: 200, headers: [['Content-Type', 'text/xml; charset=utf-8']], body: Buffer.from(served.text) };
    if (this.served.size >= SERVED_MAX) this.served.clear();
    this.served.set(key, reply);
    return reply;
  }
}

function headerLookup(rawHeaders: readonly string[]): (name: string) => string | undefined {
  let pairs: Array<[string, string]> | undefined;
  return (name) => {
    pairs ??= headerPairs(rawHeaders);
    const found = pairs.filter(([n]) => n.toLowerCase() === name);
    return found.length === 0 ? undefined : found.map(([, v]) => v).join(', ');
  };
}

/** `{namespace}local` of the Body's first element, when the body reads as a SOAP envelope. */
function bodyElement(body: Buffer, version: SoapContract['version']): string | undefined {
  const parsed = parseSafeXml(body);
  if (!parsed.ok) return undefined;
  try {
    const first = readEnvelope(parsed.doc, version).bodyElements[0];
    return first ? qname(first) : undefined;
  } finally {
    parsed.doc.dispose();
  }
}
