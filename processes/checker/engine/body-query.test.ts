import { describe, expect, it } from 'vitest';
import { evaluateXPath, parseXmlBody } from './body-query.js';

describe('parseXmlBody: hostile XML', () => {
  it('refuses a body declaring entities (billion laughs) before expanding anything', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const laughs = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${levels}]><r>&l9;</r>`;
    expect(() => parseXmlBody(laughs)).toThrow(/internal DTD subset/);
  });

  it('refuses an external entity declaration (XXE)', () => {
    expect(() => parseXmlBody(`<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`)).toThrow(/internal DTD subset/);
  });

  it('still reads a SOAP body, namespaces and all', () => {
    const doc = parseXmlBody('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:Get xmlns:m="urn:m"><m:id>7</m:id></m:Get></s:Body></s:Envelope>');
    const found = evaluateXPath('//*:Get/*:id', doc) as Array<{ textContent: string }>;
    expect(found.map((n) => n.textContent)).toEqual(['7']);
  });
});
