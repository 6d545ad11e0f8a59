/**
 * What the UI (and the CLI) may ask of the supervisor. Thin: each handler finds the project
 * store or child that does the work and tells every UI what changed.
 */
import type { Handlers } from '../../protocol/peer.js';
import { appVersion, checkPathLength } from './paths.js';
import type { Supervisor } from './supervisor.js';
import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import { ioTurn } from './store/slicer.js';
import { ParleyError } from '../../protocol/errors.js';
import { graphqlHandlers } from './graphql/handlers.js';
import { sendByKind } from './kinds/index.js';
import { addBodyFile } from './store/body-files.js';
import { moveSecretsToStore } from './send/secure-auth.js';
import { literalSecrets } from '../../protocol/credentials/auth-secrets.js';
import { newId } from '../../protocol/ids.js';
import { inheritedSettings } from '../../protocol/inheritance.js';
import { mockHandlers } from './mocks/mock-handlers.js';
import { bodySchemaHandlers } from './checks/body-schema.js';
import { importHandlers } from './imports/import-handlers.js';
import { historyHandlers } from './history/handlers.js';
import { curlHandlers } from './curl/handlers.js';
import { exampleHandlers } from './examples/handlers.js';
import { cookieUiHandlers } from './cookies/cookie-handlers.js';
import { queryHandlers } from './checks/query.js';
import { httpLogHandlers } from './http-log/handlers.js';
import { grpcUiHandlers } from './kinds/grpc/handlers.js';
import { treeHandlers } from './tree/handlers.js';
import { runHandlers } from './run/handlers.js';
import { exportHandlers } from './export/handlers.js';

/** Tree items per page of `project.open`: about 40 KB, a few ms to encode or decode. */
export const TREE_PAGE_ITEMS = 500;

async function rememberSecrets(sup: Supervisor, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const ws = await sup.workspace.update((draft) => {
    draft.secrets = [...new Set([...draft.secrets, ...names])].sort();
  });
  sup.broadcast('workspace.changed', ws);
}

export function uiHandlers(sup: Supervisor): Handlers {
  return {
    ...mockHandlers(sup),
    ...bodySchemaHandlers(sup),
    ...importHandlers(sup),
    ...historyHandlers(sup),
    ...curlHandlers(sup),
    ...exampleHandlers(sup),
    ...cookieUiHandlers(sup.cookies),
    ...queryHandlers(sup),
    ...httpLogHandlers(sup),
    ...graphqlHandlers(sup),
    ...grpcUiHandlers(sup),
    ...treeHandlers(sup),
    ...runHandlers(sup),
    ...exportHandlers(sup),
    'app.info': () => ({
      version: appVersion(),
      workspaceDir: sup.dataDir,
      projects: sup.openProjects().map((p) => p.root),
      opening: sup.loadingProjects,
      electron: sup.electron,
    }),
    'app.ping': ({ t }) => ({ t }),

    'workspace.get': () => sup.workspace.get(),
    'captures.list': () => ({ projects: sup.capturedVariables() }),
    'captures.clear': ({ project, names }) => {
      sup.capturedValues(sup.project(project).root).clear(names);
      return {};
    },
    'workspace.setPreferences': async (prefs) => {
      const ws = await sup.workspace.update((draft) => {
        draft.preferences = { ...draft.preferences, ...prefs };
      });
      sup.broadcast('workspace.changed', ws);
      return ws.preferences;
    },

    // A supervisor that keeps no session (a command's) has no tabs to give and keeps none.
    'session.get': () => ({ ...(sup.session?.tabs() ?? { tabs: [] }), projects: [...(sup.session?.projects ?? [])], notices: sup.session?.takeNotices() ?? [] }),
    'session.save': (tabs) => {
      sup.session?.setTabs(tabs);
      return {};
    },

    'project.open': async ({ path }, ctx) => {
      const store = await sup.openProject(path);
      // A big project's tree takes tens of ms to build, to encode, and for the page to decode
      // (5,000 requests: about 40 ms there). It goes in pages with a turn of the event loop
      // between them, so the UI's other calls are answered meanwhile, here and in the page. The
      // open ends in an I/O callback, hence a turn that takes the waiting calls in before the tree.
      await ioTurn();
      const tree = store.tree();
      let start = 0;
      for (; tree.items.length - start > TREE_PAGE_ITEMS; start += TREE_PAGE_ITEMS) {
        await turn();
        ctx.chunk({ items: tree.items.slice(start, start + TREE_PAGE_ITEMS) });
      }
      await turn();
      return start === 0 ? tree : { ...tree, items: tree.items.slice(start) };
    },
    'project.close': async ({ project }) => {
      await sup.closeProject(project);
      return {};
    },
    'project.tree': ({ project }) => sup.project(project).tree(),
    'project.addFile': ({ project, path }) => addBodyFile(sup.project(project), path),
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
    'api.save': async ({ project, api, leaveOutSecrets }) => {
      const store = sup.project(project);
      const secured = await moveSecretsToStore(api.auth, `api/${api.id}`, sup.secrets, { leaveOut: leaveOutSecrets === true });
      await rememberSecrets(sup, secured.stored);
      const saved = await store.saveApi({ ...api, auth: secured.auth });
      sup.projectChanged(store, [api.id]);
      return saved;
    },

    'folder.get': ({ project, id }) => {
      const { name, settings } = sup.project(project).getFolder(id);
      return { id, name, settings };
    },
    'folder.save': async ({ project, id, settings, leaveOutSecrets }) => {
      const store = sup.project(project);
      // A typed secret goes to the secret store (keychain or vault) under the folder's own id, which a rename or move keeps.
      const current = store.getFolder(id);
      const secretId = current.secretId ?? (literalSecrets(settings.auth).size > 0 ? newId('f') : undefined);
      const secured =
        secretId === undefined
          ? { auth: settings.auth, stored: [] }
          : await moveSecretsToStore(settings.auth, `folder/${secretId}`, sup.secrets, { leaveOut: leaveOutSecrets === true, refusal: 'The secret typed into the folder settings was not saved.' });
      await rememberSecrets(sup, secured.stored);
      // A new id is written only for a secret that was stored: one left out has nothing to find.
      await store.saveFolder(id, { ...settings, auth: secured.auth }, current.secretId ?? (secured.stored.length > 0 ? secretId : undefined));
      sup.projectChanged(store, [id]);
      const saved = store.getFolder(id);
      return { id, name: saved.name, settings: saved.settings };
    },
    'tree.inherited': ({ project, item }) => {
      const store = sup.project(project);
      const { api, folders } = item.kind === 'request' ? store.scopeOf(item.id) : store.scopeOfFolder(item.id);
      return inheritedSettings(api, folders);
    },

    'request.get': ({ project, id }) => sup.project(project).getRequest(id),
    'request.create': async ({ project, ...input }) => {
      const store = sup.project(project);
      const request = await store.createRequest(input);
      sup.projectChanged(store, [request.id]);
      return request;
    },
    'request.createOfKind': async ({ project, ...input }) => {
      const store = sup.project(project);
      const request = await store.createRequestOfKind(input);
      sup.projectChanged(store, [request.id]);
      return request;
    },
    'request.save': async ({ project, request, leaveOutSecrets }) => {
      const store = sup.project(project);
      const secured = await moveSecretsToStore(request.auth, `request/${request.id}`, sup.secrets, { leaveOut: leaveOutSecrets === true });
      await rememberSecrets(sup, secured.stored);
      const saved = await store.saveRequest({ ...request, auth: secured.auth });
      sup.projectChanged(store, [request.id]);
      return saved;
    },
    'request.delete': async ({ project, id }) => {
      const store = sup.project(project);
      await store.deleteRequest(id);
      sup.projectChanged(store, [id]);
      return {};
    },
    // An event stream's head and rows go to the page as chunks of this call (SendProgress).
    'request.send': ({ project, request }, { signal, chunk, backlog }) => sendByKind(sup, sup.sendDeps, project, request, signal, chunk, backlog),

    'environments.save': async ({ environments, globals, activeEnvironment }) => {
      const names = new Set<string>();
      for (const env of environments) {
        const key = env.name.trim().toLowerCase();
        if (key === '') throw new ParleyError('bad-input', 'An environment needs a name: the name given is empty.');
        if (names.has(key)) throw new ParleyError('bad-input', `Two environments are named "${env.name}": names must differ.`);
        names.add(key);
      }
      const ws = await sup.workspace.update((draft) => {
        draft.environments = environments;
        draft.globals = globals;
        draft.activeEnvironment = environments.some((e) => e.id === activeEnvironment) ? activeEnvironment : undefined;
      });
      sup.broadcast('workspace.changed', ws);
      return ws;
    },
    'environments.setActive': async ({ id }) => {
      const ws = await sup.workspace.update((draft) => {
        if (id !== undefined && !draft.environments.some((e) => e.id === id)) throw new ParleyError('not-found', 'No such environment.');
        draft.activeEnvironment = id;
      });
      sup.broadcast('workspace.changed', ws);
      return ws;
    },

    'secret.set': async ({ name, value }) => {
      await sup.secrets.set(name, value);
      const ws = await sup.workspace.update((draft) => {
        if (!draft.secrets.includes(name)) draft.secrets = [...draft.secrets, name].sort();
      });
      sup.broadcast('workspace.changed', ws);
      return { ref: `\${secret:${name}}` };
    },
    'secret.delete': async ({ name }) => {
      await sup.secrets.delete(name);
      const ws = await sup.workspace.update((draft) => {
        draft.secrets = draft.secrets.filter((n) => n !== name);
      });
      sup.broadcast('workspace.changed', ws);
      return {};
    },
    'secret.status': async () => ({ ...(await sup.secrets.status()), names: sup.workspace.get().secrets }),
    'secret.has': ({ names }) => sup.secrets.has(names),
    'secret.createVault': ({ passphrase }) => sup.secrets.createVault(passphrase),
    'secret.unlock': ({ passphrase }) => sup.secrets.unlockVault(passphrase),
    'secret.lock': () => sup.secrets.lockVault(),

    'fs.list': async ({ path }) => {
      checkPathLength(path ?? '', 'folder');
      const dir = resolve(path || homedir());
      const info = await stat(dir).catch(() => null);
      if (!info?.isDirectory()) throw new ParleyError('not-found', `${dir} is not a folder.`);
      const entries = await readdir(dir, { withFileTypes: true });
      const listed = await Promise.all(
        entries
          .filter((e) => !e.name.startsWith('.'))
          .slice(0, 2000)
          .map(async (e) => ({ name: e.name, dir: e.isDirectory(), size: e.isFile() ? (await stat(join(dir, e.name)).catch(() => null))?.size ?? 0 : 0 })),
      );
      listed.sort((a, b) => (a.dir === b.dir ? a.name.localeCompare(b.name) : a.dir ? -1 : 1));
      const parent = dirname(dir);
      return { path: dir, ...(parent !== dir ? { parent } : {}), entries: listed };
    },
  };
}
