import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatBody, parseProblem } from './format.js';

describe('formatting a body that holds variables', () => {
  it('keeps a ${...} inside a string verbatim (it used to fail as "does not parse")', () => {
    const result = formatBody('json', '{"b":"${user}"}');
    expect(result).toEqual({ ok: true, text: '{\n  "b": "${user}"\n}' });
  });

  it('keeps an unquoted ${...} standing for a value verbatim', () => {
    const result = formatBody('json', '{"n": ${count}, "list": [${a},${secret:env/token}]}');
    expect(result).toEqual({ ok: true, text: '{\n  "n": ${count},\n  "list": [\n    ${a},\n    ${secret:env/token}\n  ]\n}' });
  });

  it('changes only whitespace: numbers and escapes stay as written', () => {
    const result = formatBody('json', '{"big":12345678901234567890,"price":1.50,"s":"\\u00e9\\n"}');
    expect(result).toEqual({ ok: true, text: '{\n  "big": 12345678901234567890,\n  "price": 1.50,\n  "s": "\\u00e9\\n"\n}' });
  });

  it('names the line and column of a real error, and leaves the text alone', () => {
    const result = formatBody('json', '{\n  "a": 1,\n  "b": \n}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toBe('The JSON does not parse: A value is expected (line 4, column 1). It was left as it is.');
    expect(result.problem.from).toBe(20);
  });

  it('marks where XML breaks, by line and column', () => {
    const problem = parseProblem('xml', '<a>\n  <b>${x}</c>\n</a>');
    expect(problem?.message).toMatch(/closing tag 'b'.*\(line 2, column 10\)\.$/);
  });

  it('reads a mock body with {{template}} values as JSON when asked to', () => {
    expect(parseProblem('json', '{"id": {{petId}}}')).not.toBeNull();
    expect(parseProblem('json', '{"id": {{petId}}}', { templates: true })).toBeNull();
    expect(formatBody('json', '{"id":{{petId}},"name":"{{name}}"}', { templates: true })).toEqual({ ok: true, text: '{\n  "id": {{petId}},\n  "name": "{{name}}"\n}' });
  });

  it('formatting is idempotent and keeps every value of any JSON document with expansions', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('object'), tie('array')),
      leaf: fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constantFrom('${a}', '${secret:x/y}')),
      object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
      array: fc.array(tie('node'), { maxLength: 4 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        // Expansions written bare, where a value goes; everything else as JSON.
        const text = JSON.stringify(v).replace(/"(\$\{[^"]+\})"/g, '$1');
        const once = formatBody('json', text);
        expect(once.ok).toBe(true);
        if (!once.ok) return;
        expect(once.text.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
        expect(formatBody('json', once.text)).toEqual(once);
      }),
    );
  });
});
