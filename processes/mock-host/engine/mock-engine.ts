/**
 * One request through a mock, without sockets: route it to an operation, check it against the
 * contract, pick a response (In order, At random, By match conditions, By script), honour
 * scenarios, and render the response. The HTTP side lives in mock-server.ts.
 */
import type { Mock, MockOperation, MockProblem, MockResponse } from '../../../protocol/model/mock.js';
import { headerPairs } from './mock-log.js';
import { Router } from './router.js';
import { RequestValues, type MockRequest } from './request-values.js';
import { firstMatching, type RegexRunner } from './match-conditions.js';
import { isTemplate, renderResponse, type RenderedResponse } from './render-response.js';
import { problemReply, type MockErrorCode, type ProblemReply } from './problem-reply.js';
import type { MockState } from './mock-state.js';
import type { ScriptSandbox } from './script-sandbox.js';
import type { CheckOutcome, ContractChecker, ContractRequest, OperationRef } from './contract.js';
import type { SoapRouting, SoapRoutingFactory } from './soap/soap-endpoint.js';

export interface IncomingRequest {
  method: string;
  /** Path and query as sent (origin form). */
  target: string;
  /** As node:http gives them: name, value, name, value, ... in the order sent. */
  rawHeaders: readonly string[];
  body: Buffer;
}

export interface EngineReply extends ProblemReply {
  delayMs: number;
  operation: string;
  responseName: string;
  problems: MockProblem[];
  notes: string[];
  /** Runs when the reply is committed to be sent: a scenario's Then move to. */
  commit?: () => void;
  /**
   * Set when status, headers and body are a static response's, prepared once and shared by every
   * request that sends it: what goes on the wire for it can be worked out once too. Never changed.
   */
  prepared?: RenderedResponse;
}

export interface EngineDeps {
  state: MockState;
  sandbox: () => ScriptSandbox;
  random: () => number;
  checker?: ContractChecker;
  /** The whole contract check, lookup included, is held to this (SPEC: 1000 ms), unless the checker holds its own budget. */
  checkTimeoutMs: number;
  /** Runs match-condition patterns the linear engine cannot, within a budget on another thread. */
  regexRunner?: RegexRunner;
  /** A SOAP mock's endpoint: routing by action or Body element, `?wsdl`, faults (soap/soap-endpoint.ts). */
  soap?: SoapRoutingFactory;
}

/**
 * A checker that holds its own budget from when a worker starts the check (the mock host's pool)
 * always answers; this only guards against one that never does.
 */
const BUDGETED_BACKSTOP_MS = 60_000;

type Maybe<T> = T | Promise<T>;

/** Shared by every unchecked request; nothing adds to a reply's problems after the engine. */
const NO_PROBLEMS = Object.freeze([]) as unknown as MockProblem[];

/**
 * The request as the engine's parts read it. Query and header pairs are worked out only when
 * something reads them (a check, a condition, a template, a script): a plain static answer never does.
 */
class EngineRequest implements MockRequest {
  private queryOf: Record<string, string[]> | undefined;
  private headersOf: Array<[string, string]> | undefined;

  constructor(
    readonly method: string,
    readonly target: string,
    readonly path: string,
    private readonly search: string,
    private readonly rawHeaders: readonly string[],
    readonly pathParams: Record<string, string>,
    readonly body: Buffer,
  ) {}

  get query(): Record<string, string[]> {
    return (this.queryOf ??= parseQuery(this.search));
  }

  get headers(): Array<[string, string]> {
    return (this.headersOf ??= headerPairs(this.rawHeaders));
  }
}

export class MockEngine {
  private readonly router: Router<MockOperation>;
  private readonly prefix: string;
  /** Operations with a response limited to a scenario state: only their candidates need filtering. */
  private readonly gated = new Set<MockOperation>();
  private readonly soap: SoapRouting | undefined;
  private methodList: string[] | undefined;

  constructor(
    readonly mock: Mock,
    private readonly deps: EngineDeps,
  ) {
    // Below the path prefixes the contract check strips too (basePath, servers): a mock answers from the operation a send's check then picks.
    const prefixes = (op: MockOperation) => deps.checker?.routePrefixes?.(op);
    this.router = new Router(mock.kind === 'soap' ? [] : mock.operations.map((op) => ({ method: op.method, path: op.path, target: op, prefixes: prefixes(op) })));
    if (mock.kind === 'soap' && deps.soap) this.soap = deps.soap(mock);
    this.prefix = mock.path.replace(/\/+$/, '');
    for (const op of mock.operations) if (op.responses.some((r) => r.scenario?.onlyInState)) this.gated.add(op);
  }

  /**
   * The methods some route of this mock answers, for `OPTIONS *`: its operations' (HEAD with GET,
   * which answers it), and a SOAP mock's GET, which serves `?wsdl`.
   */
  get methods(): string[] {
    if (this.methodList) return this.methodList;
    const methods = new Set(this.mock.operations.map((op) => op.method.toUpperCase()));
    if (this.soap) methods.add('GET');
    if (methods.has('GET')) methods.add('HEAD');
    const rank = (m: string) => METHOD_ORDER.indexOf(m) + 1 || METHOD_ORDER.length + 1;
    return (this.methodList = [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)));
  }

  /**
   * The reply to one request. It comes back at once when nothing needs to wait (no script, and a
   * checker that answers on the spot), and as a promise otherwise.
   */
  handle(incoming: IncomingRequest): Maybe<EngineReply> {
    const target = incoming.target;
    const q = target.indexOf('?');
    const fullPath = q < 0 ? target : target.slice(0, q);
    const path = this.stripPrefix(fullPath);
    let route = path === undefined || this.soap ? undefined : this.router.match(incoming.method, path);
    if (this.soap && path !== undefined) {
      const routed = this.soap.route(incoming, path, q < 0 ? '' : target.slice(q + 1), this.prefix);
      if ('status' in routed) return plain(routed);
      route = { target: routed.operation, params: Object.create(null) as Record<string, string> };
    }
    if (!route || path === undefined) {
      return plain(
        problemReply(404, 'mock-no-route', 'No such operation', `This mock has no operation for ${incoming.method} ${fullPath}.`, { method: incoming.method, path: fullPath }),
      );
    }
    const op = route.target;
    const request = new EngineRequest(incoming.method, target, path, q < 0 ? '' : target.slice(q + 1), incoming.rawHeaders, route.params, incoming.body);
    const values = new RequestValues(request);
    const notes: string[] = [];

    if (this.mock.contractCheck === 'off') return this.answer(op, values, notes, NO_PROBLEMS);
    const outcome = this.checkRequest(op, request, values);
    return outcome instanceof Promise ? outcome.then((o) => this.afterCheck(op, values, notes, o)) : this.afterCheck(op, values, notes, outcome);
  }

  private afterCheck(op: MockOperation, values: RequestValues, notes: string[], outcome: CheckOutcome): Maybe<EngineReply> {
    if (outcome.gaveUp) notes.push(`The contract check gave up (${outcome.gaveUp}); the request counts as not checked.`);
    if (this.mock.contractCheck === 'refuse' && outcome.problems.length > 0) {
      if (this.soap) return { ...this.soap.refusal(op, outcome.problems), operation: op.name, problems: outcome.problems, notes, responseName: '', delayMs: 0 };
      return {
        ...problemReply(400, 'mock-contract-refused', 'Request breaks the contract', `The request does not match operation ${op.method} ${op.path}.`, {
          operation: op.name,
          problems: outcome.problems,
        }),
        operation: op.name,
        problems: outcome.problems,
        notes,
        responseName: '',
        delayMs: 0,
      };
    }
    return this.answer(op, values, notes, outcome.problems);
  }

  /** Dispatch, then the chosen response rendered. */
  private answer(op: MockOperation, values: RequestValues, notes: string[], problems: MockProblem[]): Maybe<EngineReply> {
    const picked = this.pick(op, values, notes);
    if (picked instanceof Promise) return picked.then((p) => this.reply(op, values, notes, problems, p));
    return this.reply(op, values, notes, problems, picked);
  }

  private reply(op: MockOperation, values: RequestValues, notes: string[], problems: MockProblem[], picked: { response: MockResponse } | ProblemReply): EngineReply {
    if ('status' in picked) return { ...picked, operation: op.name, problems, notes, responseName: '', delayMs: 0 };
    const response = picked.response;
    const rendered = renderResponse(response, values);
    // Expressions that could not be evaluated, by match conditions or template values.
    if (values.notes.length > 0) notes.push(...values.notes);
    if (!rendered.ok) {
      notes.push(rendered.reason);
      return {
        ...this.ownReply(500, 'mock-template-refused', 'Template refused', `Response ${response.name} of ${op.name} would send a header that cannot be valid (${rendered.header}); nothing was sent for it.`, {
          operation: op.name,
          response: response.name,
          header: rendered.header,
        }),
        operation: op.name,
        problems,
        notes,
        responseName: response.name,
        delayMs: 0,
      };
    }
    const out = rendered.response;
    const reply: EngineReply = {
      status: out.status,
      headers: out.headers,
      body: out.body,
      delayMs: response.delayMs,
      operation: op.name,
      responseName: response.name,
      problems,
      notes,
    };
    // A template's output is this request's own; a static response's is shared.
    if (!isTemplate(response)) reply.prepared = out;
    const scenario = response.scenario;
    if (scenario?.thenMoveTo && this.isCandidate(response)) {
      const to = scenario.thenMoveTo;
      reply.commit = () => {
        const refused = this.deps.state.setScenarios([[scenario.name, to]]);
        if (refused) reply.notes.push(`${response.name} did not move its scenario: ${refused}`);
      };
    }
    return reply;
  }

  /** The path inside the mock, or undefined when the request is not under the mock's Path. */
  private stripPrefix(path: string): string | undefined {
    if (this.prefix === '') return path;
    if (path === this.prefix) return '/';
    return path.startsWith(`${this.prefix}/`) ? path.slice(this.prefix.length) : undefined;
  }

  private checkRequest(op: MockOperation, request: MockRequest, values: RequestValues): Maybe<CheckOutcome> {
    const checker = this.deps.checker;
    if (!checker) return { problems: [], gaveUp: 'no contract checker is available' };
    // The operation itself is the reference (it has method and path): the same object for every
    // request, so a checker can keep what it prepared for it.
    const ref: OperationRef = op;
    const contractRequest = () => ({
      method: request.method,
      path: request.path,
      pathParams: request.pathParams,
      query: request.query,
      headers: request.headers,
      contentType: values.header('content-type') ?? '',
      body: values.bodyText(),
      bodyBytes: request.body,
    });
    // A checker that answers on the spot holds its own deadline, below this one: a race against a
    // timer could never interrupt it, so none is set.
    if (checker.checkRequestNow) {
      try {
        const outcome = checker.checkRequestNow(ref, contractRequest());
        if (outcome) return outcome;
      } catch (err) {
        return { problems: [], gaveUp: `the checker failed: ${err instanceof Error ? err.message : String(err)}` };
      }
    }
    // A checker that holds its own budget from when its worker starts a check must not be raced
    // against one that runs from now: a request queued behind a runaway check would lose its own.
    return this.checkWithin(checker, ref, contractRequest, checker.budgeted ? BUDGETED_BACKSTOP_MS : this.deps.checkTimeoutMs);
  }

  private async checkWithin(checker: ContractChecker, ref: OperationRef, contractRequest: () => ContractRequest, limitMs: number): Promise<CheckOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ problems: [], gaveUp: `it took longer than ${limitMs} ms` }), limitMs);
    });
    try {
      return await Promise.race([checker.checkRequest(ref, contractRequest()), timeout]);
    } catch (err) {
      return { problems: [], gaveUp: `the checker failed: ${err instanceof Error ? err.message : String(err)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * An answer the mock makes itself: RFC 9457 problem JSON, or for a SOAP mock a SOAP fault of
   * its binding's version (a SOAP client reads a fault, not JSON), Parley's code in its detail.
   */
  ownReply(status: number, code: MockErrorCode, title: string, detail: string, extra: Record<string, unknown> = {}): ProblemReply {
    if (this.soap) return this.soap.ownFault(status, code, `${title}: ${detail}`);
    return problemReply(status, code, title, detail, extra);
  }

  private isCandidate(response: MockResponse): boolean {
    const only = response.scenario?.onlyInState;
    return !only || this.deps.state.scenario(response.scenario!.name) === only;
  }

  /** The response dispatch chooses, or a problem reply when the script failed or none exists. */
  private pick(op: MockOperation, values: RequestValues, notes: string[]): Maybe<{ response: MockResponse } | ProblemReply> {
    if (op.responses.length === 0) {
      return this.ownReply(500, 'mock-no-response', 'No response', `Operation ${op.name} has no responses to send.`, { operation: op.name });
    }
    const candidates = this.gated.has(op) ? op.responses.filter((r) => this.isCandidate(r)) : op.responses;
    let chosen: MockResponse | undefined;
    if (candidates.length > 0) {
      switch (op.dispatch) {
        case 'in-order':
          chosen = candidates[this.deps.state.takeTurn(op.id, candidates.length)];
          break;
        case 'random':
          chosen = candidates[Math.min(candidates.length - 1, Math.floor(this.deps.random() * candidates.length))];
          break;
        case 'match': {
          const found = firstMatching(candidates, values, this.deps.regexRunner);
          if (found instanceof Promise) return found.then((response) => this.orDefault(op, response));
          chosen = found;
          break;
        }
        case 'script':
          return this.runScript(op, candidates, values, notes).then((scripted) => ('status' in scripted ? scripted : this.orDefault(op, scripted.response)));
      }
    }
    return this.orDefault(op, chosen);
  }

  /** SPEC rule 2: when no response is picked, the operation's Default response is sent. */
  private orDefault(op: MockOperation, chosen: MockResponse | undefined): { response: MockResponse } {
    return { response: chosen ?? op.responses.find((r) => r.name === op.defaultResponse) ?? (op.responses[0] as MockResponse) };
  }

  private async runScript(op: MockOperation, candidates: MockResponse[], values: RequestValues, notes: string[]): Promise<{ response?: MockResponse } | ProblemReply> {
    if (op.script === undefined) {
      notes.push(`Operation ${op.name} dispatches by script but has no dispatch.ts; the default response was sent.`);
      return {};
    }
    const r = values.request;
    const outcome = await this.deps.sandbox().run(op.script, {
      request: {
        operation: op.name,
        method: r.method,
        path: r.path,
        query: r.query,
        headers: r.headers.map(([name, value]) => ({ name, value })),
        pathParams: r.pathParams,
        body: values.bodyText(),
      },
      responses: candidates.map((c) => ({ id: c.id, name: c.name })),
      scenarios: this.deps.state.scenarioStates(),
    });
    notes.push(...outcome.logs.map((line) => `log: ${line}`));
    if (outcome.error) {
      notes.push(outcome.error.reason);
      const title = outcome.error.code === 'mock-script-timeout' ? 'Dispatch script timed out' : 'Dispatch script failed';
      return this.ownReply(500, outcome.error.code, title, `The dispatch script of ${op.name} did not pick a response; the mock log says why.`, { operation: op.name });
    }
    // Checked again here: scripts of requests run at once each saw the scenarios as they were.
    const refused = this.deps.state.setScenarios(outcome.scenarioChanges);
    if (refused) {
      notes.push(`The dispatch script's scenarios were not set: ${refused}`);
      return this.ownReply(500, 'mock-script-failed', 'Dispatch script failed', `The dispatch script of ${op.name} did not pick a response; the mock log says why.`, { operation: op.name });
    }
    return { response: candidates.find((c) => c.name === outcome.picked) };
  }
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

function plain(reply: ProblemReply): EngineReply {
  return { ...reply, delayMs: 0, operation: '', responseName: '', problems: [], notes: [] };
}

export function parseQuery(search: string): Record<string, string[]> {
  const query: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (search === '') return query;
  for (const [name, value] of new URLSearchParams(search)) (query[name] ??= []).push(value);
  return query;
}
