/**
 * One line of a `parley check --batch` file: what was asked and what was answered.
 * Asked: `{"method":"GET","path":"/pets/1","status":200,"contentType":"application/json","body":<any JSON value>}`
 * or `"bodyText":"..."` for a body that is not parsed JSON; optional `"operation":"GET /pets/{petId}"`.
 * Answered: `{"verdict":...,"problems":[{"pointer","message"}],"partial":false}`, plus `"error"`
 * for a line that could not be read.
 */
import { ParleyError } from '../../protocol/errors.js';
import type { OperationLink } from '../../protocol/model/request.js';
import type { Verdict, VerdictKind } from '../../protocol/model/verdict.js';
import type { Exchange } from './checker-session.js';
import { parseOperation } from './operation-arg.js';

export interface Answer {
  verdict: VerdictKind;
  problems: { pointer: string; message: string }[];
  partial: boolean;
  error?: string;
}

const encoder = new TextEncoder();

/** Reads one line; throws `bad-input` whose message starts with `line N:`. */
export function parseBatchLine(text: string, number: number): Exchange {
  const bad = (why: string) => new ParleyError('bad-input', `line ${number}: ${why}`, { line: number });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which may hold body values: say only where.
    throw bad('not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('expected a JSON object');
  const line = value as Record<string, unknown>;
  const { method, path, status, contentType, bodyText, operation } = line;
  if (typeof method !== 'string' || !/^[A-Za-z][A-Za-z-]*$/.test(method)) throw bad('"method" must be an HTTP method such as "GET"');
  if (typeof path !== 'string' || path.trim() === '') throw bad('"path" must be a path or a URL');
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 999) throw bad('"status" must be an integer from 100 to 999');
  if (contentType !== undefined && contentType !== null && typeof contentType !== 'string') throw bad('"contentType" must be a string');
  if ('body' in line && bodyText !== undefined) throw bad('give "body" or "bodyText", not both');
  if (bodyText !== undefined && typeof bodyText !== 'string') throw bad('"bodyText" must be a string');
  let link: OperationLink | undefined;
  if (operation !== undefined) {
    if (typeof operation !== 'string') throw bad('"operation" must be a string such as "GET /pets/{petId}"');
    try {
      link = parseOperation(operation);
    } catch (err) {
      throw bad((err as Error).message);
    }
  }
  const body = 'body' in line ? encoder.encode(JSON.stringify(line.body)) : encoder.encode(typeof bodyText === 'string' ? bodyText : '');
  return {
    method: method.toUpperCase(),
    url: path,
    ...(link ? { operation: link } : {}),
    status,
    ...(typeof contentType === 'string' ? { contentType } : {}),
    body,
  };
}

export function answerOf(verdict: Verdict): Answer {
  return {
    verdict: verdict.kind,
    problems: verdict.problems.map(({ pointer, message }) => ({ pointer, message })),
    partial: verdict.partial,
  };
}

export function badLineAnswer(message: string): Answer {
  return { verdict: 'not-checked', problems: [], partial: false, error: message };
}
