/**
 * `parley run --data <file.csv|file.json>`: one iteration per row, each row's columns laid over
 * the project's properties for that iteration. The file is read as the run goes, never whole: a
 * row is parsed when its iteration comes, so the first request goes out while the rest of the
 * file is still unread (a FIFO still being written, a file of millions of rows), and memory holds
 * one row, not the file. A row that does not read stops the run there, after the rows before it
 * ran.
 *
 * CSV is read by csv-parse's streaming parser (a header line names the columns; quotes, embedded
 * commas and line breaks, a BOM). JSON is an array of objects whose values are strings, numbers,
 * booleans or null, read token by token by stream-json's parser: an item is checked as its
 * tokens arrive, and one with a nested value is refused at that value, before it is built.
 * A row over MAX_ROW_CHARS is refused either way, so one hostile row cannot fill the memory.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { jsonParser } from 'stream-json/core/parser.js';
import { getManyValues, isMany, none, type Many } from 'stream-chain/defs.js';
import { ParleyError, quote } from '../../../protocol/errors.js';
import type { Row } from '../../../protocol/model/common.js';
import { isCredentialName } from '../../../protocol/credentials/index.js';

/** The longest row (its names and values, in characters) a data file may have. */
export const MAX_ROW_CHARS = 1024 * 1024;

export interface DataRow {
  /** 1-based, in file order. */
  number: number;
  /** The columns as properties for the iteration. */
  properties: Row[];
}

/** A data file, read from its start each time `rows()` is iterated. */
export interface DataSource {
  readonly file: string;
  /** How messages name the file: `--data <file>` for the CLI, `The data file <file>` in the app. */
  readonly label: string;
  /** Whether the file can be read again from its start (a regular file; a FIFO cannot). */
  readonly rereadable: boolean;
  rows(): AsyncIterable<DataRow>;
  /** How far the current read has got through the file, 0..1; undefined when its size is not known. */
  fraction(): number | undefined;
}

/** Checks the file is there and of a known kind; reads nothing yet. */
export async function openDataFile(file: string, label = `--data ${file}`): Promise<DataSource> {
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError('bad-input', `${label} cannot be read (${err.code ?? err.message}).`);
  });
  if (!info.isFile() && !info.isFIFO()) throw new ParleyError('bad-input', `${label} is not a file.`);
  const ext = extname(file).toLowerCase();
  if (ext !== '.json' && ext !== '.csv') throw new ParleyError('bad-input', `${label}: give a .csv or a .json file.`);
  const size = info.isFile() ? info.size : undefined;
  /** Bytes of the file up to the end of the row handed out last. */
  let position = 0;
  const at = (bytes: number) => void (position = bytes);
  return {
    file,
    label,
    rereadable: info.isFile(),
    rows() {
      position = 0;
      const input = createReadStream(file);
      return ext === '.csv' ? csvRows(input, label, at) : jsonRows(input, label, at);
    },
    fraction: () => (size === undefined || size === 0 ? undefined : Math.min(1, position / size)),
  };
}

/** `at` is told, with each row, how many bytes of the input it and the rows before it took. */
export async function* csvRows(input: Readable, label: string, at?: (bytes: number) => void): AsyncGenerator<DataRow> {
  // A parse error destroys a stream parser and the records it holds, so errors are only noted
  // (the parser skips the bad record) and the input stops there: the records before the bad one
  // still come out, and the run stops where the file went wrong, not up to 64 KB before it.
  let failure: { error: Error; before: number } | undefined;
  // Rows as arrays, not objects keyed by the header: a `__proto__` column would be lost in an object.
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    max_record_size: MAX_ROW_CHARS,
    skip_records_with_error: true,
    // Each record with the parser's counts when it was made: its end's place in the file.
    info: true,
    on_skip: (error) => {
      if (failure || !error) return;
      failure = { error, before: (error as Error & { records?: number }).records ?? 0 };
      input.unpipe(parser);
      input.destroy();
      parser.end();
    },
  });
  input.once('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | undefined;
  let records = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      if (failure && records >= failure.before) break;
      records++;
      if (!header) header = record;
      else {
        at?.(info.bytes);
        yield { number: records - 1, properties: header.map((name, c) => ({ name, value: record[c] ?? '', enabled: true })) };
      }
    }
    if (failure) throw failure.error;
  } catch (err) {
    throw unreadable(err, label, 'CSV');
  } finally {
    input.unpipe(parser);
    input.destroy();
    parser.destroy();
  }
}

type Token = { name: string; value?: unknown };

/**
 * Rows from a JSON array of flat objects, as the parser's tokens arrive (strings, keys and
 * numbers in chunks, so even one long value is counted before it is whole). The text goes to
 * the tokenizer up to each `}` in turn, so that every item before a syntax error is yielded:
 * the tokenizer's error drops the tokens of the text it was given.
 */
export async function* jsonRows(input: Readable, label: string, at?: (bytes: number) => void): AsyncGenerator<DataRow> {
  const tokenize = jsonParser({ packValues: false, streamValues: true });
  const items = new JsonItems(label);
  input.setEncoding('utf8');
  let first = true;
  let bytes = 0;
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      // The tokenizer refuses a byte order mark; a file saved by Windows tools starts with one.
      const text = first && chunk.startsWith('\uFEFF') ? chunk.slice(1) : chunk;
      first = false;
      for (let from = 0; from < text.length; ) {
        const brace = text.indexOf('}', from);
        const to = brace < 0 ? text.length : brace + 1;
        const piece = text.slice(from, to);
        bytes += Buffer.byteLength(piece);
        const row = items.take(tokensOf(tokenize(piece)));
        if (row) {
          at?.(bytes);
          yield row;
        }
        from = to;
      }
    }
    // `none` asks the tokenizer for what it still holds (a number at the very end), and fails a truncated text.
    const row = items.take(tokensOf(tokenize(none as unknown as string)));
    if (row) yield row;
    items.end();
  } catch (err) {
    if (err instanceof ParleyError) throw err;
    throw unreadable(err, label, 'JSON', items.complete === 0 ? 'before its first item' : `after item ${items.complete}`);
  } finally {
    input.destroy();
  }
}

function tokensOf(result: unknown): Token[] {
  return isMany(result) ? getManyValues(result as Many<Token>) : [];
}

/** The items of the array, built token by token; an item is handed out at its `}`. */
class JsonItems {
  /** Items begun, and items read whole. */
  number = 0;
  complete = 0;
  private state: 'start' | 'array' | 'object' | 'value' | 'end' = 'start';
  private properties: Row[] = [];
  /** Where each name of the item is. */
  private at = new Map<string, number>();
  private chars = 0;
  private text = '';
  private name = '';

  constructor(private readonly label: string) {}

  /** Reads the tokens; answers the item they end (a piece of text holds at most one `}`). */
  take(tokens: Token[]): DataRow | undefined {
    let done: DataRow | undefined;
    for (const token of tokens) {
      switch (token.name) {
        case 'startArray':
          if (this.state === 'start') this.state = 'array';
          else if (this.state === 'array') throw this.refuse(`: item ${this.number + 1} is not an object.`);
          else throw this.nested();
          break;
        case 'endArray':
          this.state = 'end';
          break;
        case 'startObject':
          if (this.state === 'start') throw this.notArray();
          if (this.state === 'value') throw this.nested();
          this.number++;
          this.properties = [];
          this.at = new Map();
          this.chars = 0;
          this.state = 'object';
          break;
        case 'endObject':
          done = { number: this.number, properties: this.properties };
          this.complete = this.number;
          this.state = 'array';
          break;
        case 'startKey':
        case 'startString':
        case 'startNumber':
          this.scalar();
          this.text = '';
          break;
        case 'stringChunk':
        case 'numberChunk':
          this.chars += (token.value as string).length;
          if (this.chars > MAX_ROW_CHARS) throw this.refuse(`: item ${this.number} is over ${MAX_ROW_CHARS / 1024 / 1024} MB.`);
          this.text += token.value as string;
          break;
        case 'endKey':
          this.name = this.text;
          this.state = 'value';
          break;
        case 'endString':
          this.put(this.text);
          break;
        case 'endNumber':
          // The number as JSON.parse reads it (`1.50` is 1.5), as before the file was streamed.
          this.put(String(Number(this.text)));
          break;
        case 'trueValue':
        case 'falseValue':
        case 'nullValue':
          this.scalar();
          this.put(token.value === null ? '' : String(token.value));
          break;
      }
    }
    return done;
  }

  /** The text ended: it must have closed its array. */
  end(): void {
    if (this.state === 'start') throw this.notArray();
    if (this.state !== 'end') throw this.refuse(` is not valid JSON (after item ${this.complete}): it ends before its array does.`);
  }

  /** A scalar may only be a value of an item. */
  private scalar(): void {
    if (this.state === 'start') throw this.notArray();
    if (this.state === 'array') throw this.refuse(`: item ${this.number + 1} is not an object.`);
  }

  private put(value: string): void {
    const i = this.at.get(this.name);
    const row = { name: this.name, value, enabled: true };
    // As JSON.parse: a repeated name keeps its first place and its last value.
    if (i === undefined) {
      this.at.set(this.name, this.properties.length);
      this.properties.push(row);
    } else this.properties[i] = row;
    this.state = 'object';
  }

  private notArray(): ParleyError {
    return this.refuse(' must be a JSON array of objects, one per iteration.');
  }

  private nested(): ParleyError {
    return this.refuse(`: item ${this.number}, ${quote(this.name)} is not a string, number, boolean or null.`);
  }

  private refuse(message: string): ParleyError {
    return new ParleyError('bad-input', `${this.label}${message}`);
  }
}

/** A read that failed (the file went away) or a parse that did (the parser's words, which name the place). */
function unreadable(err: unknown, label: string, kind: string, where?: string): ParleyError {
  const e = err as NodeJS.ErrnoException;
  if (e.syscall !== undefined) return new ParleyError('bad-input', `${label} cannot be read (${e.code ?? e.message}).`);
  return new ParleyError('bad-input', `${label} is not valid ${kind}${where ? ` (${where})` : ''}: ${e.message}`);
}

/** How reports name a row: its number and its first columns, credential-named ones masked. */
export function rowLabel(row: DataRow): string {
  const shown = row.properties
    .slice(0, 3)
    .map((p) => `${p.name}=${isCredentialName(p.name) ? '••••••' : p.value.length > 24 ? `${p.value.slice(0, 24)}…` : p.value}`)
    .join(', ');
  return `row ${row.number}${shown ? ` (${shown}${row.properties.length > 3 ? ', …' : ''})` : ''}`;
}
