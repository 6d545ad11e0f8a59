/**
 * What a `${name}` in a project's request stands for, as the editor shows it: the same rule the
 * send applies (protocol/variables.ts) over the workspace and project the page holds, plus the
 * names of the secrets the workspace stored (their values never reach the page).
 */
import { computed, type ReadonlySignal } from '@preact/signals';
import { SECRET_PREFIX, scopeValues, type ScopedValue } from '../../../../protocol/variables.js';
import { projects, workspace } from './app.js';

export interface EditorScope {
  values: ReadonlyMap<string, ScopedValue>;
  /** Names of the secrets stored (`${secret:<name>}`). */
  secrets: ReadonlySet<string>;
  /** The active environment's name, for "from environment Staging". */
  environment: string | null;
}

export type Resolution =
  | { kind: 'value'; value: string; source: ScopedValue['source']; secret: boolean }
  | { kind: 'secret'; name: string }
  | { kind: 'missing'; why: string };

const cache = new Map<string, ReadonlySignal<EditorScope>>();

/** The scope of a project's requests, following environment switches and edits as they land. */
export function scopeOf(project: string): ReadonlySignal<EditorScope> {
  let scope = cache.get(project);
  if (!scope) {
    scope = computed(() => {
      const ws = workspace.value;
      const active = ws?.environments.find((e) => e.id === ws.activeEnvironment);
      const properties = projects.value.find((p) => p.root === project)?.properties ?? [];
      return {
        values: scopeValues({ environment: active?.variables ?? [], project: properties, globals: ws?.globals ?? [] }),
        secrets: new Set(ws?.secrets ?? []),
        environment: active?.name ?? null,
      };
    });
    cache.set(project, scope);
  }
  return scope;
}

/** What `${name}` resolves to in `scope`; a value made only of a secret reference is a secret. */
export function resolve(name: string, scope: EditorScope): Resolution {
  if (name.startsWith(SECRET_PREFIX)) {
    const key = name.slice(SECRET_PREFIX.length);
    return scope.secrets.has(key) ? { kind: 'secret', name: key } : { kind: 'missing', why: `no secret named ${key} is stored` };
  }
  const found = scope.values.get(name);
  if (!found) return { kind: 'missing', why: scope.environment ? `not defined in environment ${scope.environment}, the project's properties or the globals` : "not defined in the project's properties or the globals (no environment is active)" };
  return { kind: 'value', value: found.value, source: found.source, secret: /\$\{secret:[^{}]+\}/.test(found.value) };
}

/** Where a value comes from, in words. */
export function describeSource(resolution: Extract<Resolution, { kind: 'value' }>, scope: EditorScope): string {
  if (resolution.source === 'environment') return `environment ${scope.environment ?? ''}`.trim();
  return resolution.source === 'property' ? 'project property' : 'global';
}
