/**
 * Recorded examples (SPEC "REST request": examples; "Limits"): up to 5 per request, one per status
 * code, each with its status, name, recorded date, headers and body (cut at 256 KB), kept in the
 * project beside the request file (docs/examples.md).
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Header } from './exchange.js';

export const EXAMPLE_LIMIT = 5;
/** 256 KB: a saved example's body is cut here. */
export const EXAMPLE_BODY_LIMIT = 256 * 1024;

export const Example = T.Object({
  status: T.Integer({ minimum: 100, maximum: 999 }),
  statusText: T.String(),
  name: T.String(),
  /** ISO 8601. */
  recordedAt: T.String(),
  headers: T.Array(Header),
  body: T.Uint8Array(),
  /** The size of the body as it was received, before any cut. */
  size: T.Integer({ minimum: 0 }),
  /** The body was longer than EXAMPLE_BODY_LIMIT and was cut there. */
  truncated: T.Boolean(),
  /** Credential values were masked (SPEC "Credentials in imported captures", rule 2). */
  masked: T.Boolean(),
});
export type Example = Static<typeof Example>;

/** A response to keep as an example: what the UI holds of a live response (the body may already be cut past the limit). */
export const ExampleSource = T.Object({
  status: T.Integer({ minimum: 100, maximum: 999 }),
  statusText: T.String(),
  headers: T.Array(Header),
  body: T.Uint8Array(),
  size: T.Integer({ minimum: 0 }),
});
export type ExampleSource = Static<typeof ExampleSource>;

/** `<status>.example.yaml`: the example without its body, which sits in the file `body` names. */
export const ExampleFile = T.Object({
  version: T.Literal(1),
  status: T.Integer({ minimum: 100, maximum: 999 }),
  statusText: T.String(),
  name: T.String(),
  recordedAt: T.String(),
  headers: T.Array(T.Object({ name: T.String(), value: T.String() })),
  /** The body file beside this one (`200.body.json`); absent when the body is empty. */
  body: T.Optional(T.String()),
  size: T.Integer({ minimum: 0 }),
  truncated: T.Optional(T.Boolean()),
  masked: T.Optional(T.Boolean()),
});
export type ExampleFile = Static<typeof ExampleFile>;
