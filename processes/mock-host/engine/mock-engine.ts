/**
 * One request through a mock, without sockets: route it to an operation, check it against the
 * contract, pick a response (In order, At random, By match conditions, By script), honour
 * scenarios, and render the response. The HTTP side lives in mock-server.ts.
 */
import type { Mock, MockOperation, MockProblem, MockResponse } from '../../../protocol/model/mock.js';
import { Router } from './router.js';
import { RequestValues, type MockRequest } from './request-values.js';
import { allConditionsHold } from './match-conditions.js';
import { renderResponse } from './render-response.js';
import { problemReply, type ProblemReply } from './problem-reply.js';
import type { MockState } from './mock-state.js';
import type { ScriptSandbox } from './script-sandbox.js';
import type { CheckOutcome, ContractChecker } from './contract.js';

export interface IncomingRequest {
  method: string;
  /** Path and query as sent (origin form). */
  target: string;
  headers: Array<[string, string]>;
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
}

export interface EngineDeps {
  state: MockState;
  sandbox: () => ScriptSandbox;
  random: () => number;
  checker?: ContractChecker;
  /** The whole contract check, lookup included, is held to this (SPEC: 1000 ms). */
  checkTimeoutMs: number;
}

export class MockEngine {
  private readonly router: Router<MockOperation>;
  private readonly prefix: string;

  constructor(
    readonly mock: Mock,
    private readonly deps: EngineDeps,
  ) {
    this.router = new Router(mock.operations.map((op) => ({ method: op.method, path: op.path, target: op })));
    this.prefix = mock.path.replace(/\/+$/, '');
  }

  async handle(incoming: IncomingRequest): Promise<EngineReply> {
    const q = incoming.target.indexOf('?');
    const fullPath = q < 0 ? incoming.target : incoming.target.slice(0, q);
    const path = this.stripPrefix(fullPath);
    const route = path === undefined ? undefined : this.router.match(incoming.method, path);
    if (!route || path === undefined) {
      return plain(
        problemReply(404, 'mock-no-route', 'No such operation', `This mock has no operation for ${incoming.method} ${fullPath}.`, { method: incoming.method, path: fullPath }),
      );
    }
    const op = route.target;
    const request: MockRequest = {
      method: incoming.method,
      target: incoming.target,
      path,
      query: parseQuery(q < 0 ? '' : incoming.target.slice(q + 1)),
      headers: incoming.headers,
      pathParams: route.params,
      body: incoming.body,
    };
    const values = new RequestValues(request);
    const notes: string[] = [];
    const context = { operation: op.name, problems: [] as MockProblem[], notes };

    if (this.mock.contractCheck !== 'off') {
      const outcome = await this.checkRequest(op, request, values);
      context.problems = outcome.problems;
      if (outcome.gaveUp) notes.push(`The contract check gave up (${outcome.gaveUp}); the request counts as not checked.`);
      if (this.mock.contractCheck === 'refuse' && outcome.problems.length > 0) {
        return {
          ...problemReply(400, 'mock-contract-refused', 'Request breaks the contract', `The request does not match operation ${op.method} ${op.path}.`, {
            operation: op.name,
            problems: outcome.problems,
          }),
          ...context,
          responseName: '',
          delayMs: 0,
        };
      }
    }

    const picked = await this.pick(op, values, notes);
    if ('status' in picked) return { ...picked, ...context, responseName: '', delayMs: 0 };
    const response = picked.response;
    const rendered = renderResponse(response, values);
    // Expressions that could not be evaluated, by match conditions or template values.
    notes.push(...values.notes);
    if (!rendered.ok) {
      notes.push(rendered.reason);
      return {
        ...problemReply(500, 'mock-template-refused', 'Template refused', `Response ${response.name} of ${op.name} would send a header that cannot be valid (${rendered.header}); nothing was sent for it.`, {
          operation: op.name,
          response: response.name,
          header: rendered.header,
        }),
        ...context,
        responseName: response.name,
        delayMs: 0,
      };
    }
    const reply: EngineReply = { ...rendered.response, ...context, responseName: response.name, delayMs: response.delayMs };
    const scenario = response.scenario;
    if (scenario?.thenMoveTo && this.isCandidate(response)) {
      const to = scenario.thenMoveTo;
      reply.commit = () => this.deps.state.setScenario(scenario.name, to);
    }
    return reply;
  }

  /** The path inside the mock, or undefined when the request is not under the mock's Path. */
  private stripPrefix(path: string): string | undefined {
    if (this.prefix === '') return path;
    if (path === this.prefix) return '/';
    return path.startsWith(`${this.prefix}/`) ? path.slice(this.prefix.length) : undefined;
  }

  private async checkRequest(op: MockOperation, request: MockRequest, values: RequestValues): Promise<CheckOutcome> {
    const checker = this.deps.checker;
    if (!checker) return { problems: [], gaveUp: 'no contract checker is available' };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ problems: [], gaveUp: `it took longer than ${this.deps.checkTimeoutMs} ms` }), this.deps.checkTimeoutMs);
    });
    try {
      return await Promise.race([
        checker.checkRequest(
          { method: op.method, path: op.path },
          {
            method: request.method,
            path: request.path,
            pathParams: request.pathParams,
            query: request.query,
            headers: request.headers,
            contentType: values.header('content-type') ?? '',
            body: values.bodyText(),
          },
        ),
        timeout,
      ]);
    } catch (err) {
      return { problems: [], gaveUp: `the checker failed: ${err instanceof Error ? err.message : String(err)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  private isCandidate(response: MockResponse): boolean {
    const only = response.scenario?.onlyInState;
    return !only || this.deps.state.scenario(response.scenario!.name) === only;
  }

  /** The response dispatch chooses, or a problem reply when the script failed or none exists. */
  private async pick(op: MockOperation, values: RequestValues, notes: string[]): Promise<{ response: MockResponse } | ProblemReply> {
    if (op.responses.length === 0) {
      return problemReply(500, 'mock-no-response', 'No response', `Operation ${op.name} has no responses to send.`, { operation: op.name });
    }
    const candidates = op.responses.filter((r) => this.isCandidate(r));
    let chosen: MockResponse | undefined;
    if (candidates.length > 0) {
      switch (op.dispatch) {
        case 'in-order':
          chosen = candidates[this.deps.state.takeTurn(op.id, candidates.length)];
          break;
        case 'random':
          chosen = candidates[Math.min(candidates.length - 1, Math.floor(this.deps.random() * candidates.length))];
          break;
        case 'match':
          chosen = candidates.find((r) => allConditionsHold(r.match, values));
          break;
        case 'script': {
          const scripted = await this.runScript(op, candidates, values, notes);
          if ('status' in scripted) return scripted;
          chosen = scripted.response;
          break;
        }
      }
    }
    // SPEC rule 2: when no response is picked, the operation's Default response is sent.
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
      return problemReply(500, outcome.error.code, title, `The dispatch script of ${op.name} did not pick a response; the mock log says why.`, { operation: op.name });
    }
    for (const [name, state] of outcome.scenarioChanges) this.deps.state.setScenario(name, state);
    return { response: candidates.find((c) => c.name === outcome.picked) };
  }
}

function plain(reply: ProblemReply): EngineReply {
  return { ...reply, delayMs: 0, operation: '', responseName: '', problems: [], notes: [] };
}

export function parseQuery(search: string): Record<string, string[]> {
  const query: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (search === '') return query;
  for (const [name, value] of new URLSearchParams(search)) (query[name] ??= []).push(value);
  return query;
}
