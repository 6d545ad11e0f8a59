/**
 * An export from start to end, for the app (ui-api's `export.run`) and `parley export` alike:
 * read the API or folder from the open project, convert it (pure code, the exporter engine) and
 * write the file in one step (a temporary file renamed over it, so a half-written export never
 * stands under the name).
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import type { ExportFormat, ExportResult } from '../../../protocol/export/scope.js';
import { convertExport } from '../../importer/engine/export/index.js';
import type { ProjectStore } from '../store/project-store.js';
import { readExportScope } from './read-scope.js';

export interface ExportDone extends Omit<ExportResult, 'text'> {
  file: string;
}

export async function exportToFile(store: ProjectStore, target: { kind: 'api' | 'folder'; id: string }, format: ExportFormat, file: string): Promise<ExportDone> {
  const scope = await readExportScope(store, target);
  const { text, ...rest } = convertExport(scope, format);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    throw new ParleyError('save-failed', `The export could not be written to ${quote(file)}: ${code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message}.`);
  }
  return { file, ...rest };
}
