import { describe, expect, it } from 'vitest';
import { documentPrefixes, evaluateXPath, parseXmlBody } from './body-query.js';

describe('parseXmlBody: hostile XML', () => {
  it('refuses a body declaring entities (billion laughs) before expanding anything', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const laughs = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${levels}]><r>&l9;</r>`;
    expect(() => parseXmlBody(laughs)).toThrow(/internal DTD subset/);
  });

  it('refuses an external entity declaration (XXE)', () => {
    expect(() => parseXmlBody(`<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`)).toThrow(/internal DTD subset/);
  });

  it('refuses entities declared after a `>` inside the DOCTYPE\'s quoted system literal', () => {
    // A pattern over the DOCTYPE stops at that `>` and never sees the subset; slimdom expands it.
    expect(() => parseXmlBody('<!DOCTYPE r SYSTEM "a>b" [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>')).toThrow(/declares entities/);
    expect(() => parseXmlBody("<!DOCTYPE r PUBLIC '>' 'x>y' [<!ENTITY a 'z'>]><r>&a;</r>")).toThrow(/declares entities/);
  });

  it('reads a DOCTYPE that declares nothing', () => {
    expect(parseXmlBody('<!DOCTYPE r SYSTEM "r.dtd"><r>1</r>').documentElement?.textContent).toBe('1');
  });

  it('still reads a SOAP body, namespaces and all', () => {
    const doc = parseXmlBody('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:Get xmlns:m="urn:m"><m:id>7</m:id></m:Get></s:Body></s:Envelope>');
    const found = evaluateXPath('//*:Get/*:id', doc) as Array<{ textContent: string }>;
    expect(found.map((n) => n.textContent)).toEqual(['7']);
  });
});

describe('evaluateXPath over XML: prefixes', () => {
  const soap = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:Get xmlns:m="urn:m"><m:id>7</m:id><n:id xmlns:n="urn:n">8</n:id><m:id xmlns:m="urn:other">9</m:id></m:Get></s:Body></s:Envelope>';

  it('resolves a prefix declared below the document element, bound to its first declaration', () => {
    const found = evaluateXPath('/s:Envelope/s:Body/m:Get/m:id, //n:id', parseXmlBody(soap)) as Array<{ textContent: string }>;
    expect(found.map((n) => n.textContent)).toEqual(['7', '8']);
    expect(documentPrefixes(parseXmlBody(soap))).toEqual(new Map([['s', 'http://schemas.xmlsoap.org/soap/envelope/'], ['m', 'urn:m'], ['n', 'urn:n']]));
  });

  it('keeps an unprefixed name in the document element\'s default namespace', () => {
    const found = evaluateXPath('/r/a', parseXmlBody('<r xmlns="urn:r"><a>1</a></r>')) as Array<{ textContent: string }>;
    expect(found.map((n) => n.textContent)).toEqual(['1']);
  });
});
