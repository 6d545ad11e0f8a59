/**
 * Postman environment and globals exports into workspace environments and globals (SPEC
 * "Environment and globals import rules"). The importer only reads and converts: renaming a
 * taken environment name, keeping existing globals and secrets, storing secret values in the
 * secret store (and saying where) and never making an environment active are the supervisor's,
 * which sees the workspace (processes/supervisor/imports/import-service.ts).
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { ImportResult, ImportedVariable, ReportItem } from '../../../../protocol/model/import.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { exportKind } from './detect.js';
import { isObject, readPostmanJson, scalarText } from './read-json.js';
import { PlaceholderConverter } from './variables.js';

export async function convertPostmanExport(input: ImportInput, ctx: ImportContext, want: 'environment' | 'globals'): Promise<ImportResult> {
  const file = input.name ?? 'The pasted text';
  const value = readPostmanJson(input.text, file);
  refuseOtherExports(value, input.text, file, want);
  if (!isObject(value)) throw notAnExport(file);
  const values = value.values;
  if (!Array.isArray(values)) throw notAnExport(file);

  const warnings: ReportItem[] = [];
  const notes: ReportItem[] = [];
  const placeholders = new PlaceholderConverter();
  const variables: ImportedVariable[] = [];
  const emptySecrets: string[] = [];
  values.forEach((entry, index) => {
    const path = `/values/${index}`;
    if (!isObject(entry) || typeof entry.key !== 'string' || entry.key.trim() === '') {
      warnings.push({ message: 'A value with no name was skipped.', path });
      return;
    }
    const secret = entry.type === 'secret';
    const text = placeholders.convert(scalarText(entry.value));
    if (secret && text === '') emptySecrets.push(entry.key);
    variables.push({ name: entry.key, value: text, enabled: entry.enabled !== false, secret });
    ctx.onProgress?.({ phase: 'convert', message: `Read ${variables.length} variable${variables.length === 1 ? '' : 's'}`, items: variables.length });
  });
  if (emptySecrets.length > 0) {
    warnings.push({ message: `${list(emptySecrets)} ${emptySecrets.length === 1 ? 'is a secret' : 'are secrets'} with no exported value: ${emptySecrets.length === 1 ? 'it arrives' : 'they arrive'} empty, with nothing stored. Set ${emptySecrets.length === 1 ? 'it' : 'them'} in the Environments tab.` });
  }
  const dynamic = placeholders.warning();
  if (dynamic) warnings.push({ message: dynamic });
  const disabled = variables.filter((v) => !v.enabled).length;
  if (disabled > 0) notes.push({ message: `${disabled} disabled variable${disabled === 1 ? '' : 's'} arrive${disabled === 1 ? 's' : ''} disabled.` });

  const report = {
    format: want === 'environment' ? 'postman-environment' : 'postman-globals',
    declaredVersion: want === 'environment' ? 'postman-environment' : 'postman-globals',
    baseUrl: '',
    requestCount: 0,
    folderCount: 0,
    webhookCount: 0,
    securitySchemes: [],
    unimported: [],
    warnings,
    errors: [],
    notes,
    importedAt: ctx.now().toISOString(),
  };
  if (want === 'globals') return { apis: [], globals: variables, report };
  const name = typeof value.name === 'string' && value.name.trim() !== '' ? value.name.trim() : fallbackName(input.name);
  if (name !== value.name) notes.push({ message: `The export names no environment: it was imported as ${name}.` });
  notes.push({ message: `The environment is not made active: choose it in the Environments tab to use it.` });
  return { apis: [], environments: [{ name, variables }], report };
}

/** SPEC: a data dump, a zip and any JSON that is not one environment or globals export are refused. */
function refuseOtherExports(value: unknown, text: string, file: string, want: 'environment' | 'globals'): void {
  const kind = exportKind(text);
  if (kind === 'dump' && isObject(value)) {
    const collections = Array.isArray(value.collections) ? value.collections.length : 0;
    const environments = Array.isArray(value.environments) ? value.environments.length : 0;
    throw new ParleyError(
      'import-refused',
      `${file} is a Postman data dump (${collections} collection${collections === 1 ? '' : 's'}, ${environments} environment${environments === 1 ? '' : 's'}), which is not imported: export each environment or the globals on its own from Postman and import those files.`,
      { file },
    );
  }
  if (isObject(value) && isObject(value.info)) throw new ParleyError('import-refused', `${file} is a Postman collection, not an environment or globals export: choose Postman collection (or Auto-detect).`, { file });
  if (kind === 'globals' && want === 'environment') throw new ParleyError('import-refused', `${file} is a Postman globals export: choose Postman globals export (or Auto-detect) to merge it into the workspace Globals.`, { file });
  if (kind === 'environment' && want === 'globals' && isObject(value) && value._postman_variable_scope === 'environment') {
    throw new ParleyError('import-refused', `${file} is a Postman environment export: choose Postman environment export (or Auto-detect).`, { file });
  }
}

function notAnExport(file: string): ParleyError {
  return new ParleyError('import-refused', `${file} is not a Postman environment or globals export: it has no list of values. Export one environment (or the globals) from Postman and import that file.`, { file });
}

function fallbackName(fileName: string | undefined): string {
  const base = fileName?.replace(/\.postman_environment\.json$/i, '').replace(/\.json$/i, '').trim();
  return base || 'Imported environment';
}

function list(names: string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}
