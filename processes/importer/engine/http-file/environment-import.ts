/**
 * An HTTP client environment file on its own (SPEC ".http import rules", item 2 of issue 31): a
 * picked file brings its public or private partner from beside it; a file is read as what its
 * name says (public or private); pasted JSON is the public file. Environments land in the
 * workspace; `$shared` goes to the workspace globals (an existing global keeps its value), a
 * private or credential-looking one as a secret.
 */
import { basename, dirname } from 'node:path';
import { ParleyError } from '../../../../protocol/errors.js';
import type { ImportResult, ReportItem } from '../../../../protocol/model/import.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { BodyFiles, textOf } from './body-files.js';
import { isPrivateEnvName, partnerName, readEnvironmentFiles, type EnvFileText } from './environments.js';
import { HttpPlaceholders } from './placeholders.js';

export async function convertEnvironmentFile(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const name = input.name ? basename(input.name) : 'The pasted text';
  const files: EnvFileText[] = [{ name, text: input.text, private: input.name ? isPrivateEnvName(name) : false }];
  const notes: ReportItem[] = [];
  const warnings: ReportItem[] = [];
  const partner = input.location?.kind === 'file' ? partnerName(name) : null;
  if (partner && input.location?.kind === 'file') {
    try {
      const text = textOf(await new BodyFiles(dirname(input.location.path)).read(partner));
      if (text === null) warnings.push({ message: `${partner} beside the file is not UTF-8 text and was not read.` });
      else {
        files.push({ name: partner, text, private: isPrivateEnvName(partner) });
        notes.push({ message: `${partner} beside the file was read with it.` });
      }
    } catch (err) {
      if (!/not found/.test((err as Error).message)) warnings.push({ message: `${partner} beside the file was not read: ${(err as Error).message}` });
    }
  }
  // The public file first: a private value of the same name wins.
  files.sort((a, b) => Number(a.private) - Number(b.private));
  const placeholders = new HttpPlaceholders();
  const read = readEnvironmentFiles(files, placeholders);
  if (read.environments.length === 0 && read.shared.length === 0) throw new ParleyError('import-empty', `${name} holds no environments.`);
  warnings.push(...read.warnings, ...placeholders.warnings().map((message) => ({ message })));
  notes.push(...read.notes);
  if (read.shared.length > 0) notes.push({ message: `$shared became workspace globals (${read.shared.length}); an existing global keeps its value.` });
  return {
    apis: [],
    ...(read.environments.length > 0 ? { environments: read.environments } : {}),
    ...(read.shared.length > 0 ? { globals: read.shared } : {}),
    report: {
      format: 'http-env',
      declaredVersion: 'http-client-env',
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
    },
  };
}
