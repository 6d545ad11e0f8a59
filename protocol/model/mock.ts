/**
 * The mock model: what a mock folder holds once loaded, what the mock host serves, and what it
 * reports (log entries, findings). The on-disk shape of each file is in protocol/project/mock-files.ts
 * and docs/mock-files.md; this is the in-memory shape both sides of the bus agree on.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Id } from './common.js';

/** Mock files newer than this are refused rather than half-loaded (the mock file kinds in protocol/project/layout.ts). */
export const MOCK_FILES_VERSION = 3;

/** `binary`: the body is bytes (an image, a PDF...), carried in `text` as base64 and written to `<name>.body.bin`. */
export const MockBodyKind = T.Union([T.Literal('json'), T.Literal('xml'), T.Literal('text'), T.Literal('binary'), T.Literal('none')]);
export type MockBodyKind = Static<typeof MockBodyKind>;

/** Where one value is read from a request: by templates and by match conditions alike. */
export const ValueSource = T.Union([
  T.Object(
    {
      from: T.Literal('body'),
      language: T.Union([T.Literal('xpath'), T.Literal('jsonpath')]),
      expression: T.String({ minLength: 1 }),
    },
    { additionalProperties: false },
  ),
  T.Object({ from: T.Literal('header'), name: T.String({ minLength: 1 }) }, { additionalProperties: false }),
  T.Object({ from: T.Literal('query'), name: T.String({ minLength: 1 }) }, { additionalProperties: false }),
  T.Object({ from: T.Literal('path'), name: T.String({ minLength: 1 }) }, { additionalProperties: false }),
]);
export type ValueSource = Static<typeof ValueSource>;

export const MatchCheck = T.Union([T.Literal('equals'), T.Literal('regex'), T.Literal('present'), T.Literal('absent')]);
export type MatchCheck = Static<typeof MatchCheck>;

/** One condition of By match conditions; `value` is the string to equal or the pattern to match. */
export const MatchCondition = T.Object(
  {
    source: ValueSource,
    check: MatchCheck,
    value: T.Optional(T.String()),
  },
  { additionalProperties: false },
);
export type MatchCondition = Static<typeof MatchCondition>;

export const MockHeader = T.Object({ name: T.String(), value: T.String() }, { additionalProperties: false });
export type MockHeader = Static<typeof MockHeader>;

/** Scenario settings of a response: a candidate only in `onlyInState`, then the scenario moves on. */
export const ScenarioSettings = T.Object(
  {
    name: T.String({ minLength: 1 }),
    onlyInState: T.Optional(T.String({ minLength: 1 })),
    thenMoveTo: T.Optional(T.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type ScenarioSettings = Static<typeof ScenarioSettings>;

/** Every scenario starts here, and Reset state / Stop bring it back. */
export const SCENARIO_START = 'Started';

/** The name of the response sent when dispatch picks none. */
export const DEFAULT_RESPONSE = 'Default';

export const MockResponse = T.Object({
  id: Id,
  name: T.String({ minLength: 1 }),
  status: T.Integer({ minimum: 100, maximum: 599 }),
  delayMs: T.Integer({ minimum: 0, maximum: 600_000 }),
  headers: T.Array(MockHeader),
  body: T.Object({ kind: MockBodyKind, text: T.String() }),
  /** Declared request values; a response is a template only when this is not empty. */
  values: T.Record(T.String(), ValueSource),
  scenario: T.Optional(ScenarioSettings),
  match: T.Array(MatchCondition),
});
export type MockResponse = Static<typeof MockResponse>;

export const DispatchMode = T.Union([T.Literal('in-order'), T.Literal('random'), T.Literal('match'), T.Literal('script')]);
export type DispatchMode = Static<typeof DispatchMode>;

export const MockOperation = T.Object({
  id: Id,
  /** Also the operation's folder name under operations/. */
  name: T.String({ minLength: 1 }),
  /** The contract operation it answers, method and path as the document writes them. */
  method: T.String({ minLength: 1 }),
  path: T.String({ minLength: 1 }),
  operationId: T.Optional(T.String()),
  dispatch: DispatchMode,
  /** Name of the response sent when nothing is picked. */
  defaultResponse: T.String({ minLength: 1 }),
  /** In the order In order and By match conditions walk them. */
  responses: T.Array(MockResponse),
  /** dispatch.ts as written (TypeScript); absent when the operation has none. */
  script: T.Optional(T.String()),
});
export type MockOperation = Static<typeof MockOperation>;

export const ContractCheckMode = T.Union([T.Literal('refuse'), T.Literal('log'), T.Literal('off')]);
export type ContractCheckMode = Static<typeof ContractCheckMode>;

/**
 * What a request refused in `refuse` mode gets, as the mock tab and `parley mock --help` say it:
 * a REST mock answers 400 with a problem body; a SOAP mock a SOAP fault, which SOAP 1.1's HTTP
 * binding sends with 500 and SOAP 1.2 (a Sender fault) with 400 (docs/mocks.md, "The refusal").
 */
export const REFUSAL_ANSWER = { rest: '400', soap: 'a SOAP fault: 500, or 400 in SOAP 1.2' } as const;

export const Mock = T.Object({
  /** 3 when any response has a binary body, else 2 when any declares values, else 1 (computed on save, checked on load). */
  version: T.Union([T.Literal(1), T.Literal(2), T.Literal(3)]),
  id: Id,
  /** Also the mock's folder name under mocks/. */
  name: T.String({ minLength: 1 }),
  /** A REST mock routes by method and path; a SOAP mock by action or Body element (docs/mocks-soap.md). */
  kind: T.Union([T.Literal('rest'), T.Literal('soap')]),
  /** SOAP: the WSDL binding the mock answers for (a WSDL may hold several). */
  binding: T.Optional(T.String({ minLength: 1 })),
  /** Id of the API whose cached definition is the contract. */
  api: T.String(),
  /** 0 picks a free port at start and keeps it while the mock is edited. */
  port: T.Integer({ minimum: 0, maximum: 65535 }),
  /** Where the mock is served, e.g. `/` or `/museum`. */
  path: T.String({ pattern: '^/' }),
  contractCheck: ContractCheckMode,
  operations: T.Array(MockOperation),
});
export type Mock = Static<typeof Mock>;

/** What a contract check found wrong with a request or response, without quoting body values. */
export const MockProblem = T.Object({
  in: T.Union([T.Literal('path'), T.Literal('query'), T.Literal('header'), T.Literal('body'), T.Literal('request')]),
  /** JSON Pointer into the body, or the parameter's name. */
  pointer: T.String(),
  message: T.String(),
});
export type MockProblem = Static<typeof MockProblem>;

export const BodyPreview = T.Object({
  text: T.String(),
  /** Bytes of the whole body. */
  size: T.Integer({ minimum: 0 }),
  truncated: T.Boolean(),
});
export type BodyPreview = Static<typeof BodyPreview>;

export const MockLogEntry = T.Object({
  id: T.String(),
  /** ISO 8601, when the request arrived. */
  time: T.String(),
  mock: T.String(),
  method: T.String(),
  /** Path and query as the client sent them. */
  path: T.String(),
  /** Operation and response names; empty when none was found or picked. */
  operation: T.String(),
  responseName: T.String(),
  status: T.Integer(),
  durationMs: T.Number(),
  /** Credential-looking headers are masked. */
  request: T.Object({
    method: T.String(),
    path: T.String(),
    headers: T.Array(MockHeader),
    body: BodyPreview,
  }),
  response: T.Object({ status: T.Integer(), headers: T.Array(MockHeader), body: BodyPreview }),
  problems: T.Array(MockProblem),
  /** Why something went differently (template refused, script failed, check gave up) and script log lines. */
  notes: T.Array(T.String()),
});
export type MockLogEntry = Static<typeof MockLogEntry>;

export const FindingRule = T.Union([
  T.Literal('undocumented-status'),
  T.Literal('undeclared-content-type'),
  T.Literal('body-schema'),
  T.Literal('body-not-json'),
  // A body that is not what its media type says: text for image/png, a PDF for image/png, nothing for a PNG.
  T.Literal('body-media-type'),
  T.Literal('check-gave-up'),
  T.Literal('operation-not-in-contract'),
  // SOAP stubs (rule 9): envelope structure, Content-Type against the SOAP version, reply/fault/one-way status.
  T.Literal('soap-envelope'),
  T.Literal('soap-content-type'),
  T.Literal('soap-status'),
]);
export type FindingRule = Static<typeof FindingRule>;

/** Stubs against the contract: one response the contract does not allow, for the tab and Problems. */
export const MockFinding = T.Object({
  severity: T.Union([T.Literal('error'), T.Literal('warning')]),
  rule: FindingRule,
  mock: T.String(),
  operation: T.String(),
  operationId: T.String(),
  method: T.String(),
  path: T.String(),
  /** Absent for a finding about the whole operation. */
  response: T.Optional(T.String()),
  responseId: T.Optional(T.String()),
  /** JSON Pointer into the body for body-schema findings. */
  pointer: T.Optional(T.String()),
  message: T.String(),
});
export type MockFinding = Static<typeof MockFinding>;

/**
 * Template syntax: `{{name}}`, with optional spaces inside the braces. It lives with the model
 * because a response file's meaning depends on it: load refuses undeclared names, the engine
 * renders them.
 */
export const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

export interface Placeholder {
  name: string;
  start: number;
  end: number;
}

export function findPlaceholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const m of text.matchAll(PLACEHOLDER_PATTERN)) {
    found.push({ name: m[1] as string, start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/**
 * Placeholders of a JSON body that do not sit inside one JSON string literal. Scanned by hand:
 * a JSON parser cannot help, since the template is not JSON until it is rendered.
 */
export function placeholdersOutsideJsonStrings(text: string): Placeholder[] {
  const strings: Array<[number, number]> = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (open >= 0) {
      if (c === '\\') i++;
      else if (c === '"') {
        strings.push([open, i]);
        open = -1;
      }
    } else if (c === '"') open = i;
  }
  if (open >= 0) strings.push([open, text.length]);
  return findPlaceholders(text).filter((p) => !strings.some(([s, e]) => p.start > s && p.end <= e));
}

/** Computes what `version` a mock is saved with: the lowest that holds every feature it uses. */
export function mockVersionOf(mock: Pick<Mock, 'operations'>): 1 | 2 | 3 {
  const responses = mock.operations.flatMap((op) => op.responses);
  if (responses.some((r) => r.body.kind === 'binary')) return 3;
  return responses.some((r) => Object.keys(r.values).length > 0) ? 2 : 1;
}
