import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileEcmaPattern } from './regex.js';

function compiled(source: string, legacy = false) {
  const result = compileEcmaPattern(source, { legacy });
  if (!result.ok) throw new Error(`${source} did not compile: ${result.message}`);
  return result.pattern;
}

describe('compileEcmaPattern', () => {
  it('runs a catastrophically backtracking pattern in linear time', () => {
    const p = compiled('^(a+)+$');
    expect(p.linear).toBe(true);
    // V8's own engine needs minutes for this; the linear engine answers at once.
    expect(p.testLinear(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(p.test('a'.repeat(5000))).toBe(true);
  });

  it.each([
    // ECMA-262 meaning kept where RE2's differs
    ['^.$', ['a', '😀', '\u00e9'], ['\n', '\r', '\u2028', '\u2029', 'ab']],
    ['^\\s$', [' ', '\t', '\u00a0', '\u2028', '\ufeff', '\u3000'], ['x', '\u200b']],
    ['^\\S$', ['x', '\u200b', '😀'], [' ', '\u00a0']],
    ['^[^\\S]$', [' ', '\ufeff'], ['x']],
    ['^[\\s\\d]+$', [' 1\u00a02'], ['x']],
    ['^[[:a]+$', ['[:a', '::'], ['b', ']']],
    ['^a#b c$', ['a#b c'], ['a#bc']],
    ['^\\u{1F600}$', ['😀'], ['\ud83d']],
    ['^\\uD83D\\uDE00$', ['😀'], ['\ud83d']],
    ['^\\cJ\\0$', ['\n\0'], ['\n']],
    ['^[\\b]$', ['\b'], ['b']],
    ['\\bfoo\\b', ['a foo.', 'foo'], ['afoob', 'föo']],
    ['^\\p{Lu}\\p{Letter}\\P{L}$', ['Ab1'], ['ab1', 'Abc']],
    ['^\\p{Script=Greek}+$', ['αβγ'], ['abc']],
    ['^\\p{General_Category=Decimal_Number}$', ['7', '٣'], ['x']],
    ['^(?<year>\\d{4})-(?:\\d\\d)$', ['2024-05'], ['24-05']],
    ['^a{2,3}?b*?$', ['aa', 'aaab'], ['a', 'aaaa']],
    ['[]', [], ['', 'a']],
    ['^[^]$', ['a', '\n'], ['']],
    ['^[a-]$', ['a', '-'], ['b']],
    ['^[\\-\\]\\\\]+$', ['-]\\'], ['a']],
    ['^\\/\\.\\*$', ['/.*'], ['/a*']],
    ['', ['', 'anything'], []],
  ])('%s keeps its ECMA-262 meaning on the linear engine', (source, yes, no) => {
    const p = compiled(source);
    expect(p.linear).toBe(true);
    for (const s of yes) expect(p.testLinear(s), JSON.stringify(s)).toBe(true);
    for (const s of no) expect(p.testLinear(s), JSON.stringify(s)).toBe(false);
  });

  it.each([
    ['(?=a)a', 'it uses a lookahead'],
    ['^(?!admin)\\w+$', 'it uses a lookahead'],
    ['(?<=a)b', 'it uses a lookbehind'],
    ['(a)\\1', 'it uses a backreference'],
    ['(?<x>a)\\k<x>', 'it uses a backreference'],
    ['^a{1001}$', 'it is beyond the linear engine (a repeat count over 1,000, or a pattern too large)'],
    ['\\p{Script=Grek}', 'it is beyond the linear engine (a repeat count over 1,000, or a pattern too large)'],
    ['\\p{Script_Extensions=Greek}', 'it uses the property \\p{Script_Extensions=Greek}'],
  ])('%s needs the backtracking engine: %s', (source, reason) => {
    const p = compiled(source);
    expect(p.linear).toBe(false);
    expect(p.backtrackingReason).toBe(reason);
    // Never a silent answer from the linear side.
    expect(p.testLinear('ab')).toBeUndefined();
    expect(typeof p.test('ab')).toBe('boolean');
  });

  it('reads a legacy (non-Unicode) pattern only when asked, linearly unless the text leaves the BMP', () => {
    expect(compileEcmaPattern('^[\\w-.]+$')).toMatchObject({ ok: false });
    const p = compiled('^[\\w-.]+$', true);
    expect(p.testLinear('a-b.c_1')).toBe(true);
    expect(p.testLinear('a b')).toBe(false);
    expect(p.testLinear('a😀')).toBeUndefined();
    expect(p.test('a😀')).toBe(false);
    expect(compiled('^\\_.{2}$', true).test('_😀')).toBe(true); // two code units
    expect(compiled('^\\_\\{,2}$', true).testLinear('_{,2}')).toBe(true);
  });

  it('refuses what is not a regular expression, without repeating the pattern', () => {
    const result = compileEcmaPattern('a(b', { legacy: true });
    expect(result).toEqual({ ok: false, message: 'Unterminated group' });
  });

  it('agrees with V8 on random patterns and strings (property)', () => {
    const alphabet = ['a', 'b', 'c', '1', '_', ' ', '-', '.', '\n', '\r', '\u2028', '\u00a0', 'é', 'Ω', '😀', '[', ']', '\ud800'];
    const literal = fc.constantFrom('a', 'b', 'c', '1', '_', ' ', '\\-', '\\.', '\\n', 'é', 'Ω', '😀', '\\[', '\\]', '#', ':', '\\u00a0');
    const classItem = fc.constantFrom('a', 'b-c', '0-9', '\\d', '\\w', '\\s', '\\S', '\\W', '\\D', '.', '-', 'é', '😀', '\\p{L}', '\\]', '[', ':', '\\b');
    const { pattern } = fc.letrec((tie) => ({
      atom: fc.oneof(
        { depthSize: 'small' },
        literal,
        fc.constantFrom('.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\p{Lu}', '\\P{L}', '\\u{1F600}'),
        fc.tuple(fc.boolean(), fc.array(classItem, { maxLength: 4 })).map(([neg, items]) => `[${neg ? '^' : ''}${items.join('')}]`),
        tie('group'),
      ),
      group: fc.tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('alternation')).map(([open, body]) => `${open}${body})`),
      quantified: fc.tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '{1,3}', '{2}', '*?', '+?')).map(([a, q]) => `${a}${q}`),
      sequence: fc.tuple(fc.constantFrom('', '^', '\\b'), fc.array(tie('quantified'), { maxLength: 4 }), fc.constantFrom('', '$', '\\B')).map(([s, items, e]) => `${s}${items.join('')}${e}`),
      alternation: fc.array(tie('sequence'), { minLength: 1, maxLength: 3 }).map((alts) => alts.join('|')),
      pattern: tie('alternation'),
    }));
    const validPattern = (pattern as fc.Arbitrary<string>).filter((p) => {
      try {
        new RegExp(p, 'u');
        return !p.includes('(?<g>') || p.split('(?<g>').length === 2;
      } catch {
        return false;
      }
    });
    const input = fc.array(fc.constantFrom(...alphabet), { maxLength: 10 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(validPattern, fc.array(input, { minLength: 1, maxLength: 8 }), (source, inputs) => {
        const p = compiled(source);
        const native = new RegExp(source, 'u');
        for (const s of inputs) {
          // V8 tries \B between the two halves of a surrogate pair, a position ECMA-262 never visits in Unicode mode.
          if (source.includes('\\B') && /[\ud800-\udfff]/.test(s)) continue;
          const answer = p.testLinear(s);
          if (answer === undefined) continue;
          if (answer !== native.test(s)) throw new Error(`${source} on ${JSON.stringify(s)}: linear ${answer}, V8 ${!answer}`);
        }
      }),
      { numRuns: Number(process.env.RUNS ?? 800) },
    );
  });
});
