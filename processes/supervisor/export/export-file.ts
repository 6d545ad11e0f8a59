/**
 * An export from start to end, for the app (ui-api's `export.run`) and `parley export` alike:
 * read the API or folder from the open project, convert it (pure code, the exporter engine) and
 * write the file in one step (a temporary file renamed over it, so a half-written export never
 * stands under the name).
 */
import { link, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import type { ExportDone, ExportFormat, ExportTarget } from '../../../protocol/export/scope.js';
import { convertExport } from '../../importer/engine/export/index.js';
import type { ProjectStore } from '../store/project-store.js';
import { readExportScope } from './read-scope.js';

/**
 * `replace`: the command line's --out replaces a file (as a shell redirect would); the app never
 * replaces one (as its other exports), and says so.
 */
export async function exportToFile(store: ProjectStore, target: ExportTarget, format: ExportFormat, file: string, options: { replace: boolean }): Promise<ExportDone> {
  const scope = await readExportScope(store, target);
  const { text, ...rest } = convertExport(scope, format);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text);
    // A link fails on an existing name, where a rename would replace it.
    if (options.replace) await rename(temp, file);
    else await link(temp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new ParleyError('file-exists', `${file} already exists: choose another name.`);
    throw new ParleyError('save-failed', `The export could not be written to ${quote(file)}: ${code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message}.`);
  } finally {
    await rm(temp, { force: true });
  }
  return { file, ...rest };
}
