/**
 * The console log of `parley mock serve`: one line per request (time, method and path, status,
 * operation and response, duration), then the contract problems the check found and the notes
 * (why a check gave up, a template or script failed, the script's log lines), indented under it.
 * Paths and headers arrive already masked by the mock host.
 */
import type { MockLogEntry } from '../../protocol/model/mock.js';

/** Entries printed per batch; past it, a count, so a load test does not flood the terminal. */
export const LINES_PER_BATCH = 20;
/** Problems and notes printed under one request; past it, a count. */
export const DETAILS_PER_ENTRY = 5;
/** Characters of one value printed (a path, a name, a note): a request's line stays a line. */
export const LINE_VALUE_CHARS = 300;

export function formatLogEntry(e: MockLogEntry): string {
  const time = e.time.slice(11, 23);
  const answer = e.operation ? `${oneLine(e.operation)}${e.responseName ? ` › ${oneLine(e.responseName)}` : ''}` : '-';
  const problems = e.problems.length === 0 ? '' : `  ${e.problems.length} contract problem${e.problems.length === 1 ? '' : 's'}`;
  let out = `${time}  ${oneLine(e.method)} ${oneLine(e.path)}  → ${e.status}  ${answer}  ${e.durationMs} ms${problems}\n`;
  const details = [
    ...e.problems.map((p) => `${p.in}${p.pointer ? ` ${p.pointer}` : ''}: ${p.message}`),
    ...e.notes,
  ];
  for (const line of details.slice(0, DETAILS_PER_ENTRY)) out += `              ${oneLine(line)}\n`;
  if (details.length > DETAILS_PER_ENTRY) out += `              … and ${details.length - DETAILS_PER_ENTRY} more\n`;
  return out;
}

export function formatLogBatch(entries: readonly MockLogEntry[]): string {
  const shown = entries.slice(0, LINES_PER_BATCH);
  let out = '';
  for (const e of shown) out += formatLogEntry(e);
  if (entries.length > shown.length) out += `… and ${entries.length - shown.length} more requests\n`;
  return out;
}

function oneLine(text: string): string {
  // Cut first: the value may be long, and only its start is printed.
  const start = text.length > LINE_VALUE_CHARS * 2 ? text.slice(0, LINE_VALUE_CHARS * 2) : text;
  const flat = start.replace(/\s*[\r\n]+\s*/g, ' ');
  return flat.length > LINE_VALUE_CHARS || start !== text ? `${flat.slice(0, LINE_VALUE_CHARS - 1)}…` : flat;
}
