/**
 * GraphQL over HTTP (issue 29, docs/graphql.md): a GraphQL body on an HTTP request, and the
 * schema an editor checks it against. graphql-js does the parsing, validation and introspection;
 * this file only says what travels and is saved.
 */
import { Type as T, type Static } from '@sinclair/typebox';

/** A request's GraphQL body: the document, its variables as JSON text (`${...}` expanded at send), the operation to run. */
export const GraphqlBody = T.Object({
  query: T.String(),
  /** JSON text of an object, or empty for none; `${name}` expands before it is parsed. */
  variables: T.String(),
  /** The operation to run when the document holds several; empty: the document's only one. */
  operationName: T.String(),
  /** A `.graphql` SDL file in the project to check the query against instead of introspection; empty: introspect. */
  schemaFile: T.String(),
});
export type GraphqlBody = Static<typeof GraphqlBody>;

export function emptyGraphqlBody(): GraphqlBody {
  return { query: '', variables: '', operationName: '', schemaFile: '' };
}

/** An operation as it travels (GraphQL over HTTP's POST body, graphql-ws's subscribe payload): the variables parsed and expanded. */
export const GraphqlOperation = T.Object({
  query: T.String(),
  variables: T.Optional(T.Record(T.String(), T.Unknown())),
  operationName: T.Optional(T.String()),
});
export type GraphqlOperation = Static<typeof GraphqlOperation>;

/** The Content-Type of a GraphQL POST, and what a GraphQL over HTTP client accepts (the spec's media type first). */
export const GRAPHQL_CONTENT_TYPE = 'application/json';
export const GRAPHQL_ACCEPT = 'application/graphql-response+json, application/json;q=0.9';

/**
 * A schema as the page gets it: the SDL text of the schema (printed from an introspection
 * answer, or a project's `.graphql` file as written), where it came from, and when it was read.
 */
export const GraphqlSchemaAnswer = T.Object({
  /** Absent: no schema yet (never introspected, no file). */
  sdl: T.Optional(T.String()),
  source: T.Union([T.Literal('introspection'), T.Literal('file'), T.Literal('none')]),
  /** The endpoint introspected, or the file read (relative to the project). */
  from: T.String(),
  /** ISO time of the introspection (cached answers keep theirs). */
  at: T.Optional(T.String()),
  types: T.Integer({ minimum: 0 }),
});
export type GraphqlSchemaAnswer = Static<typeof GraphqlSchemaAnswer>;

/** What the checker builds a schema from: a server's introspection answer (JSON bytes) or an SDL file's text. */
export const GraphqlSchemaSource = T.Union([
  T.Object({ kind: T.Literal('introspection'), bytes: T.Uint8Array() }),
  T.Object({ kind: T.Literal('sdl'), text: T.String() }),
]);
export type GraphqlSchemaSource = Static<typeof GraphqlSchemaSource>;

/** The most an introspection answer may be: a schema larger than this is refused (use an SDL file). */
export const MAX_INTROSPECTION_BYTES = 16 * 1024 * 1024;
/** The most types a schema the page is given may hold. */
export const MAX_SCHEMA_TYPES = 20_000;
