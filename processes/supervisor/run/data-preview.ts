/**
 * The runner's preview of a data file: its first rows, read by the same reader a run uses
 * (data-file.ts), so what the preview shows is what the iterations get. Only the rows shown are
 * read; credential-named columns are masked, as reports name rows.
 */
import { extname } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import { MASK, isCredentialName } from '../../../protocol/credentials/index.js';
import { DATA_PREVIEW_CHARS, DATA_PREVIEW_COLUMNS, DATA_PREVIEW_ROWS, type DataPreview } from '../../../protocol/model/run.js';
import { openDataFile } from './data-file.js';

/** How the app's messages name a data file (the CLI's say `--data <file>`). */
export const appDataLabel = (file: string) => `The data file ${file}`;

export async function previewDataFile(file: string): Promise<DataPreview> {
  const source = await openDataFile(file, appDataLabel(file));
  // A pipe gives its rows once: a preview would take them from the run.
  if (!source.rereadable) throw new ParleyError('bad-input', `${appDataLabel(file)} is not a regular file: it can be read only once, so only the run reads it.`);
  const columns: string[] = [];
  const at = new Map<string, number>();
  const values: Map<string, string>[] = [];
  let more = false;
  for await (const row of source.rows()) {
    if (values.length === DATA_PREVIEW_ROWS) {
      more = true;
      break;
    }
    const byName = new Map<string, string>();
    for (const p of row.properties) {
      if (!at.has(p.name) && columns.length < DATA_PREVIEW_COLUMNS) {
        at.set(p.name, columns.length);
        columns.push(p.name);
      }
      byName.set(p.name, isCredentialName(p.name) ? MASK : p.value);
    }
    values.push(byName);
  }
  if (values.length === 0) throw new ParleyError('bad-input', `${appDataLabel(file)} has no rows.`);
  return {
    file,
    kind: extname(file).toLowerCase() === '.json' ? 'json' : 'csv',
    columns: columns.map(cut),
    rows: values.map((row) => columns.map((name) => cut(row.get(name) ?? ''))),
    more,
  };
}

function cut(text: string): string {
  return text.length > DATA_PREVIEW_CHARS ? `${text.slice(0, DATA_PREVIEW_CHARS)}…` : text;
}
