/**
 * New Mock from an imported REST API: one operation per contract operation, each with one
 * response named Default (SPEC: the lowest documented 2xx with its example, or a sample of its
 * schema; for a binary media type such as image/png, a real smallest file of that type, since a
 * schema sample of `format: binary` is the text `string`). Pure: ids come from `newId`.
 */
import { sampleSchema } from '../../../protocol/schema-sample.js';
import { isBinaryMediaType, sampleBody } from '../../../protocol/binary-media.js';
import { XMLBuilder } from 'fast-xml-parser';
import { fileNameKey, portableFileName } from '../../../protocol/project/file-names.js';
import { DEFAULT_RESPONSE, mockVersionOf, type Mock, type MockBodyKind, type MockOperation, type MockResponse } from '../../../protocol/model/mock.js';
import type { MockDocuments } from '../../../protocol/model/verdict.js';
import { deref, type OpenApiDocument } from './definition-bundle.js';
import { isJsonMediaType, loadSampledContract, openApiDefinition, type SampledContract, type ContractOperation } from './contract.js';

export interface NewMockOptions {
  name: string;
  /** Id of the API whose definition is the contract. */
  api: string;
  newId: () => string;
}

/** New Mock straight from an API's cached documents (an OpenAPI definition's; a WSDL's is refused: New SOAP Mock takes those). */
export async function newMockFromDocuments(documents: MockDocuments, options: NewMockOptions): Promise<Mock> {
  return newMockFromContract(await loadSampledContract(openApiDefinition(documents)), options);
}

export function newMockFromContract(contract: SampledContract, options: NewMockOptions): Mock {
  const taken = new Set<string>();
  const operations = contract.operations.map((op) => newOperation(contract.bundle, op, uniqueName(operationName(op), taken), options.newId));
  return {
    // A binary Default (image/png) needs version 3 of the mock files.
    version: mockVersionOf({ operations }),
    id: options.newId(),
    name: options.name,
    kind: 'rest',
    api: options.api,
    port: 0,
    path: '/',
    contractCheck: 'log',
    operations,
  };
}

/** operationId when there is one, else method and path, as a portable folder name. */
export function operationName(op: Pick<ContractOperation, 'method' | 'path' | 'operationId'>): string {
  const raw = op.operationId?.trim() || `${op.method.toLowerCase()} ${op.path}`;
  const safe = raw
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  // Still a folder name: an operationId `aux` or `con` names a device on Windows.
  return portableFileName(safe || op.method.toLowerCase());
}

// Case-insensitive, since folders differing only by case collide on macOS and Windows.
function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(fileNameKey(name)); n++) name = `${base}-${n}`;
  taken.add(fileNameKey(name));
  return name;
}

function newOperation(doc: OpenApiDocument, op: ContractOperation, name: string, newId: () => string): MockOperation {
  const result: MockOperation = {
    id: newId(),
    name,
    method: op.method,
    path: op.path,
    dispatch: 'in-order',
    defaultResponse: DEFAULT_RESPONSE,
    responses: [defaultResponse(doc, op, newId())],
  };
  if (op.operationId) result.operationId = op.operationId;
  return result;
}

/** The response key a new Default answers with, and the status it sends. */
export function pickDefaultStatus(keys: string[]): { key: string; status: number } | undefined {
  const twoHundreds = keys.filter((k) => /^2\d\d$/.test(k)).sort();
  if (twoHundreds[0]) return { key: twoHundreds[0], status: Number(twoHundreds[0]) };
  const range = keys.find((k) => k.toUpperCase() === '2XX');
  if (range) return { key: range, status: 200 };
  if (keys.includes('default')) return { key: 'default', status: 200 };
  const lowest = keys.filter((k) => /^\d{3}$/.test(k)).sort()[0];
  return lowest ? { key: lowest, status: Number(lowest) } : undefined;
}

function defaultResponse(doc: OpenApiDocument, op: ContractOperation, id: string): MockResponse {
  const response: MockResponse = {
    id,
    name: DEFAULT_RESPONSE,
    status: 200,
    delayMs: 0,
    headers: [],
    body: { kind: 'none', text: '' },
    values: {},
    match: [],
  };
  const operation = deref(doc, deref(doc, (doc.paths as Record<string, unknown>)[op.path])?.[op.method.toLowerCase()]);
  const responses = (operation?.responses ?? {}) as Record<string, unknown>;
  const picked = pickDefaultStatus(Object.keys(responses));
  if (!picked) return response;
  response.status = picked.status;
  const content = (deref(doc, responses[picked.key])?.content ?? {}) as Record<string, unknown>;
  const mediaType = pickMediaType(Object.keys(content));
  if (!mediaType) return response;
  const media = deref(doc, content[mediaType]) ?? {};
  const contentType = concreteContentType(mediaType);
  const kind = bodyKindOf(contentType);
  response.headers.push({ name: 'Content-Type', value: contentType });
  // An example of a binary type is a string standing for the bytes, not the bytes: never sent as them.
  response.body = kind === 'binary' ? { kind, text: sampleBody(contentType) ?? '' } : { kind, text: bodyText(kind, exampleOf(doc, media), media.schema, doc) };
  return response;
}

function pickMediaType(types: string[]): string | undefined {
  return types.find(isJsonMediaType) ?? types.find((t) => /xml/i.test(t)) ?? types.find((t) => /^text\//i.test(t)) ?? types[0];
}

function bodyKindOf(mediaType: string): Exclude<MockBodyKind, 'none'> {
  if (isJsonMediaType(mediaType)) return 'json';
  if (/[/+]xml\b/i.test(mediaType)) return 'xml';
  return isBinaryMediaType(mediaType) ? 'binary' : 'text';
}

/** A wildcard media type (`image/*`) becomes a common concrete one the wildcard allows. */
const CONCRETE_FOR: Record<string, string> = {
  text: 'text/plain',
  application: 'application/octet-stream',
  image: 'image/png',
  audio: 'audio/mpeg',
  video: 'video/mp4',
};

function concreteContentType(mediaType: string): string {
  if (!mediaType.includes('*')) return mediaType;
  if (isJsonMediaType(mediaType)) return 'application/json';
  if (/[/+]xml\b/i.test(mediaType)) return 'application/xml';
  const type = mediaType.split('/')[0]!.trim().toLowerCase();
  return CONCRETE_FOR[type] ?? 'text/plain';
}

/** The media type's example, else its first named example, else the schema's; undefined when none. */
function exampleOf(doc: OpenApiDocument, media: Record<string, unknown>): { value: unknown } | undefined {
  if (media.example !== undefined) return { value: media.example };
  for (const raw of Object.values((media.examples ?? {}) as Record<string, unknown>)) {
    const example = deref(doc, raw);
    if (example && example.value !== undefined) return { value: example.value };
  }
  const schema = deref(doc, media.schema);
  if (schema?.example !== undefined) return { value: schema.example };
  if (Array.isArray(schema?.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  return undefined;
}

function bodyText(kind: Exclude<MockBodyKind, 'none' | 'binary'>, example: { value: unknown } | undefined, schema: unknown, doc: OpenApiDocument): string {
  let value: unknown;
  if (example) value = example.value;
  else if (schema && typeof schema === 'object') {
    try {
      value = sampleSchema(schema, doc, { skip: 'writeOnly' });
    } catch {
      value = undefined;
    }
  }
  if (value === undefined) return '';
  if (kind === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (typeof value === 'string') return value;
  if (kind === 'xml') {
    const root = (deref(doc, schema)?.xml as { name?: string } | undefined)?.name ?? 'root';
    return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLBuilder({ format: true }).build({ [root]: value }) as string}`;
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

