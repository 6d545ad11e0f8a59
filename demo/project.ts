/**
 * Makes the demo project in the user's data folder (never in the repo, so trying things out
 * leaves the checkout clean) and points its API at the running demo server.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from '../protocol/model/request.js';
import { defaultSettings, emptyBody } from '../protocol/model/request.js';
import { ProjectStore } from '../processes/supervisor/store/project-store.js';
import { DEFINITION_DIR } from '../protocol/project/layout.js';
import { repoRoot } from '../processes/supervisor/paths.js';

const API_NAME = 'Pet Store';

export function demoDocumentPath(): string {
  return join(repoRoot(), 'demo', 'openapi.yaml');
}

export async function ensureDemoProject(dir: string, baseUrl: string): Promise<void> {
  const store = await ProjectStore.open(dir, { create: true, name: 'Demo' });
  try {
    const existing = store.listApis().find((a) => a.name === API_NAME);
    if (existing) {
      // The demo server may have a new port this run: follow it while the URL is still ours.
      if (existing.baseUrl !== baseUrl && /^http:\/\/127\.0\.0\.1:\d+$/.test(existing.baseUrl)) await store.saveApi({ ...existing, baseUrl });
      return;
    }
    const document = await readFile(demoDocumentPath(), 'utf8');
    const fingerprint = createHash('sha256').update(document).digest('hex');
    const api = await store.createApi({
      name: API_NAME,
      baseUrl,
      api: {
        definition: { format: 'openapi-3.1', cached: [`${DEFINITION_DIR}/openapi.yaml`], fingerprint, apiVersion: '1.2.0' },
        generated: { baseUrl: 'http://127.0.0.1:4010', auth: { type: 'none' }, apiVersion: '1.2.0' },
      },
    });
    const apiDir = store.apiDir(api.id);
    const requests: [string, Request][] = [
      ['pets', demoRequest('List pets', 'GET', '/pets', 'get', '/pets', { query: [{ name: 'limit', value: '20', enabled: true }, { name: 'tag', value: '', enabled: false }] })],
      ['pets', demoRequest('Get a pet', 'GET', '/pets/{petId}', 'get', '/pets/{petId}', { pathParams: [{ name: 'petId', value: '1' }] })],
      [
        'pets',
        demoRequest('Create a pet', 'POST', '/pets', 'post', '/pets', {
          headers: [{ name: 'Content-Type', value: 'application/json', enabled: true }],
          body: { ...emptyBody(), kind: 'raw', raw: { language: 'json', text: '{\n  "name": "Biscuit",\n  "tag": "dog"\n}' } },
        }),
      ],
      ['pets', demoRequest('Delete a pet', 'DELETE', '/pets/{petId}', 'delete', '/pets/{petId}', { pathParams: [{ name: 'petId', value: '3' }] })],
      ['store', demoRequest('Inventory counts', 'GET', '/store/inventory', 'get', '/store/inventory', {})],
    ];
    const reserved = store.nameClaims();
    await store.commit([
      { path: join(apiDir, DEFINITION_DIR, 'openapi.yaml'), content: document },
      ...requests.map(([folder, request]) => store.newRequestChange(api.id, folder, request, reserved)),
    ]);
  } finally {
    await store.close();
  }
}

let counter = 0;
function demoRequest(name: string, method: string, url: string, opMethod: string, opPath: string, extra: Partial<Request>): Request {
  counter++;
  return {
    version: 1,
    id: `r_demo${counter}_${createHash('sha1').update(name).digest('hex').slice(0, 8)}`,
    name,
    method,
    url,
    pathParams: [],
    query: [],
    headers: [{ name: 'Accept', value: 'application/json', enabled: true }],
    body: emptyBody(),
    auth: { type: 'inherit' },
    settings: defaultSettings(),
    operation: { method: opMethod, path: opPath },
    ...extra,
    ...(extra.headers ? { headers: [{ name: 'Accept', value: 'application/json', enabled: true }, ...extra.headers] } : {}),
  };
}

export const demoDir = (dataDir: string) => join(dataDir, 'demo-project');
