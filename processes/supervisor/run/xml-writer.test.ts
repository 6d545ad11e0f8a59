import { XMLParser, XMLValidator } from 'fast-xml-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeXml } from './xml-writer.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', trimValues: false, processEntities: true, htmlEntities: true });

function roundTrip(text: string): { attr: string; body: string } {
  const xml = writeXml({ name: 'r', children: [{ name: 'e', attributes: { a: text }, text }] });
  expect(XMLValidator.validate(xml)).toBe(true);
  const e = (parser.parse(xml) as { r: { e: { a: string; '#text'?: string } | string } }).r.e;
  return typeof e === 'string' ? { attr: '', body: e } : { attr: e.a, body: e['#text'] ?? '' };
}

describe('writeXml', () => {
  it('escapes markup, quotes and entities in text and attributes', () => {
    const hostile = `</e><script>alert("x")</script> & &amp; ' " ]]> <!-- --> <?pi?> <!DOCTYPE x [<!ENTITY a "b">]>`;
    const { attr, body } = roundTrip(hostile);
    expect(attr).toBe(hostile);
    expect(body).toBe(hostile);
  });

  it('keeps line breaks and tabs in attributes, and replaces characters XML cannot hold', () => {
    expect(roundTrip('a\nb\tc\r').attr).toBe('a\nb\tc\r');
    const { body } = roundTrip('nul\u0000 bell\u0007 lone\uD800 ok😀 ffff\uFFFF');
    expect(body).toBe('nul\uFFFD bell\uFFFD lone\uFFFD ok😀 ffff\uFFFD');
  });

  it('writes a document any string leaves well formed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const xml = writeXml({ name: 'testsuites', children: [{ name: 'testcase', attributes: { name: text }, children: [{ name: 'failure', attributes: { message: text }, text }] }] });
        expect(XMLValidator.validate(xml)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
