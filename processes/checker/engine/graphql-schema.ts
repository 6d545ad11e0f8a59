/**
 * A GraphQL schema made from what a server or a file says (docs/graphql.md), by graphql-js alone:
 * an introspection answer is built with `buildClientSchema`, an SDL file with `buildSchema`, and
 * either is handed on as SDL (`printSchema`), the smallest form the page builds it from again.
 * Runs on the checker's query thread, on its budget: a schema of thousands of types takes a while.
 */
import { buildClientSchema, buildSchema, printSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { MAX_SCHEMA_TYPES } from '../../../protocol/model/graphql.js';

export type SchemaOutcome = { ok: true; sdl: string; types: number } | { ok: false; code: string; message: string };

/** An introspection answer (`{ data: { __schema } }`, or the bare `{ __schema }`) as SDL. */
export function schemaFromIntrospection(bytes: Uint8Array): SchemaOutcome {
  let answer: unknown;
  try {
    answer = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    return { ok: false, code: 'graphql-introspection-failed', message: `The introspection answer is not JSON (${(err as Error).message}).` };
  }
  const record = isObject(answer) ? answer : {};
  const data = isObject(record.data) ? record.data : record;
  if (!isObject(data.__schema)) {
    const errors = Array.isArray(record.errors) ? record.errors : [];
    const first = errors.find(isObject);
    const said = first && typeof first.message === 'string' ? `: ${first.message.slice(0, 300)}` : '';
    return { ok: false, code: 'graphql-introspection-failed', message: `The server gave no schema to introspection${said} (is introspection turned off?).` };
  }
  return described(() => buildClientSchema(data as unknown as IntrospectionQuery), 'The introspection answer is not a schema graphql-js can build');
}

/** An SDL document (a project's `.graphql` file), checked and printed as graphql-js reads it. */
export function schemaFromSdl(text: string): SchemaOutcome {
  return described(() => buildSchema(text), 'The schema file does not read as GraphQL SDL');
}

function described(build: () => GraphQLSchema, what: string): SchemaOutcome {
  let schema: GraphQLSchema;
  try {
    schema = build();
  } catch (err) {
    return { ok: false, code: 'graphql-schema-invalid', message: `${what}: ${(err as Error).message.slice(0, 500)}` };
  }
  const types = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__')).length;
  if (types > MAX_SCHEMA_TYPES) {
    return { ok: false, code: 'graphql-schema-too-large', message: `The schema has ${types.toLocaleString('en-US')} types, more than the ${MAX_SCHEMA_TYPES.toLocaleString('en-US')} Parley checks a query against.` };
  }
  return { ok: true, sdl: printSchema(schema), types };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
