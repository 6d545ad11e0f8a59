/**
 * XSD patterns on the linear engine give libxml2's own verdicts: each pattern below (the corpus
 * WSDLs' own, and the grammar's corners) against short strings, compared with libxml2 validating
 * the same value against the same pattern facet. What cannot be translated faithfully is refused
 * with a reason.
 */
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { compileXsdPattern } from './xsd-regex.js';
import { escapeXml } from '../render-response.js';

const validators = new Map<string, XsdValidator>();
afterAll(() => {
  for (const v of validators.values()) v.dispose();
});

/** libxml2's verdict on `value` against a string type with this one pattern. */
function libxml2Accepts(pattern: string, value: string): boolean {
  let validator = validators.get(pattern);
  if (!validator) {
    const schema = XmlDocument.fromString(
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="v"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="${escapeXml(pattern)}"/></xs:restriction></xs:simpleType></xs:element></xs:schema>`,
    );
    validator = XsdValidator.fromDoc(schema);
    schema.dispose();
    validators.set(pattern, validator);
  }
  // Character references keep the value exactly as given (tabs, newlines, carriage returns).
  const text = [...value].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('');
  const doc = XmlDocument.fromString(`<v>${text}</v>`);
  try {
    validator.validate(doc);
    return true;
  } catch {
    return false;
  } finally {
    doc.dispose();
  }
}

const CASES: Array<[pattern: string, values: string[]]> = [
  // From the corpus WSDLs (test/fixtures/wsdl and shared/corpus/wsdl).
  ['\\d+', ['', '0', '123', '12a', '١٢', ' 1']],
  ['\\d{5,15}', ['1234', '12345', '123456789012345', '1234567890123456']],
  ['([\\w\\.@-]{3,30})?', ['', 'ab', 'abc', 'a.b@c-d', 'a b', 'a!b', 'ab_', 'é_ü', 'x'.repeat(31)]],
  ['[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}', ['01234567-89ab-cdef-0123-456789abcdef', '01234567-89ab-cdef-0123-456789abcdeg', '0123456789abcdef']],
  ['[\\da-fA-F]{8}-[\\da-fA-F]{4}-[\\da-fA-F]{4}-[\\da-fA-F]{4}-[\\da-fA-F]{12}', ['01234567-89ab-cdef-0123-456789abcdef', 'x1234567-89ab-cdef-0123-456789abcdef']],
  ['[A-Za-z][A-Za-z][A-Za-z]', ['abc', 'ab1', 'ABCD']],
  ['....-..-..', ['2024-01-02', '2024-01-0', '2024\n01-02', 'abcd-ef-gh']],
  ['\\-?P(\\d*D)?(T(\\d*H)?(\\d*M)?(\\d*(\\.\\d*)?S)?)?', ['P1D', '-PT1H2M3.5S', 'P', 'PT', '1D', 'P1DT']],
  ["[a-zA-Z0-9_ \\-\\+/\\\\\\|\\*=<>,.;:?!'`\"~@#$%^&\\(\\)\\[\\]\\{\\}\\r\\n]{0,255}", ['hello world', 'a\\b|c*d', 'tab\there', 'new\nline', 'é', '{[()]}']],
  ['ID[A-Z0-9]{32}', [`ID${'A'.repeat(32)}`, `ID${'a'.repeat(32)}`]],
  ['(((([0-9]{4}(\\-))[0-9]{2})(\\-))[0-9]{2})', ['2024-01-02', '2024-1-02']],
  // The grammar's corners.
  ['((a|aa)+)+c', ['c', 'ac', 'aac', 'aaaa', 'aab']],
  ['a|', ['', 'a', 'b']],
  ['^a$', ['^a$', 'a']],
  ['[^abc]', ['a', 'd', '\n', '😀']],
  ['[a-z-[aeiou]]+', ['bcd', 'bad', 'xyz']],
  ['[^a-z-[aeiou]]', ['a', 'b', 'A']],
  ['[\\p{Lu}\\d]+', ['AB1', 'Ab', 'É٣']],
  ['\\P{L}', ['a', '1', ' ']],
  ['[^\\p{L}x]', ['a', 'x', '1']],
  ['\\s\\S', [' a', '\ta', 'a ', '  ']],
  ['[\\s-]+', [' -', '\t-\n', 'a']],
  ['\\W+', ['!', ' ', 'a', '!a']],
  ['[-a]+', ['-a', 'a-', 'b']],
  ['[a\\-z]+', ['a-z', 'b']],
  ['.+', ['abc', 'a\nb', 'a\rb', 'a\u2028b']],
  ['\\p{P}{2}', ['!?', '!a']],
  ['(ab){2,3}', ['ab', 'abab', 'ababab', 'abababab']],
  ['[\\^x]', ['^', 'x', 'y']],
  ['\\.\\?\\*\\+\\(\\)\\{\\}\\[\\]\\|\\\\', ['.?*+(){}[]|\\', 'x']],
  ['😀+', ['😀😀', '😀a']],
];

describe('XSD patterns on the linear engine', () => {
  it.each(CASES)('%s gives libxml2\'s verdicts', (source, values) => {
    const compiled = compileXsdPattern(source);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(compiled.pattern.linear).toBe(true);
    for (const value of values) expect([value, compiled.pattern.testLinear(value)]).toEqual([value, libxml2Accepts(source, value)]);
  });

  it('runs the pattern that holds libxml2 for minutes in linear time', () => {
    const compiled = compileXsdPattern('((a|aa)+)+c');
    expect(compiled.ok && compiled.pattern.testLinear(`${'a'.repeat(5000)}!`)).toBe(false);
  });

  it.each([
    ['\\i\\c*', /XML name characters/],
    ['\\p{IsBasicLatin}+', /block escape/],
    ['[\\p{L}-[a]]', /not plain characters and ranges/],
    ['[^\\w]', /negated class/],
    ['a{2,3000}', /repeat count/],
    ['\\x', /does not define/],
    ['a{,2}', /starts no quantifier/],
  ])('refuses %s with a reason', (source, reason) => {
    const compiled = compileXsdPattern(source);
    expect(compiled.ok).toBe(false);
    expect(compiled.ok ? '' : compiled.reason).toMatch(reason);
  });
});
