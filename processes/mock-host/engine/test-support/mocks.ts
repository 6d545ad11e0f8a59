/** Builders and a bare HTTP client for the engine's tests. */
import { request as httpRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { Mock, MockOperation, MockResponse } from '../../../../protocol/model/mock.js';
import { cachedDocumentUri } from '../../../../protocol/cached-definition-uri.js';
import type { Definition } from '../../../../protocol/model/verdict.js';
import { loadSampledContract, type SampledContract } from '../contract.js';

export const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/mocks');

let ids = 0;
const nextId = () => `t${++ids}`;

export function response(partial: Partial<MockResponse> & { name: string }): MockResponse {
  return {
    id: nextId(),
    status: 200,
    delayMs: 0,
    headers: [],
    body: { kind: 'none', text: '' },
    values: {},
    match: [],
    ...partial,
  };
}

export function json(name: string, body: unknown, partial: Partial<MockResponse> = {}): MockResponse {
  return response({
    name,
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    body: { kind: 'json', text: typeof body === 'string' ? body : JSON.stringify(body) },
    ...partial,
  });
}

export function operation(partial: Partial<MockOperation> & { method: string; path: string; responses: MockResponse[] }): MockOperation {
  return { id: nextId(), name: `${partial.method} ${partial.path}`.replace(/[^A-Za-z0-9]+/g, '-'), dispatch: 'in-order', defaultResponse: 'Default', ...partial };
}

export function mockOf(operations: MockOperation[], partial: Partial<Mock> = {}): Mock {
  return { version: 1, id: 'mock-test', name: 'test', kind: 'rest', api: 'api-test', port: 0, path: '/', contractCheck: 'off', operations, ...partial };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as it came, for a binary one. */
  bytes: Buffer;
  json: () => unknown;
}

/** One request on a fresh connection; `host` overrides the Host header. */
export function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; host?: string; address?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: options.address ?? '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { ...(options.host ? { Host: options.host } : {}), ...options.headers },
        agent: false,
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json: () => JSON.parse(text) as unknown });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Reads contract fixtures (YAML) into the shape the app hands the engine, then loads the contract as the app does. */
export async function loadContractFixture(entry: string, others: string[] = []): Promise<SampledContract> {
  return loadSampledContract((await documentsOf(entry, others)).openapi);
}

/** Contract fixtures (YAML) as a REST mock is handed them: a definition of cached documents, `entry` first. */
export async function documentsOf(entry: string, others: string[] = []): Promise<{ openapi: Definition }> {
  const files: [string, unknown][] = [];
  for (const name of [entry, ...others]) files.push([name, parseYaml(await readFile(join(fixtures, 'contracts', name), 'utf8')) as unknown]);
  return { openapi: cachedDefinition(files) };
}

/** A definition of cached documents by their path in the API folder, entry first, as the supervisor reads one (checks/definitions.ts). */
export function cachedDefinition(files: Iterable<readonly [string, unknown]> | Record<string, unknown>): Definition {
  const entries = Symbol.iterator in files ? [...(files as Iterable<readonly [string, unknown]>)] : Object.entries(files);
  return entries.map(([path, document]) => ({ uri: cachedDocumentUri(path), document }));
}
