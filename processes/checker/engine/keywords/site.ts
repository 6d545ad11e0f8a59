/** What a keyword factory gets: the schema object it sits in and a way to reach other schemas. */
import type { Dialect, SchemaNode } from '../evaluation.js';

export interface Loc {
  docUri: string;
  pointer: string;
}

export interface CompileHost {
  readonly dialect: Dialect;
  /** The compiled node at a location; memoized, so recursive schemas come back as the same node. */
  nodeAt(loc: Loc): SchemaNode;
  /** Resolves a `$ref` against a base URI, or says why it cannot. */
  resolveRef(ref: string, base: string): Loc | string;
  /** A schema of the definition by name (`components/schemas` or Swagger `definitions`), for discriminators. */
  namedSchema(name: string, fromDocUri: string): Loc | undefined;
  /** The raw schema value at a location. */
  schemaValue(loc: Loc): unknown;
  /** A short human location for notes: file name and pointer. */
  describe(loc: Loc): string;
}

export interface Site {
  readonly host: CompileHost;
  readonly dialect: Dialect;
  readonly node: SchemaNode;
  readonly schema: Record<string, unknown>;
  readonly loc: Loc;
  /** Base URI for `$ref`s here (after any `$id`). */
  readonly base: string;
  /** The compiled subschema under this schema at the given keyword path. */
  child(...segments: (string | number)[]): SchemaNode;
  note(message: string): void;
  error(message: string): void;
}
