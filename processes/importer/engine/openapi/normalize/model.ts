/**
 * One shape for every OpenAPI generation (1.x, 2.0, 3.0-3.2): what the request generator and
 * the definition update need from a document, with `$ref`s already followed. The raw nodes of
 * each operation are kept as "parts" so the update can tell which aspects changed.
 */
import type { ReportItem, UnimportedItem } from '../../../../../protocol/model/import.js';
import type { Sampler } from './sampler.js';

export interface NParam {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** The value the row starts with: example, default or first enum value; '' when none. */
  value: string;
}

export interface NFormField {
  name: string;
  required: boolean;
  value: string;
  /** A file part (multipart only). */
  file: boolean;
  contentType: string;
}

/** Where a schema sits, for the sampler. */
export interface SchemaHandle {
  docUrl: string;
  pointer: string;
  node: unknown;
}

export type NBody =
  /** A body described by a schema and/or examples (JSON, XML, text, form or multipart from a schema, binary). */
  | { kind: 'media'; mediaType: string; example?: { value: unknown }; schema?: SchemaHandle; encoding?: Record<string, { contentType?: string }> }
  /** Swagger 2.0 formData / 1.x form parameters: the fields are the parameters. */
  | { kind: 'fields'; mediaType: string; fields: NFormField[] };

/** One AND-group of a security requirement: every scheme named must be satisfied. */
export type NRequirement = { scheme: string; scopes: string[] }[];

export interface NSecurityScheme {
  name: string;
  /** As written: http, apiKey, oauth2, openIdConnect, mutualTLS, basic (2.0), basicAuth (1.x). */
  type: string;
  /** http scheme (basic, bearer, digest...). */
  httpScheme?: string;
  bearerFormat?: string;
  apiKey?: { name: string; in: string };
  oauth2?: { flows: { flow: string; authorizationUrl: string; tokenUrl: string; scopes: string[] }[] };
  openIdConnectUrl?: string;
  loc: Part;
}

/** A raw node of the document, with where it sits. */
export interface Part {
  docUrl: string;
  pointer: string;
  node: unknown;
}

export interface OperationParts {
  parameters: Part[];
  requestBody: Part[];
  responses: Part[];
  security: Part[];
  servers: Part[];
}

export interface NOperation {
  /** The method key as the document writes it. */
  method: string;
  /** The path as the document writes it (for a callback, its expression; for a webhook, its name). */
  path: string;
  loc: Part;
  summary?: string;
  operationId?: string;
  /** Folder path for the request ('' at the API root). */
  folder: string;
  params: NParam[];
  body?: NBody;
  /** Media types of the success responses, in document order. */
  accept: string[];
  /** The operation's own requirements; undefined inherits the document's. */
  security?: NRequirement[];
  /** An operation- or path-level server that differs from the API's base URL. */
  serverUrl?: string;
  parts: OperationParts;
  /** A root webhook (sent to a receiver the user names), not an operation of the API. */
  webhook?: boolean;
}

export interface NApi {
  declaredVersion: string;
  /** The major.minor generation: '3.1', '2.0', '1.2'. */
  generation: string;
  title?: string;
  apiVersion?: string;
  baseUrl: string;
  security: NRequirement[];
  schemes: NSecurityScheme[];
  operations: NOperation[];
  webhooks: NOperation[];
  unimported: UnimportedItem[];
  warnings: ReportItem[];
  errors: ReportItem[];
  apiParts: { servers: Part[]; security: Part[] };
  sampler: Sampler;
}
