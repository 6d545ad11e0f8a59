/**
 * What the UI (and the CLI) may ask of the supervisor. Thin: each handler finds the project
 * store or child that does the work and tells every UI what changed.
 */
import { readFileSync } from 'node:fs';
import type { Handlers } from '../../protocol/peer.js';
import { repoRoot } from './paths.js';
import type { Supervisor } from './supervisor.js';
import { join } from 'node:path';

let version: string | null = null;
export function appVersion(): string {
  version ??= (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

export function uiHandlers(sup: Supervisor): Handlers {
  return {
    'app.info': () => ({
      version: appVersion(),
      workspaceDir: sup.dataDir,
      projects: sup.openProjects().map((p) => p.root),
      electron: sup.electron,
    }),
    'app.ping': ({ t }) => ({ t }),

    'workspace.get': () => sup.workspace.get(),
    'workspace.setPreferences': async (prefs) => {
      const ws = await sup.workspace.update((draft) => {
        draft.preferences = { ...draft.preferences, ...prefs };
      });
      sup.broadcast('workspace.changed', ws);
      return ws.preferences;
    },

    'project.open': async ({ path }) => (await sup.openProject(path)).tree(),
    'project.close': async ({ project }) => {
      await sup.closeProject(project);
      return {};
    },
    'project.tree': ({ project }) => sup.project(project).tree(),
    'project.setProperties': async ({ project, properties }) => {
      const store = sup.project(project);
      await store.setProperties(properties);
      sup.projectChanged(store, ['project']);
      return store.tree();
    },

    'api.get': ({ project, id }) => sup.project(project).getApi(id),
    'api.create': async ({ project, name, baseUrl }) => {
      const store = sup.project(project);
      const api = await store.createApi({ name, baseUrl });
      sup.projectChanged(store, [api.id]);
      return api;
    },
    'api.save': async ({ project, api }) => {
      const store = sup.project(project);
      const saved = await store.saveApi(api);
      sup.projectChanged(store, [api.id]);
      return saved;
    },

    'request.get': ({ project, id }) => sup.project(project).getRequest(id),
    'request.create': async ({ project, ...input }) => {
      const store = sup.project(project);
      const request = await store.createRequest(input);
      sup.projectChanged(store, [request.id]);
      return request;
    },
    'request.save': async ({ project, request }) => {
      const store = sup.project(project);
      const saved = await store.saveRequest(request);
      sup.projectChanged(store, [request.id]);
      return saved;
    },
    'request.delete': async ({ project, id }) => {
      const store = sup.project(project);
      await store.deleteRequest(id);
      sup.projectChanged(store, [id]);
      return {};
    },
  };
}
