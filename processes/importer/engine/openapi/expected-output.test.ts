/**
 * Expected output for a set of real documents, one file per case beside the fixtures
 * (test/fixtures/importers/openapi/expected/<case>.json): the API, its folders and requests,
 * the webhooks and the report, in a readable digest. Run with UPDATE_EXPECTED=1 to rewrite
 * the files after a deliberate change, then review the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Request } from '../../../../protocol/model/request.js';
import { importSource, type HttpImportResult } from '../test-support.js';

const ROOT = 'test/fixtures/importers/openapi';
const CASES: Record<string, string> = {
  'petstore-separate-yaml': 'learn-openapis/v2.0/yaml/petstore-separate/spec/swagger.yaml',
  'uber-json': 'learn-openapis/v2.0/json/uber.json',
  'tictactoe-yaml': 'learn-openapis/v3.1/tictactoe.yaml',
  'tags-3.2': 'learn-openapis/v3.2/3.2-tags-example.yaml',
  'query-3.2': 'learn-openapis/v3.2/3.2-query-example.yaml',
  'museum': 'redocly-museum/openapi.yaml',
  'bruno-comprehensive': 'bruno-fixtures/openapi-comprehensive.yaml',
  'bruno-security-schemes': 'bruno-fixtures/openapi-with-security-schemes.json',
  'swagger-1.2-single-file': 'swagger-1.2/singleFile.json',
  'swagger-1.2-listing': 'swagger-1.2/listing/api-docs',
};

function digestRequest(folder: string, r: Request) {
  const body =
    r.body.kind === 'raw'
      ? { kind: 'raw', language: r.body.raw.language, text: r.body.raw.text }
      : r.body.kind === 'form'
        ? { kind: 'form', rows: r.body.form }
        : r.body.kind === 'multipart'
          ? { kind: 'multipart', parts: r.body.multipart }
          : r.body.kind === 'binary'
            ? { kind: 'binary', contentType: r.body.binary.contentType }
            : { kind: 'none' };
  return { folder, order: r.order, name: r.name, method: r.method, url: r.url, pathParams: r.pathParams, query: r.query, headers: r.headers, body, auth: r.auth, ...(r.operation ? { operation: r.operation } : {}) };
}

function digest(result: HttpImportResult) {
  const [imported] = result.apis;
  const api = imported?.api;
  return {
    api: { name: api?.name, baseUrl: api?.baseUrl, auth: api?.auth, format: api?.definition?.format, apiVersion: api?.definition?.apiVersion, cached: api?.definition?.cached, generated: api?.generated },
    folders: imported?.folders,
    requests: imported?.requests.map((p) => digestRequest(p.folder, p.request)),
    webhooks: result.webhooks ? { folder: result.webhooks.folder, requests: result.webhooks.requests.map((p) => digestRequest(p.folder, p.request)) } : null,
    report: { ...result.report, errors: result.report.errors.map((e) => ({ ...e, message: e.message.replace(process.cwd(), '<repo>') })) },
  };
}

describe('expected import output', () => {
  for (const [name, rel] of Object.entries(CASES)) {
    it(`${name} (${rel})`, async () => {
      const { result } = await importSource({ kind: 'file', path: join(ROOT, rel) });
      const actual = digest(result);
      const file = join(ROOT, 'expected', `${name}.json`);
      if (process.env['UPDATE_EXPECTED'] === '1') {
        mkdirSync(join(ROOT, 'expected'), { recursive: true });
        writeFileSync(file, JSON.stringify(actual, null, 2) + '\n');
      }
      expect(existsSync(file), `${file} is missing: run with UPDATE_EXPECTED=1 and review it`).toBe(true);
      expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    });
  }
});
