/**
 * The import dialog's form as plain data, and the one place that turns it into an
 * `import.run` request (or says what is missing). Kept free of Preact so it is unit-tested.
 */
import type { ReqOf, ResOf } from '../../../../protocol/messages.js';
import type { ImportJobSource, ImportProgress } from '../../../../protocol/model/import.js';
import { builtFormat, builtFormats } from '../../../../protocol/import-formats.js';
import { credentialsProblem, emptyAuth, toCredentials, type AuthDraft } from './fetch-credentials.js';

/** `server`: a running gRPC server by reflection (Protocol Buffers only). */
export type SourceTab = 'url' | 'file' | 'paste' | 'server';
/** 'auto' or a built format's id (protocol/import-formats.ts). */
export type ImportFormat = string;

/** The Format list: Auto-detect, then every format this build imports, in SPEC's order; formats not built are absent. */
export const FORMAT_OPTIONS: { id: ImportFormat; label: string }[] = [{ id: 'auto', label: 'Auto-detect' }, ...builtFormats().map((f) => ({ id: f.id, label: f.label }))];

/** Environments and globals land in the workspace: the dialog does not ask for a project (SPEC). */
export function landsInWorkspace(format: ImportFormat, detected?: string): boolean {
  const id = format === 'auto' ? detected : format;
  return id !== undefined && builtFormat(id)?.lands === 'workspace';
}

/** The source tabs a format takes (Auto-detect: every tab; a server is read only as Protocol Buffers, which auto-detect picks for it). */
export function formatTakes(format: ImportFormat, tab: SourceTab): boolean {
  return format === 'auto' || (builtFormat(format)?.sources.includes(tab) ?? false);
}

/** The Server tab's fields (SPEC "gRPC import"). */
export interface ServerDraft {
  /** host:port */
  address: string;
  reflection: 'auto' | 'v1' | 'v1alpha';
  /** The server is reached over TLS. */
  tls: boolean;
  /** "Ask even if the certificate does not verify". */
  insecure: boolean;
  /** Target host:port; empty: the address the server was found at. */
  target: string;
  /** Whether the target speaks TLS (grpcs). */
  targetTls: boolean;
}

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
  /** HAR: import static assets too. */
  includeStaticAssets: boolean;
  /** HAR: what becomes of the recorded responses. */
  recordedResponses: RecordedResponses;
  /** WSDL, URL tab: Basic definition credentials become the interface's auth too. */
  useCredentialsForRequests: boolean;
  server: ServerDraft;
  /** .http, a picked file: "Also import N environments found beside the file" (ticked by default). */
  httpEnvironments: boolean;
}

export type RecordedResponses = 'none' | 'history' | 'examples';

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
    includeStaticAssets: false,
    recordedResponses: 'none',
    useCredentialsForRequests: false,
    server: { address: '', reflection: 'auto', tls: false, insecure: false, target: '', targetTls: false },
    httpEnvironments: true,
  };
}

export type RunRequest = ReqOf<'import.run'>;

/** "Use these credentials for requests too" (SPEC "WSDL options"): the URL tab, Basic or Kerberos, a WSDL or Auto-detect. */
export function wsdlCredentialsOffered(form: ImportForm): boolean {
  return form.tab === 'url' && (form.auth.mode === 'basic' || form.auth.mode === 'kerberos') && (form.format === 'wsdl' || form.format === 'auto');
}

/** The request to send, or the first thing the user still has to fill in. */
export function buildRunRequest(form: ImportForm, openProjects: readonly string[], detected?: string): { request: RunRequest } | { problem: string } {
  if (!formatTakes(form.format, form.tab)) return { problem: tabProblem(form.format, form.tab) };
  // Auto-detect found a format this tab cannot take (a SoapUI project pasted): say which tab can.
  if (form.format === 'auto' && detected !== undefined && builtFormat(detected) && !formatTakes(detected, form.tab)) return { problem: tabProblem(detected, form.tab) };
  const source = sourceOf(form);
  if ('problem' in source) return source;
  const options: RunRequest['options'] = { cacheDefinition: form.cacheDefinition, importWebhooks: form.importWebhooks };
  if ((form.format === 'auto' ? detected : form.format) === 'har') Object.assign(options, { includeStaticAssets: form.includeStaticAssets, recordedResponses: form.recordedResponses });
  if (wsdlCredentialsOffered(form) && form.useCredentialsForRequests) options.useCredentialsForRequests = true;
  if ((form.format === 'auto' ? detected : form.format) === 'http' && form.tab === 'file') options.httpEnvironments = form.httpEnvironments;
  if (form.name.trim()) options.name = form.name.trim();
  if (form.baseUrl.trim()) options.baseUrl = form.baseUrl.trim();
  if (form.tab === 'server') {
    if (form.server.target.trim()) options.baseUrl = form.server.target.trim();
    options.targetTls = form.server.target.trim() ? form.server.targetTls : form.server.tls;
  }
  if (landsInWorkspace(form.format, detected)) return { request: { source: source.source, format: form.format, options } };
  let into: RunRequest['into'];
  if (form.target === 'project') {
    if (!form.project || !openProjects.includes(form.project)) return { problem: 'Choose the project to import into.' };
    into = { kind: 'project', project: form.project };
  } else {
    const path = form.newPath.trim();
    if (path === '') return { problem: 'Enter the folder for the new project.' };
    into = { kind: 'new', path, ...(form.newName.trim() ? { name: form.newName.trim() } : {}) };
  }
  return { request: { source: source.source, format: form.format, options, into } };
}

/** Why a format cannot come from this tab, naming the tabs it takes. */
function tabProblem(format: string, tab: SourceTab): string {
  const info = builtFormat(format);
  const tabs = info?.sources.map((s) => (s === 'url' ? 'URL' : s === 'file' ? 'File' : s === 'server' ? 'Server' : 'Paste')).join(' or ');
  return `${info?.label ?? 'This format'} cannot be imported from ${tab === 'url' ? 'a URL' : tab === 'file' ? 'a file' : tab === 'server' ? 'a server' : 'pasted text'}: use the ${tabs} tab.`;
}

function sourceOf(form: ImportForm): { source: ImportJobSource } | { problem: string } {
  if (form.tab === 'server') {
    const address = form.server.address.trim();
    if (!/^[^\s/]+:\d{1,5}$/.test(address)) return { problem: 'Enter the server’s address as host:port (for example localhost:50051).' };
    return { source: { kind: 'grpc-server', address, reflection: form.server.reflection, tls: form.server.tls, insecure: form.server.tls && form.server.insecure } };
  }
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
export function firstProgress(source: ImportJobSource): ImportProgress {
  if (source.kind === 'url') return { phase: 'read', message: `Fetching ${hostAndPath(source.url)}` };
  if (source.kind === 'file' || source.kind === 'folder') return { phase: 'read', message: `Reading ${baseName(source.path)}` };
  if (source.kind === 'grpc-server') return { phase: 'read', message: `Asking ${source.address} for its services` };
  return { phase: 'read', message: 'Reading the pasted text' };
}

const PHASES: ImportProgress['phase'][] = ['read', 'resolve', 'convert', 'done'];

/** 0..1 along the four phases, each a quarter, refined by done/total within the phase. */
export function progressFraction(progress: ImportProgress): number {
  const index = PHASES.indexOf(progress.phase);
  const within = progress.total ? Math.min(1, (progress.done ?? 0) / progress.total) : 0;
  return Math.min(1, (index + within) / PHASES.length + 0.04);
}

/** "openapi-3.1" -> "OpenAPI 3.1", "swagger-2.0" -> "Swagger 2.0", "postman-collection-2.1" -> "Postman collection v2.1"; anything else as written. */
export function versionLabel(declared: string): string {
  const postman = /^postman-(collection|environment|globals)(?:-(.+))?$/.exec(declared);
  if (postman) return `Postman ${postman[1]}${postman[2] ? ` v${postman[2]}` : ''}`;
  const har = /^har-(.+)$/.exec(declared);
  if (har) return `HAR ${har[1]}`;
  const soapui = /^soapui(?:-(.+))?$/.exec(declared);
  if (soapui) return `SoapUI project${soapui[1] ? ` (SoapUI ${soapui[1]})` : ''}`;
  const wsdl = /^wsdl-(.+)$/.exec(declared);
  if (wsdl) return `WSDL ${wsdl[1]}`;
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

type RunResult = ResOf<'import.run'>;

/** The report as plain text, for Copy report: what was made, then Things to look at, then Notes. */
export function reportText(result: RunResult): string {
  const { report } = result;
  const lines: string[] = [`Import (${versionLabel(report.declaredVersion)})${result.project ? ` into ${result.project}` : ' into the workspace'}`];
  for (const api of result.apis) lines.push(`API ${api.name}: ${api.requests} request${api.requests === 1 ? '' : 's'} in ${api.folders} folder${api.folders === 1 ? '' : 's'}`);
  if (result.properties !== undefined) lines.push(`Project properties added: ${result.properties}`);
  for (const c of report.counts ?? []) lines.push(`${c.label}: ${c.count}`);
  for (const env of result.workspace?.environments ?? []) lines.push(`Environment ${env.name}: ${env.variables} variable${env.variables === 1 ? '' : 's'}, ${env.secrets} secret (not active)`);
  const globals = result.workspace?.globals;
  if (globals) lines.push(`Globals: ${globals.added} added, ${globals.kept} kept`);
  const look = [...report.errors.map((e) => `Error: ${e.message}`), ...report.warnings.map((w) => w.message), ...report.unimported.map((u) => `${u.item}: ${u.reason}`)];
  if (look.length > 0) lines.push('', 'Things to look at', ...look.map((l) => `- ${l}`));
  const notes = report.notes ?? [];
  if (notes.length > 0) lines.push('', 'Notes', ...notes.map((n) => `- ${n.message}`));
  return `${lines.join('\n')}\n`;
}
