/**
 * A real GraphQL server on 127.0.0.1 for tests: graphql-js's schema served by graphql-http (GraphQL
 * over HTTP, POST and GET) and graphql-ws (subscriptions over WebSocket) on one port, plus the
 * hostile answers the bad-input tests need.
 *
 *   /graphql                 the schema below (Authorization must be `Bearer ${GRAPHQL_TOKEN}` when `auth` is set)
 *   /graphql (WebSocket)     graphql-ws: subscription `ticks(count, every)` counts up (the same sign-in when `auth` is set)
 *   /huge-introspection      an introspection answer of `hugeBytes` bytes (JSON padding in a description)
 *   /many-types              a schema of `manyTypes` object types, served by graphql-http
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type * as GraphqlJs from 'graphql';
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';

export const SCHEMA_SDL = `
"A person the service knows."
type User {
  id: ID!
  name: String!
  "Where they live, when known."
  city: String
}

type Query {
  "A greeting."
  hello(name: String = "world"): String!
  user(id: ID!): User
  users(first: Int = 10): [User!]!
}

type Mutation {
  rename(id: ID!, name: String!): User
}

type Subscription {
  "Counts from 1 to count, one number every \`every\` ms."
  ticks(count: Int!, every: Int = 20): Int!
}
`;

export const GRAPHQL_TOKEN = 'graphql-t0ken-value-123';

// graphql-http and graphql-ws load graphql by Node's resolution (its CommonJS main); the schema
// must come from that same copy, not the ES module vitest would pick ("from another module or realm").
const { buildSchema } = createRequire(import.meta.url)('graphql') as typeof GraphqlJs;

const USERS = [
  { id: '1', name: 'Ada', city: 'London' },
  { id: '2', name: 'Grace', city: null },
];

export interface GraphqlServer {
  url: string;
  wsUrl: string;
  /** Every HTTP request's method and path with query, in order. */
  hits: { method: string; url: string; authorization?: string }[];
  /** WebSocket clients connected now. */
  sockets(): number;
  close(): Promise<void>;
}

export interface GraphqlServerOptions {
  auth?: boolean;
  hugeBytes?: number;
  manyTypes?: number;
}

export function testSchema(): GraphQLSchema {
  const schema = buildSchema(SCHEMA_SDL);
  const resolve = (type: string, field: string, fn: GraphQLFieldResolver<unknown, unknown>) => {
    const f = (schema.getType(type) as unknown as { getFields(): Record<string, { resolve?: unknown; subscribe?: unknown }> }).getFields()[field]!;
    if (type === 'Subscription') {
      f.subscribe = fn;
      f.resolve = (value: unknown) => value;
    } else f.resolve = fn;
  };
  resolve('Query', 'hello', (_root, args) => `Hello, ${(args as { name: string }).name}!`);
  resolve('Query', 'user', (_root, args) => USERS.find((u) => u.id === (args as { id: string }).id) ?? null);
  resolve('Query', 'users', (_root, args) => USERS.slice(0, (args as { first: number }).first));
  resolve('Mutation', 'rename', (_root, args) => {
    const { id, name } = args as { id: string; name: string };
    const user = USERS.find((u) => u.id === id);
    return user ? { ...user, name } : null;
  });
  resolve('Subscription', 'ticks', (_root, args) => ticks((args as { count: number }).count, (args as { every: number }).every));
  return schema;
}

async function* ticks(count: number, every: number): AsyncGenerator<number> {
  for (let i = 1; i <= count; i++) {
    await new Promise((resolve) => setTimeout(resolve, every));
    yield i;
  }
}

function manyTypesSchema(n: number): GraphQLSchema {
  const types: string[] = [];
  for (let i = 0; i < n; i++) types.push(`type T${i} { id: ID! name: String next: T${(i + 1) % n} }`);
  return buildSchema(`${types.join('\n')}\ntype Query { first: T0 }`);
}

export async function startGraphqlServer(options: GraphqlServerOptions = {}): Promise<GraphqlServer> {
  const schema = testSchema();
  const handler = createHandler({ schema });
  const many = options.manyTypes ? createHandler({ schema: manyTypesSchema(options.manyTypes) }) : undefined;
  const hits: GraphqlServer['hits'] = [];
  const server: Server = createServer((req, res) => {
    const authorization = req.headers.authorization;
    hits.push({ method: req.method ?? '', url: req.url ?? '', ...(authorization ? { authorization } : {}) });
    const path = (req.url ?? '').split('?')[0];
    if (path === '/graphql') {
      if (options.auth && authorization !== `Bearer ${GRAPHQL_TOKEN}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Sign in first.' }] }));
        return;
      }
      void handler(req, res);
      return;
    }
    if (path === '/many-types' && many) {
      void many(req, res);
      return;
    }
    if (path === '/huge-introspection') {
      hugeIntrospection(res, options.hugeBytes ?? 50 * 1024 * 1024);
      return;
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({
    server,
    path: '/graphql',
    // The handshake asks for the same sign-in as a POST; a refusal sets a cookie and says why in its body.
    verifyClient: ({ req }, done) => {
      if (options.auth && req.headers.authorization !== `Bearer ${GRAPHQL_TOKEN}`) done(false, 401, 'Sign in first.', { 'content-type': 'text/plain', 'set-cookie': 'seen=1; Path=/' });
      else done(true);
    },
  });
  const wsServer = useServer({ schema }, wss);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    hits,
    sockets: () => wss.clients.size,
    close: async () => {
      await wsServer.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `{"data":{"__schema":{"description":"xxxx...` of `bytes` bytes, written in 1 MB pieces as the client reads. */
function hugeIntrospection(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
  const head = '{"data":{"__schema":{"description":"';
  const tail = '"}}}';
  let left = bytes - head.length - tail.length;
  const piece = 'x'.repeat(1024 * 1024);
  res.write(head);
  const more = (): void => {
    while (left > 0) {
      const n = Math.min(left, piece.length);
      left -= n;
      if (!res.write(n === piece.length ? piece : piece.slice(0, n))) {
        res.once('drain', more);
        return;
      }
    }
    res.end(tail);
  };
  more();
}
