/**
 * Shared by the fuzz tests (RELIABILITY.md): how many cases, from which seed, and what a failure
 * may look like. In the suite a seeded small set runs (the same cases every time); `bench/fuzz.mjs`
 * runs 10,000 per target with a fresh seed and records the figures.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { ParleyError } from '../../protocol/errors.js';
import { PROTOTYPE_NAMES } from '../support/prototype-names.js';

const runs = Number(process.env.FUZZ_RUNS ?? '');
const seed = Number(process.env.FUZZ_SEED ?? '');

/** fast-check's parameters: FUZZ_RUNS cases (default 60) from FUZZ_SEED (default a fixed one). */
export const FUZZ = { numRuns: Number.isInteger(runs) && runs > 0 ? runs : 60, seed: Number.isInteger(seed) ? seed : 2611, endOnFailure: true };

/**
 * A fuzz test's time limit: `ms` in the suite's seeded set; none when FUZZ_RUNS asks for more (the
 * bench's 10,000 cases of the project loader took over 10 minutes at load 15, and a timeout is not a finding).
 */
export function fuzzTimeout(ms: number): number {
  return Number.isInteger(runs) && runs > 0 ? 0 : ms;
}

/** What a library says when it was handed something it did not expect: never what a user should read. */
const LIBRARY_ERROR = /is not a function|Cannot read properties|Cannot set properties|undefined \(reading|is not iterable|Maximum call stack|\[object Object\]/;

/** A failure is acceptable only as a typed error with a code and a human message. */
export function expectTyped(err: unknown, what: string): void {
  if (!(err instanceof ParleyError)) throw new Error(`${what} threw ${(err as Error)?.name ?? typeof err}, not a typed error: ${(err as Error)?.message ?? String(err)}`);
  expect(err.code, `${what}: error code`).toMatch(/^[a-z][a-z0-9-]*$/);
  expect(err.message.length, `${what}: message`).toBeGreaterThan(0);
  expect(err.message, `${what}: message`).not.toMatch(LIBRARY_ERROR);
}

/** Fragments that break parsers: structure, escapes, entities, references, prototype names, sizes. */
const FRAGMENTS = [
  '{', '}', '[', ']', '"', "'", ',', ':', '\\', '\u0000', '\uFFFF', '\uD800', '\n', '\r\n', '\t', '<', '>', '/>', '</x>', '&', '&amp;', '&#0;', '&#x110000;',
  '<!DOCTYPE x [<!ENTITY e "e">]>', '<!ENTITY x SYSTEM "file:///etc/passwd">', '<![CDATA[', ']]>', '<?xml version="1.0"?>',
  '"$ref": "#/nowhere"', '"$ref": "../../etc/passwd"', '"$ref": "#/"', '{"$ref": "#"}', '- ', '---', '&anchor', '*anchor', '!!binary', '? ', '| ', '> ',
  'null', 'true', '-1', '1e999', '0x1F', 'NaN', '""', '[]', '{}', '"${x}"', '{{x}}', 'http://127.0.0.1:1/', 'file:///etc/passwd', '../../x', 'C:\\x',
  ...PROTOTYPE_NAMES.flatMap((n) => [n, `"${n}"`, `"${n}": {}`]),
];

type Edit = { kind: 'cut'; at: number; length: number } | { kind: 'insert'; at: number; text: string } | { kind: 'repeat'; at: number; length: number; times: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 16 }), fc.constant('x'.repeat(100_000))) }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 32 }), times: fc.integer({ min: 2, max: 50 }) }),
);

function apply(text: string, e: Edit): string {
  const at = text.length === 0 ? 0 : e.at % (text.length + 1);
  if (e.kind === 'cut') return text.slice(0, at) + text.slice(at + e.length);
  if (e.kind === 'insert') return text.slice(0, at) + e.text + text.slice(at);
  return text.slice(0, at) + text.slice(at, at + e.length).repeat(e.times) + text.slice(at);
}

/** A real file damaged by 1 to 8 edits, cut short, or replaced by noise. */
export function mutated(seedText: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(edit, { minLength: 1, maxLength: 8 }).map((edits) => edits.reduce(apply, seedText)) },
    { weight: 1, arbitrary: fc.nat({ max: seedText.length }).map((n) => seedText.slice(0, n)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 512 }) },
  );
}
