/**
 * What `parley import` and `parley update-definition` print: the human report, and the one JSON
 * object of --json. The JSON's `format` is the declared version (openapi-3.1, swagger-2.0), the
 * label users and scripts know a document by; the importer that ran is `importer`.
 */
import type { ResOf } from '../../protocol/messages.js';
import type { DefinitionUpdateCounts, DefinitionUpdatePreview, ReportItem, SecuritySchemeSummary, UnimportedItem } from '../../protocol/model/import.js';

export type ImportRun = ResOf<'import.run'>;

export function importJson(result: ImportRun): Record<string, unknown> {
  const { report } = result;
  return {
    project: result.project ?? null,
    format: report.declaredVersion,
    importer: report.format,
    detected: result.detection?.label ?? null,
    declaredVersion: report.declaredVersion,
    apiVersion: report.apiVersion ?? null,
    baseUrl: report.baseUrl,
    apis: result.apis.map((a) => ({ id: a.id, name: a.name, requests: a.requests, folders: a.folders, baseUrl: a.baseUrl })),
    webhooks: result.webhooks ?? null,
    properties: result.properties ?? 0,
    workspace: result.workspace ?? null,
    securitySchemes: report.securitySchemes,
    unimported: report.unimported,
    warnings: report.warnings,
    errors: report.errors,
    notes: report.notes ?? [],
    counts: Object.fromEntries((report.counts ?? []).map((c) => [c.label, c.count])),
  };
}

export function renderImport(result: ImportRun): string {
  const { report, detection } = result;
  const lines: string[] = [result.project !== undefined ? `Imported into ${result.project}` : 'Imported into the workspace'];
  const field = (name: string, value: string) => lines.push(`  ${name.padEnd(20)}${value}`);
  field('Format recognised', detection ? `${detection.label}${detection.settledBy === 'file-name' ? ' (by its file name)' : ''}` : `${report.format} (chosen with --format)`);
  field('Declared version', report.declaredVersion);
  if (result.apis.length > 0) {
    field('API version', report.apiVersion ?? '(not stated)');
    field('Base URL', report.baseUrl || '(none)');
  }
  for (const api of result.apis) {
    field('API', `${api.name}: ${plural(api.requests, 'request')} in ${plural(api.folders, 'folder')}${api.baseUrl !== report.baseUrl ? `, base URL ${api.baseUrl || '(none)'}` : ''}`);
  }
  if (result.webhooks) field('Webhooks', `${plural(result.webhooks.requests, 'request')} in the Webhooks collection, folder ${result.webhooks.folder}`);
  if (result.properties !== undefined) field('Project properties', `${result.properties} added`);
  for (const c of report.counts ?? []) field(c.label, String(c.count));
  for (const env of result.workspace?.environments ?? []) field('Environment', `${env.name}: ${plural(env.variables, 'variable')}${env.secrets > 0 ? `, ${env.secrets} secret` : ''} (not active)`);
  const globals = result.workspace?.globals;
  if (globals) field('Globals', `${globals.added} added, ${globals.kept} kept as they were${globals.secrets > 0 ? `, ${globals.secrets} secret` : ''}`);
  const nameWidth = Math.max(0, ...report.securitySchemes.map((s) => s.name.length));
  section(lines, 'Security schemes', report.securitySchemes, (s) => scheme(s, nameWidth));
  section(lines, 'Not imported', report.unimported, unimported);
  section(lines, 'Warnings', report.warnings, item);
  section(lines, 'Errors', report.errors, item);
  section(lines, 'Notes', report.notes ?? [], item);
  return `${lines.join('\n')}\n`;
}

export interface UpdateView {
  project: string;
  api: { id: string; name: string };
  source: string;
  preview: DefinitionUpdatePreview;
  /** Set once applied. */
  counts?: DefinitionUpdateCounts;
}

export function updateJson(view: UpdateView): Record<string, unknown> {
  return { project: view.project, api: view.api, source: view.source, preview: view.preview, applied: view.counts !== undefined, ...(view.counts ? { counts: view.counts } : {}) };
}

export function renderPreview(view: UpdateView): string {
  const { preview } = view;
  const lines: string[] = [`Definition update of ${view.api.name} from ${view.source} (${preview.declaredVersion})`];
  section(lines, 'Added', preview.added, operation);
  section(lines, 'Removed', preview.removed, operation);
  section(lines, 'Changed', preview.changed, (c) => `${operation(c)}: ${c.reasons.map((r) => r.replace('-', ' ')).join(', ')}`);
  section(lines, 'Kept edits (envelope kept; action and headers updated)', preview.keptEdits ?? [], (r) => `${r.name} (${operation(r)})`);
  const wide = apiWide(preview);
  if (wide) lines.push(`API-wide: ${wide}`);
  if (preview.added.length + preview.removed.length + preview.changed.length === 0 && !wide) lines.push('No operation was added, removed or changed.');
  section(lines, 'Warnings', preview.warnings, item);
  return `${lines.join('\n')}\n`;
}

export function renderCounts(counts: DefinitionUpdateCounts): string {
  return `Applied: ${plural(counts.added, 'request')} added, ${counts.rewritten} rewritten, ${counts.orphaned} orphaned, ${counts.restored} restored${counts.kept ? `, ${counts.kept} edited kept` : ''}.\n`;
}

function apiWide(preview: DefinitionUpdatePreview): string | undefined {
  const wide = preview.apiWide;
  if (!wide) return undefined;
  const parts: string[] = [];
  if (wide.endpoint) parts.push(`endpoint ${wide.endpoint.from || '(none)'} → ${wide.endpoint.to || '(none)'}`);
  else if (wide.servers) parts.push('servers changed');
  if (wide.security) parts.push('security changed');
  if (wide.version) parts.push(`version ${wide.version.from || '(none)'} → ${wide.version.to || '(none)'}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function section<T>(lines: string[], title: string, items: T[], line: (item: T) => string): void {
  if (items.length === 0) return;
  lines.push(`${title} (${items.length})`);
  for (const i of items) lines.push(`  ${line(i)}`);
}

function operation(op: { method: string; path: string }): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

function scheme(s: SecuritySchemeSummary, nameWidth: number): string {
  const use = s.use ? `usable as ${authLabel(s.use.type)} auth` : `not usable${s.unusable ? `: ${s.unusable}` : ''}`;
  return `${s.name.padEnd(nameWidth)}  ${s.type}${s.details ? `, ${s.details}` : ''}  (${use})`;
}

function authLabel(type: string): string {
  return { basic: 'Basic', bearer: 'Bearer', apikey: 'API key', oauth2: 'OAuth 2', none: 'no auth', inherit: 'inherit' }[type] ?? type;
}

function unimported(u: UnimportedItem): string {
  return `${u.item}: ${u.reason}${where(u)}`;
}

function item(i: ReportItem): string {
  return `${i.message}${where(i)}`;
}

function where(loc: { file?: string; line?: number; path?: string }): string {
  const parts: string[] = [];
  if (loc.file) parts.push(`${loc.file}${loc.line ? `:${loc.line}` : ''}`);
  else if (loc.line) parts.push(`line ${loc.line}`);
  if (loc.path) parts.push(loc.path);
  return parts.length > 0 ? `  (${parts.join(' ')})` : '';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
