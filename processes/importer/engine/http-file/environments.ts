/**
 * HTTP client environment files (JetBrains' http-client.env.json and its private partner
 * http-client.private.env.json, which kulala and httpyac read too): a JSON object of
 * environments, each an object of variables, plus `$shared` for every environment (SPEC ".http
 * import rules"). Each environment becomes a workspace environment (the supervisor renames a
 * taken name and never makes it active). Every private value is a secret, and so is a public
 * value whose name looks like a credential, unless it is made only of {{variables}}. `$shared`
 * becomes properties: the project's with a .http import, the workspace globals' alone.
 *
 * Values that are not strings: numbers and booleans as their text; an object (JetBrains'
 * `Security` auth settings, `$default_headers`, nested values) is not a variable and is reported.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import { isCredentialName } from '../../../../protocol/credentials/names.js';
import type { ImportedEnvironment, ImportedVariable, ReportItem } from '../../../../protocol/model/import.js';
import type { HttpPlaceholders } from './placeholders.js';
import { isPlaceholderOnly } from './placeholders.js';

export const PUBLIC_ENV_FILE = 'http-client.env.json';
export const PRIVATE_ENV_FILE = 'http-client.private.env.json';

export interface EnvFileText {
  /** As named on disk, for messages. */
  name: string;
  text: string;
  private: boolean;
}

export interface ReadEnvironments {
  environments: ImportedEnvironment[];
  /** `$shared` variables, public and private merged (a private one is a secret). */
  shared: ImportedVariable[];
  warnings: ReportItem[];
  notes: ReportItem[];
}

/** Reads the public and private files together: an environment in both gets the variables of both. */
export function readEnvironmentFiles(files: readonly EnvFileText[], placeholders: HttpPlaceholders): ReadEnvironments {
  const byName = new Map<string, Map<string, ImportedVariable>>();
  const shared = new Map<string, ImportedVariable>();
  const warnings: ReportItem[] = [];
  const notes: ReportItem[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    let value: unknown;
    try {
      value = JSON.parse(file.text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new ParleyError('import-malformed', `${file.name} is not valid JSON: ${(err as Error).message.split('\n')[0]}`, { file: file.name });
    }
    if (!isPlainObject(value)) throw new ParleyError('import-malformed', `${file.name} is not an HTTP client environment file: it must be a JSON object of environments.`, { file: file.name });
    for (const [envName, env] of Object.entries(value)) {
      if (!isPlainObject(env)) {
        skipped.push(`${envName} in ${file.name} (not an object of variables)`);
        continue;
      }
      const target = envName === '$shared' ? shared : (byName.get(envName) ?? new Map<string, ImportedVariable>());
      if (envName !== '$shared' && !byName.has(envName)) byName.set(envName, target);
      for (const [name, raw] of Object.entries(env)) {
        const text = scalar(raw);
        if (text === null) {
          skipped.push(`${envName}.${name} in ${file.name} (${name.startsWith('$') ? 'a client setting' : 'an object, not a value'})`);
          continue;
        }
        const converted = placeholders.convert(text);
        const secret = converted !== '' && (file.private || isCredentialName(name)) && !isPlaceholderOnly(text);
        // The private file's value wins over the public one of the same name, as the clients read them.
        if (target.has(name) && !file.private) continue;
        target.set(name, { name, value: converted, enabled: true, secret });
      }
    }
  }
  if (skipped.length > 0) {
    warnings.push({ message: `Not imported: ${skipped.slice(0, 8).join('; ')}${skipped.length > 8 ? `; and ${skipped.length - 8} more` : ''}. Parley environments hold text values; set auth and default headers on the API or its requests.` });
  }
  const environments = [...byName].map(([name, vars]) => ({ name: name.trim() || 'Imported environment', variables: [...vars.values()] }));
  if (environments.length > 0) notes.push({ message: `${environments.length} environment${environments.length === 1 ? '' : 's'} imported; none is made active: choose one in the Environments tab to use it.` });
  return { environments, shared: [...shared.values()], warnings, notes };
}

/** The partner of an environment file by name: public <-> private; null for any other name. */
export function partnerName(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  if (lower === PUBLIC_ENV_FILE) return PRIVATE_ENV_FILE;
  if (lower === PRIVATE_ENV_FILE) return PUBLIC_ENV_FILE;
  return null;
}

/** Whether a file name is the private environment file (a dropped file is read as what its name says). */
export function isPrivateEnvName(fileName: string): boolean {
  return fileName.toLowerCase() === PRIVATE_ENV_FILE || /\.private\.env\.json$/i.test(fileName);
}

function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

