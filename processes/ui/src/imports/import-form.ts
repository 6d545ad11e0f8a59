/**
 * The import dialog's form as plain data, and the one place that turns it into an
 * `import.run` request (or says what is missing). Kept free of Preact so it is unit-tested.
 */
import type { ReqOf } from '../../../../protocol/messages.js';
import type { ImportProgress, ImportSource } from '../../../../protocol/model/import.js';
import { credentialsProblem, emptyAuth, toCredentials, type AuthDraft } from './fetch-credentials.js';

export type SourceTab = 'url' | 'file' | 'paste';
export type ImportFormat = 'auto' | 'openapi';

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  auto: 'Auto-detect',
  openapi: 'OpenAPI (with its predecessor Swagger)',
};

export interface ImportForm {
  tab: SourceTab;
  url: string;
  auth: AuthDraft;
  filePath: string;
  text: string;
  format: ImportFormat;
  target: 'project' | 'new';
  /** Root of the open project to import into. */
  project: string;
  newPath: string;
  newName: string;
  name: string;
  baseUrl: string;
  cacheDefinition: boolean;
  importWebhooks: boolean;
}

export function emptyForm(project: string | undefined): ImportForm {
  return {
    tab: 'url',
    url: '',
    auth: emptyAuth(),
    filePath: '',
    text: '',
    format: 'auto',
    target: project ? 'project' : 'new',
    project: project ?? '',
    newPath: '',
    newName: '',
    name: '',
    baseUrl: '',
    cacheDefinition: true,
    importWebhooks: true,
  };
}

export type RunRequest = ReqOf<'import.run'>;

/** The request to send, or the first thing the user still has to fill in. */
export function buildRunRequest(form: ImportForm, openProjects: readonly string[]): { request: RunRequest } | { problem: string } {
  const source = sourceOf(form);
  if ('problem' in source) return source;
  let into: RunRequest['into'];
  if (form.target === 'project') {
    if (!form.project || !openProjects.includes(form.project)) return { problem: 'Choose the project to import into.' };
    into = { kind: 'project', project: form.project };
  } else {
    const path = form.newPath.trim();
    if (path === '') return { problem: 'Enter the folder for the new project.' };
    into = { kind: 'new', path, ...(form.newName.trim() ? { name: form.newName.trim() } : {}) };
  }
  const options: RunRequest['options'] = { cacheDefinition: form.cacheDefinition, importWebhooks: form.importWebhooks };
  if (form.name.trim()) options.name = form.name.trim();
  if (form.baseUrl.trim()) options.baseUrl = form.baseUrl.trim();
  return { request: { source: source.source, format: form.format, options, into } };
}

function sourceOf(form: ImportForm): { source: ImportSource } | { problem: string } {
  if (form.tab === 'file') {
    const path = form.filePath.trim();
    return path ? { source: { kind: 'file', path } } : { problem: 'Choose the file to import.' };
  }
  if (form.tab === 'paste') return form.text.trim() ? { source: { kind: 'paste', text: form.text } } : { problem: 'Paste the document to import.' };
  const url = form.url.trim();
  if (!isHttpUrl(url)) return { problem: 'Enter the document’s http:// or https:// URL.' };
  const problem = credentialsProblem(form.auth);
  if (problem) return { problem };
  const credentials = toCredentials(form.auth);
  return { source: { kind: 'url', url, ...(credentials ? { credentials } : {}) } };
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** What the progress line says before the importer's first chunk (a URL fetch sends none). */
export function firstProgress(source: ImportSource): ImportProgress {
  if (source.kind === 'url') return { phase: 'read', message: `Fetching ${hostAndPath(source.url)}` };
  if (source.kind === 'file') return { phase: 'read', message: `Reading ${baseName(source.path)}` };
  return { phase: 'read', message: 'Reading the pasted text' };
}

const PHASES: ImportProgress['phase'][] = ['read', 'resolve', 'convert', 'done'];

/** 0..1 along the four phases, each a quarter, refined by done/total within the phase. */
export function progressFraction(progress: ImportProgress): number {
  const index = PHASES.indexOf(progress.phase);
  const within = progress.total ? Math.min(1, (progress.done ?? 0) / progress.total) : 0;
  return Math.min(1, (index + within) / PHASES.length + 0.04);
}

/** "openapi-3.1" -> "OpenAPI 3.1", "swagger-2.0" -> "Swagger 2.0"; anything else as written. */
export function versionLabel(declared: string): string {
  const match = /^(openapi|swagger)-(.+)$/.exec(declared);
  if (!match) return declared;
  return `${match[1] === 'openapi' ? 'OpenAPI' : 'Swagger'} ${match[2]}`;
}

export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** A URL as the progress line shows it: no query (it may hold a key), no user info. */
function hostAndPath(text: string): string {
  try {
    const url = new URL(text);
    return `${url.host}${url.pathname}`;
  } catch {
    return 'the URL';
  }
}
