/**
 * `parley run` with GraphQL requests (issue 29 item 4, docs/graphql.md): the built CLI against
 * graphql-js served by graphql-http on 127.0.0.1. A query with `${...}` in its variables as a
 * POST, a query as a GET, each asserted on a data path and on its errors being empty; a query the
 * server refuses fails its errors assertion with the server's message; the reports say so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyGraphqlBody, type GraphqlBody } from '../../protocol/model/graphql.js';
import type { Request } from '../../protocol/model/request.js';
import { runParley } from '../support/processes.js';
import { assertion, row, writeRunProject } from '../support/run-project.js';
import { startGraphqlServer, type GraphqlServer } from '../support/graphql-server.js';

const SLOW = { timeout: 120_000 };

let work: string;
let home: string;
let project: string;
let server: GraphqlServer;

const graphql = (body: Partial<GraphqlBody>) => (r: Request) => void (r.body = { ...r.body, kind: 'graphql', graphql: { ...emptyGraphqlBody(), ...body } });
const noErrors = assertion({ source: 'graphqlErrors', op: 'empty' });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-run-graphql-'));
  home = join(work, 'home');
  project = join(work, 'project');
  server = await startGraphqlServer();
  await writeRunProject(
    project,
    [
      {
        name: 'Graph',
        baseUrl: server.url,
        requests: [
          {
            name: '1 user',
            method: 'POST',
            url: '/graphql',
            edit: graphql({ query: 'query U($id: ID!) { user(id: $id) { name city } }', variables: '{ "id": "${userId}" }' }),
            assertions: [assertion({ path: '$.data.user.name', value: 'Ada' }), assertion({ path: '$.data.user.city', value: 'London' }), noErrors],
          },
          {
            name: '2 hello by GET',
            method: 'GET',
            url: '/graphql',
            edit: graphql({ query: 'query A { users { id } }\nquery Hi { hello(name: "CI") }', operationName: 'Hi' }),
            assertions: [assertion({ path: '$.data.hello', value: 'Hello, CI!' }), noErrors],
          },
          {
            name: '3 refused',
            method: 'POST',
            url: '/graphql',
            edit: graphql({ query: '{\n  user(id: "1") {\n    nope\n  }\n}' }),
            assertions: [noErrors, assertion({ path: '$.errors[0].locations[0].line', value: '3' })],
          },
        ],
      },
    ],
    [row('userId', '1')],
  );
});

afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

interface Outcome {
  request: { name: string; method: string };
  failed: boolean;
  assertions: { label: string; passed: boolean; message: string }[];
}

describe('parley run with GraphQL requests', () => {
  it('sends each GraphQL request and checks its data paths and its errors being empty', SLOW, async () => {
    const run = await runParley(['run', project, '--reporter', 'json'], { home });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { summary: Record<string, unknown>; outcomes: Outcome[] };
    expect(report.summary).toMatchObject({ requests: 3, failed: 1, errors: 0 });
    const [user, hello, refused] = report.outcomes;
    expect(user).toMatchObject({ request: { name: '1 user', method: 'POST' }, failed: false });
    expect(user!.assertions.map((a) => [a.label, a.passed])).toEqual([
      ['$.data.user.name equals Ada', true],
      ['$.data.user.city equals London', true],
      ['GraphQL errors empty', true],
    ]);
    expect(hello).toMatchObject({ request: { name: '2 hello by GET', method: 'GET' }, failed: false });
    expect(hello!.assertions.every((a) => a.passed)).toBe(true);
    expect(refused).toMatchObject({ request: { name: '3 refused' }, failed: true });
    expect(refused!.assertions[0]).toMatchObject({ label: 'GraphQL errors empty', passed: false, message: expect.stringMatching(/^1 GraphQL error, the first: "Cannot query field \\"nope\\" on type \\"User\\"/) });
    expect(refused!.assertions[1]!.passed).toBe(true);
    // The GET carried the chosen operation in its URL, as GraphQL over HTTP says.
    const get = server.hits.find((h) => h.method === 'GET');
    expect(new URL(get!.url, server.url).searchParams.get('operationName')).toBe('Hi');
  });

  it('prints the errors assertion in the console report', SLOW, async () => {
    const run = await runParley(['run', project, '--request', '3 refused'], { home });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/x GraphQL errors empty: 1 GraphQL error, the first: "Cannot query field/);
    expect(run.stdout).toContain('FAILED: 1 request: 0 passed, 1 failed');
  });
});
