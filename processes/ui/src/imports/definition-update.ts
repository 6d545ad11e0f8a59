/**
 * A definition update, start to end: read the source again and preview, Apply with the
 * preview's fingerprint, or choose another file or URL. The dialog renders this session; the
 * state sits outside the component so the file chooser can borrow the dialog slot.
 */
import { takeTree } from '../state/project-trees.js';
import { signal, type Signal } from '@preact/signals';
import type { ParleyError } from '../../../../protocol/errors.js';
import type { ResOf } from '../../../../protocol/messages.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { ImportProgress, ImportSource } from '../../../../protocol/model/import.js';
import { call } from '../state/rpc.js';
import { toast } from '../state/toasts.js';
import { expand } from '../state/tree.js';
import { rowKey } from '../components/tree-rows.js';
import { credentialsProblem, emptyAuth, storedCredentialsFor, toCredentials, type AuthDraft, type AuthMode } from './fetch-credentials.js';
import { firstProgress, isHttpUrl } from './import-form.js';

export type UpdateStage = 'reading' | 'preview' | 'applying' | 'changed' | 'chooser' | 'failed';

/** Where to read from: absent is the recorded source (with its stored credentials). */
export interface ChosenSource {
  source: ImportSource;
  useStoredCredentials?: boolean;
}

export interface ChooserState {
  tab: 'url' | 'file';
  url: string;
  auth: AuthDraft;
  /** Until the user picks an Authentication choice, it follows the URL's origin (rule 6). */
  authTouched: boolean;
  filePath: string;
  /** Why the chooser opened by itself (no recorded source, authentication needed or refused). */
  message: string;
  problem: string;
}

export interface UpdateSession {
  project: string;
  apiId: string;
  apiName: string;
  api: Signal<Api | null>;
  stage: Signal<UpdateStage>;
  progress: Signal<ImportProgress>;
  preview: Signal<ResOf<'api.definitionPreview'> | null>;
  /** The message of the `failed` and `changed` stages, or of a failed Apply. */
  error: Signal<string>;
  /** The source of the preview shown (Apply reads it again). */
  chosen: ChosenSource | null;
  /** The source of the last read, for Try again after it failed. */
  attempted: ChosenSource | null;
  chooser: Signal<ChooserState>;
  controller: AbortController | null;
}

/** Bumped after every Apply, so an open API tab reloads what changed under it. */
export const definitionApplied = signal<{ project: string; api: string; n: number }>({ project: '', api: '', n: 0 });

export function newUpdateSession(project: string, apiId: string, apiName: string): UpdateSession {
  return {
    project,
    apiId,
    apiName,
    api: signal(null),
    stage: signal('reading'),
    progress: signal({ phase: 'read', message: 'Reading the definition' }),
    preview: signal(null),
    error: signal(''),
    chosen: null,
    attempted: null,
    chooser: signal({ tab: 'url', url: '', auth: emptyAuth(), authTouched: false, filePath: '', message: '', problem: '' }),
    controller: null,
  };
}

/** Loads the API (for its recorded source), then previews from the recorded source. */
export async function startUpdate(session: UpdateSession): Promise<void> {
  try {
    session.api.value = await call('api.get', { project: session.project, id: session.apiId });
  } catch (err) {
    fail(session, (err as Error).message);
    return;
  }
  await runPreview(session, null);
}

export async function runPreview(session: UpdateSession, chosen: ChosenSource | null): Promise<void> {
  session.attempted = chosen;
  const controller = begin(session, 'reading', chosen);
  try {
    const result = await call('api.definitionPreview', { project: session.project, api: session.apiId, ...sourceFields(chosen) }, { signal: controller.signal, onChunk: (c) => (session.progress.value = c) });
    session.chosen = chosen;
    session.preview.value = result;
    session.error.value = '';
    session.stage.value = 'preview';
  } catch (err) {
    handleReadError(session, err as ParleyError, chosen);
  } finally {
    if (session.controller === controller) session.controller = null;
  }
}

export async function runApply(session: UpdateSession): Promise<boolean> {
  const preview = session.preview.value;
  if (!preview) return false;
  const chosen = session.chosen;
  const controller = begin(session, 'applying', chosen);
  try {
    const { counts } = await call(
      'api.definitionApply',
      { project: session.project, api: session.apiId, fingerprint: preview.preview.fingerprint, ...sourceFields(chosen) },
      { signal: controller.signal, onChunk: (c) => (session.progress.value = c) },
    );
    toast('success', `Definition updated: ${counts.added} added, ${counts.rewritten} rewritten, ${counts.orphaned} orphaned, ${counts.restored} restored${counts.kept ? `, ${counts.kept} edited kept` : ''}`);
    definitionApplied.value = { project: session.project, api: session.apiId, n: definitionApplied.peek().n + 1 };
    await refreshTree(session);
    return true;
  } catch (err) {
    const e = err as ParleyError;
    if (e.code === 'definition-changed') {
      session.error.value = 'The definition changed since the preview, so nothing was applied. Preview again to see what it would change now.';
      session.stage.value = 'changed';
    } else if (e.code === 'auth-required' || e.code === 'auth-refused' || e.code === 'no-source') handleReadError(session, e, chosen);
    else if (e.code !== 'cancelled') {
      session.error.value = e.message;
      session.stage.value = 'preview';
    }
    return false;
  } finally {
    if (session.controller === controller) session.controller = null;
  }
}

/** Opens the chooser: on a URL (with a message) when the source needs authentication, or empty. */
export function openChooser(session: UpdateSession, message = '', url?: string): void {
  const current = session.chooser.value;
  const recorded = session.api.value?.definition?.source;
  const startUrl = url ?? (current.url || (recorded?.kind === 'url' ? recorded.location : ''));
  session.chooser.value = {
    ...current,
    tab: url !== undefined || current.url || recorded?.kind !== 'file' ? 'url' : 'file',
    url: startUrl,
    filePath: current.filePath || (recorded?.kind === 'file' ? recorded.location : ''),
    authTouched: false,
    auth: { ...current.auth, mode: 'none' },
    message,
    problem: '',
  };
  session.stage.value = 'chooser';
}

/** The Authentication choice in effect: it follows the origin until the user picks one. */
export function effectiveAuth(session: UpdateSession, chooser: ChooserState): { draft: AuthDraft; modes: AuthMode[] } {
  const stored = storedCredentialsFor(chooser.url.trim(), session.api.value?.definition?.source);
  const modes: AuthMode[] = stored ? ['stored', 'none', 'basic', 'bearer', 'apikey', 'kerberos'] : ['none', 'basic', 'bearer', 'apikey', 'kerberos'];
  let mode = chooser.auth.mode;
  if (!chooser.authTouched) mode = stored ? 'stored' : 'none';
  else if (mode === 'stored' && !stored) mode = 'none';
  return { draft: { ...chooser.auth, mode }, modes };
}

/** The chooser's source, or what is still missing. */
export function chosenFromChooser(session: UpdateSession): ChosenSource | string {
  const chooser = session.chooser.value;
  if (chooser.tab === 'file') {
    const path = chooser.filePath.trim();
    return path ? { source: { kind: 'file', path } } : 'Choose the file to read the definition from.';
  }
  const url = chooser.url.trim();
  if (!isHttpUrl(url)) return 'Enter the document’s http:// or https:// URL.';
  const { draft } = effectiveAuth(session, chooser);
  if (draft.mode === 'stored') return { source: { kind: 'url', url }, useStoredCredentials: true };
  const problem = credentialsProblem(draft);
  if (problem) return problem;
  const credentials = toCredentials(draft);
  return { source: { kind: 'url', url, ...(credentials ? { credentials } : {}) } };
}

function begin(session: UpdateSession, stage: 'reading' | 'applying', chosen: ChosenSource | null): AbortController {
  session.controller?.abort();
  const controller = new AbortController();
  session.controller = controller;
  session.progress.value = chosen ? firstProgress(chosen.source) : { phase: 'read', message: stage === 'applying' ? 'Reading the definition again' : 'Reading the recorded source' };
  session.stage.value = stage;
  return controller;
}

function sourceFields(chosen: ChosenSource | null): { source?: ImportSource; useStoredCredentials?: boolean } {
  if (!chosen) return {};
  return { source: chosen.source, ...(chosen.useStoredCredentials ? { useStoredCredentials: true } : {}) };
}

function handleReadError(session: UpdateSession, err: ParleyError, chosen: ChosenSource | null): void {
  if (err.code === 'cancelled') return;
  if (err.code === 'no-source') return openChooser(session, err.message);
  if (err.code === 'auth-required' || err.code === 'auth-refused') {
    const recorded = session.api.value?.definition?.source;
    const url = chosen?.source.kind === 'url' ? chosen.source.url : recorded?.kind === 'url' ? recorded.location : '';
    return openChooser(session, err.message, url);
  }
  fail(session, err.message);
}

function fail(session: UpdateSession, message: string): void {
  session.error.value = message;
  session.stage.value = 'failed';
}

async function refreshTree(session: UpdateSession): Promise<void> {
  try {
    takeTree(await call('project.tree', { project: session.project }));
  } catch {
    // The project.changed event brings the tree as well; this only saves waiting for it.
  }
  expand(rowKey(session.project, session.apiId));
}
