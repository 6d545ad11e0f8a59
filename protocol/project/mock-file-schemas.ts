/**
 * The keys each YAML file of a mock folder may hold (docs/mock-files.md). In a module of their own
 * so that layout.ts registers the mock file kinds beside the other project files' kinds, and
 * mock-files.ts reads and writes them through yaml-file.ts like the others.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Id } from '../model/common.js';
import { ContractCheckMode, DispatchMode, MatchCondition, MockBodyKind, MockHeader, ScenarioSettings, ValueSource } from '../model/mock.js';

// Unknown keys are refused so a typo is reported.
const FileVersion = T.Integer({ minimum: 1 });

export const MockYaml = T.Object(
  {
    version: FileVersion,
    id: Id,
    kind: T.Optional(T.Union([T.Literal('rest'), T.Literal('soap')])),
    /** SOAP: the WSDL binding mocked. */
    binding: T.Optional(T.String({ minLength: 1 })),
    api: T.String(),
    port: T.Optional(T.Integer({ minimum: 0, maximum: 65535 })),
    path: T.Optional(T.String({ pattern: '^/' })),
    contractCheck: T.Optional(ContractCheckMode),
  },
  { additionalProperties: false },
);
export type MockYaml = Static<typeof MockYaml>;

export const OperationYaml = T.Object(
  {
    version: FileVersion,
    id: Id,
    method: T.String({ minLength: 1 }),
    path: T.String({ minLength: 1 }),
    operationId: T.Optional(T.String()),
    dispatch: T.Optional(DispatchMode),
    default: T.Optional(T.String({ minLength: 1 })),
    responses: T.Optional(T.Array(T.String({ minLength: 1 }))),
  },
  { additionalProperties: false },
);
export type OperationYaml = Static<typeof OperationYaml>;

export const ResponseYaml = T.Object(
  {
    version: FileVersion,
    id: Id,
    name: T.String({ minLength: 1 }),
    status: T.Optional(T.Integer({ minimum: 100, maximum: 599 })),
    delay: T.Optional(T.Integer({ minimum: 0, maximum: 600_000 })),
    body: MockBodyKind,
    headers: T.Optional(T.Array(MockHeader)),
    values: T.Optional(T.Record(T.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' }), ValueSource)),
    scenario: T.Optional(ScenarioSettings),
    match: T.Optional(T.Array(MatchCondition)),
  },
  { additionalProperties: false },
);
export type ResponseYaml = Static<typeof ResponseYaml>;
