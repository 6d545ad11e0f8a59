/**
 * What a `${name}` in a project's request stands for, as the editor shows it: the same rule the
 * send applies (protocol/variables.ts) over the workspace and project the page holds and the
 * values captured this session (a credential's masked), plus the names of the secrets the
 * workspace stored (their values never reach the page).
 */
import { computed, type ReadonlySignal } from '@preact/signals';
import type { Environment, Workspace } from '../../../../protocol/model/workspace.js';
import type { Row } from '../../../../protocol/model/common.js';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import { EXPANSION, SECRET_PREFIX, scopeValues, type ScopedValue } from '../../../../protocol/variables.js';
import { projects, workspace } from './app.js';
import { capturedByProject } from './captured.js';

/** A value in the editor's scope; one set on a folder names the folder (`folder`, e.g. "folder Orders"). */
export type EditorValue = ScopedValue & { folder?: string };

export interface EditorScope {
  values: ReadonlyMap<string, EditorValue>;
  /** Names of the secrets stored (`${secret:<name>}`). */
  secrets: ReadonlySet<string>;
  /** The active environment's name, for "from environment Staging". */
  environment: string | null;
}

export type Resolution =
  | { kind: 'value'; value: string; source: ScopedValue['source']; secret: boolean; folder?: string }
  | { kind: 'secret'; name: string }
  | { kind: 'missing'; why: string };

/**
 * The scope of a request in a project with `properties`, in workspace `ws` (null before it loads),
 * with the values `captured` this session and the variables its `folders` hand down (as the send
 * takes them: over the project's properties, under the environment).
 */
export function editorScope(ws: Workspace | null, properties: readonly Row[], captured: readonly { name: string; value: string }[] = [], folders: InheritedSettings['variables'] = []): EditorScope {
  const active = ws?.environments.find((e) => e.id === ws.activeEnvironment);
  const folderRows = folders.map(({ name, value }) => ({ name, value, enabled: true }));
  const values: Map<string, EditorValue> = scopeValues({
    captured: captured.map(({ name, value }) => ({ name, value, enabled: true })),
    environment: active?.variables ?? [],
    project: folderRows.length > 0 ? [...properties, ...folderRows] : properties,
    globals: ws?.globals ?? [],
  });
  // A property-layer winner whose name a folder sets is the folder's (its rows come after the properties).
  for (const { name, from } of folders) {
    const found = values.get(name);
    if (found?.source === 'property') values.set(name, { ...found, folder: from.name });
  }
  return {
    values,
    secrets: new Set(ws?.secrets ?? []),
    environment: active?.name ?? null,
  };
}

const cache = new Map<string, ReadonlySignal<EditorScope>>();

/** The values of a project's scope, without a request's folders. */
function projectParts(project: string): [Workspace | null, readonly Row[], readonly { name: string; value: string }[] | undefined] {
  return [workspace.value, projects.value.find((p) => p.root === project)?.properties ?? [], capturedByProject.value.get(project)];
}

/** The scope of one request: its project's, with the variables its folders hand down (`inherited`, null until known). */
export function requestScope(project: string, inherited: ReadonlySignal<InheritedSettings | null>): ReadonlySignal<EditorScope> {
  return computed(() => editorScope(...projectParts(project), inherited.value?.variables ?? []));
}

/** The scope of a project's requests, following environment switches and edits as they land. */
export function scopeOf(project: string): ReadonlySignal<EditorScope> {
  let scope = cache.get(project);
  if (!scope) {
    scope = computed(() => editorScope(...projectParts(project)));
    cache.set(project, scope);
  }
  return scope;
}

/**
 * The scope of an environment's (or the globals') values as the Environments editor holds them,
 * unsaved edits included: the environment shown over the globals, and the stored secrets' names.
 */
export function environmentScope(shown: () => { environment: Environment | null; globals: readonly Row[] }): ReadonlySignal<EditorScope> {
  return computed(() => {
    const { environment, globals } = shown();
    return {
      values: scopeValues({ environment: environment?.variables ?? [], project: [], globals }),
      secrets: new Set(workspace.value?.secrets ?? []),
      environment: environment?.name ?? null,
    };
  });
}

/** What `${name}` resolves to in `scope`; a value made only of a secret reference is a secret. */
export function resolve(name: string, scope: EditorScope): Resolution {
  if (name.startsWith(SECRET_PREFIX)) {
    const key = name.slice(SECRET_PREFIX.length);
    return scope.secrets.has(key) ? { kind: 'secret', name: key } : { kind: 'missing', why: `no secret named ${key} is stored` };
  }
  const found = scope.values.get(name);
  if (!found) return { kind: 'missing', why: scope.environment ? `not defined in environment ${scope.environment}, the project's properties or the globals` : "not defined in the project's properties or the globals (no environment is active)" };
  return { kind: 'value', value: found.value, source: found.source, secret: /\$\{secret:[^{}]+\}/.test(found.value), ...(found.folder !== undefined ? { folder: found.folder } : {}) };
}

/** Where a value comes from, in words. */
export function describeSource(resolution: Extract<Resolution, { kind: 'value' }>, scope: EditorScope): string {
  if (resolution.source === 'environment') return `environment ${scope.environment ?? ''}`.trim();
  if (resolution.source === 'captured') return 'a capture this session';
  if (resolution.folder !== undefined) return `folder ${resolution.folder}`;
  return resolution.source === 'property' ? 'project property' : 'global';
}

/** The depth the send expands a value's own `${...}` to (processes/supervisor/send/expand.ts). */
const NESTING = 5;

/**
 * The names in `texts` a send would leave unresolved, each once, in order of first use: as the
 * send's Expander does, a value that holds `${...}` is followed into, so `${url}` whose value is
 * `${host}/v1` names `host` when `host` is nowhere.
 */
export function unresolvedIn(texts: Iterable<string>, scope: EditorScope): string[] {
  const missing = new Set<string>();
  const walk = (text: string, depth: number) => {
    if (!text.includes('${')) return;
    for (const match of text.matchAll(EXPANSION)) {
      const name = match[1]!;
      const found = resolve(name, scope);
      if (found.kind === 'missing') missing.add(name);
      // A captured value is taken as it is (the send never expands it).
      else if (found.kind === 'value' && found.source !== 'captured' && depth < NESTING) walk(found.value, depth + 1);
    }
  };
  for (const text of texts) walk(text, 0);
  return [...missing];
}
