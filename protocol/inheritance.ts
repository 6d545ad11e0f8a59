/**
 * What a request takes from the folders it sits in and from its API (docs/project-files.md,
 * "Folder settings"): one rule for the send (processes/supervisor/send/), `parley run`, the
 * in-app runner and the editors that show where each value comes from.
 *
 * - Auth: a request's own, unless it is Inherit; then the nearest folder's that is not Inherit;
 *   then the API's.
 * - Headers: every folder's switched-on headers, the outermost first; a nearer folder's header
 *   hides a farther one of the same name (case-insensitively), and a request's own hides both.
 * - Variables: every folder's switched-on variables, a nearer folder's hiding a farther one of
 *   the same name; laid over the project's properties, under the environment (send-service.ts).
 */
import type { Api } from './model/api.js';
import type { Auth } from './model/auth.js';
import type { Row } from './model/common.js';
import type { FolderFile, InheritedSettings, SettingSource } from './model/project.js';

/** A folder on a request's way, as its folder.yaml has it. */
export interface FolderScope {
  /** Its tree id (`<api id>/<path>`). */
  id: string;
  name: string;
  file: Pick<FolderFile, 'auth' | 'headers' | 'variables'>;
}

/** What `folders` (outermost first) and `api` hand down to whatever is inside the last folder. */
export function inheritedSettings(api: Pick<Api, 'id' | 'name' | 'auth'>, folders: readonly FolderScope[]): InheritedSettings {
  const apiSource: SettingSource = { kind: 'api', id: api.id, name: api.name };
  let auth: InheritedSettings['auth'] = { auth: api.auth.type === 'inherit' ? { type: 'none' } : api.auth, from: apiSource };
  for (let i = folders.length - 1; i >= 0; i--) {
    const folder = folders[i]!;
    const own = folder.file.auth;
    if (own && own.type !== 'inherit') {
      auth = { auth: own, from: sourceOf(folder) };
      break;
    }
  }
  const headers: InheritedSettings['headers'] = [];
  const variables: InheritedSettings['variables'] = [];
  for (const folder of folders) {
    const from = sourceOf(folder);
    const ownHeaders = switchedOn(folder.file.headers, (name) => name.trim() !== '');
    const hiddenHeaders = new Set(ownHeaders.map((h) => h.name.trim().toLowerCase()));
    dropWhere(headers, (h) => hiddenHeaders.has(h.name.trim().toLowerCase()));
    for (const h of ownHeaders) headers.push({ name: h.name, value: h.value, from });
    const ownVariables = switchedOn(folder.file.variables, (name) => name !== '');
    const hiddenVariables = new Set(ownVariables.map((v) => v.name));
    dropWhere(variables, (v) => hiddenVariables.has(v.name));
    for (const v of ownVariables) variables.push({ name: v.name, value: v.value, from });
  }
  return { auth, headers, variables };
}

/** The auth a request sends and where it is set: its own (`from` undefined) or the one it inherits. */
export function effectiveAuth(own: Auth, inherited: InheritedSettings['auth']): { auth: Auth; from?: SettingSource } {
  return own.type === 'inherit' ? inherited : { auth: own };
}

/** The inherited headers a request sends: those none of its own switched-on headers hides (by name, case-insensitively). */
export function inheritedHeadersFor(own: readonly Row[], inherited: InheritedSettings['headers']): InheritedSettings['headers'] {
  const mine = new Set(own.filter((h) => h.enabled && h.name.trim() !== '').map((h) => h.name.trim().toLowerCase()));
  return inherited.filter((h) => !mine.has(h.name.trim().toLowerCase()));
}

/** "the folder Orders", "the API Shop": how messages name where a value is set. */
export function sourceLabel(source: SettingSource): string {
  return `the ${source.kind === 'api' ? 'API' : 'folder'} ${source.name}`;
}

function sourceOf(folder: FolderScope): SettingSource {
  return { kind: 'folder', id: folder.id, name: folder.name };
}

function switchedOn(rows: readonly Row[] | undefined, named: (name: string) => boolean): Row[] {
  return (rows ?? []).filter((r) => r.enabled && named(r.name));
}

function dropWhere<T>(list: T[], drop: (item: T) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (drop(list[i]!)) list.splice(i, 1);
}
