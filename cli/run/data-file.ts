/**
 * `parley run --data <file.csv|file.json>`: one iteration per row, each row's columns laid over
 * the project's properties for that iteration. CSV is read by csv-parse (a header line names the
 * columns; quotes, embedded commas and line breaks, a BOM); JSON is an array of objects whose
 * values are strings, numbers, booleans or null. Every row is checked before anything is sent.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ParleyError } from '../../protocol/errors.js';
import type { Row } from '../../protocol/model/common.js';
import { isCredentialName } from '../../protocol/credentials/index.js';

/** A data file larger than this is refused: its rows are all held while the run goes on. */
const MAX_DATA_BYTES = 50 * 1024 * 1024;

export interface DataRow {
  /** 1-based, in file order. */
  number: number;
  /** The columns as properties for the iteration. */
  properties: Row[];
}

export async function readDataFile(file: string): Promise<DataRow[]> {
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError('bad-input', `--data ${file} cannot be read (${err.code ?? err.message}).`);
  });
  if (!info.isFile()) throw new ParleyError('bad-input', `--data ${file} is not a file.`);
  if (info.size > MAX_DATA_BYTES) throw new ParleyError('bad-input', `--data ${file} is over ${MAX_DATA_BYTES / 1024 / 1024} MB.`);
  const text = await readFile(file, 'utf8');
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return jsonRows(text, file);
  if (ext === '.csv') return csvRows(text, file);
  throw new ParleyError('bad-input', `--data ${file}: give a .csv or a .json file.`);
}

export function csvRows(text: string, file: string): DataRow[] {
  let lines: string[][];
  try {
    // Rows as arrays, not objects keyed by the header: a `__proto__` column would be lost in an object.
    lines = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (err) {
    throw new ParleyError('bad-input', `--data ${file} is not valid CSV: ${(err as Error).message}`);
  }
  const [header, ...records] = lines;
  if (!header) return [];
  return records.map((record, i) => ({ number: i + 1, properties: header.map((name, c) => ({ name, value: record[c] ?? '', enabled: true })) }));
}

export function jsonRows(text: string, file: string): DataRow[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ParleyError('bad-input', `--data ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) throw new ParleyError('bad-input', `--data ${file} must be a JSON array of objects, one per iteration.`);
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ParleyError('bad-input', `--data ${file}: item ${i + 1} is not an object.`);
    const properties: Row[] = [];
    for (const [name, field] of Object.entries(item as Record<string, unknown>)) {
      if (field !== null && typeof field === 'object') throw new ParleyError('bad-input', `--data ${file}: item ${i + 1}, "${name}" is not a string, number, boolean or null.`);
      properties.push({ name, value: field === null ? '' : String(field), enabled: true });
    }
    return { number: i + 1, properties };
  });
}

/** How reports name a row: its number and its first columns, credential-named ones masked. */
export function rowLabel(row: DataRow): string {
  const shown = row.properties
    .slice(0, 3)
    .map((p) => `${p.name}=${isCredentialName(p.name) ? '••••••' : p.value.length > 24 ? `${p.value.slice(0, 24)}…` : p.value}`)
    .join(', ');
  return `row ${row.number}${shown ? ` (${shown}${row.properties.length > 3 ? ', …' : ''})` : ''}`;
}
