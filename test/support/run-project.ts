/** Projects for `parley run` tests, written through the real stores: an API with a cached OpenAPI definition, requests with assertions. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Assertion } from '../../protocol/model/assertion.js';
import { blankRequest, type Request } from '../../protocol/model/request.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { WorkspaceStore } from '../../processes/supervisor/store/workspace-store.js';
import type { Row } from '../../protocol/model/common.js';

export interface RequestSpec {
  folder?: string;
  name: string;
  method?: string;
  url: string;
  assertions?: Assertion[];
  edit?: (request: Request) => void;
}

export const assertion = (fields: Partial<Assertion>): Assertion => ({ enabled: true, source: 'body', path: '', op: 'equals', value: '', ...fields });

/** A project with one API per entry of `apis`, each with its requests (and an OpenAPI document when given). */
export async function writeRunProject(dir: string, apis: { name: string; baseUrl: string; definition?: object; requests: RequestSpec[] }[], properties: Row[] = []): Promise<void> {
  const store = await ProjectStore.open(dir, { create: true, name: 'Run test' });
  if (properties.length > 0) await store.setProperties(properties);
  let n = 0;
  for (const spec of apis) {
    const api = await store.createApi({
      name: spec.name,
      baseUrl: spec.baseUrl,
      ...(spec.definition ? { api: { definition: { format: 'openapi-3.0', cached: ['definition/openapi.json'], fingerprint: `fp-${spec.name}` } } } : {}),
    });
    if (spec.definition) {
      await mkdir(join(store.apiDir(api.id), 'definition'), { recursive: true });
      await writeFile(join(store.apiDir(api.id), 'definition', 'openapi.json'), JSON.stringify(spec.definition));
    }
    const claims = store.nameClaims();
    const changes = spec.requests.map((r) => {
      const request = blankRequest({ id: `req_${++n}`, name: r.name, method: r.method ?? 'GET', url: r.url });
      if (r.assertions) request.assertions = r.assertions;
      r.edit?.(request);
      return store.newRequestChange(api.id, r.folder ?? '', request, claims);
    });
    await store.commit(changes);
  }
  await store.close();
}

/** Adds environments to the workspace in `home` (the first is made active when `active`). */
export async function writeEnvironments(home: string, environments: { name: string; variables: Row[] }[], active?: string): Promise<void> {
  const ws = await WorkspaceStore.open(home);
  await ws.update((draft) => {
    environments.forEach((e, i) => draft.environments.push({ id: `env_${i}`, name: e.name, variables: e.variables }));
    if (active) draft.activeEnvironment = `env_${environments.findIndex((e) => e.name === active)}`;
  });
  await ws.settled();
}

export const row = (name: string, value: string): Row => ({ name, value, enabled: true });
