import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../../protocol/errors.js';
import { documentPrefixes, evaluateXPath, parseXmlBody, XML_BODY_LIMITS } from './body-query.js';

describe('parseXmlBody: hostile XML', () => {
  const refused = (text: string, why: RegExp) => {
    let error: unknown;
    try {
      parseXmlBody(text);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 'xml-refused', message: expect.stringMatching(why) });
  };

  it('refuses a body declaring entities (billion laughs) before expanding anything', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    refused(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${levels}]><r>&l9;</r>`, /has a DTD .* no entity is expanded or fetched/);
  });

  it('refuses an external entity declaration (XXE)', () => {
    refused(`<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`, /has a DTD/);
  });

  it('refuses entities declared after a `>` inside the DOCTYPE\'s quoted system literal', () => {
    // A pattern over the DOCTYPE stops at that `>` and never sees the subset; slimdom expands it.
    refused('<!DOCTYPE r SYSTEM "a>b" [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>', /has a DTD/);
    refused("<!DOCTYPE r PUBLIC '>' 'x>y' [<!ENTITY a 'z'>]><r>&a;</r>", /has a DTD/);
  });

  it('refuses any DOCTYPE, as SOAP does, and reads `<!ENTITY` written inside a comment or CDATA as text', () => {
    refused('<!DOCTYPE r SYSTEM "r.dtd"><r>1</r>', /has a DTD/);
    const doc = parseXmlBody('<r><!-- <!ENTITY x "y"> --><![CDATA[<!DOCTYPE x>]]></r>');
    expect(doc.documentElement?.textContent).toBe('<!DOCTYPE x>');
  });

  it('refuses a body nested deeper than the limit before building it, and reads one at the limit', () => {
    const { maxDepth } = XML_BODY_LIMITS;
    const chain = (depth: number) => `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`;
    // 100,000 levels: slimdom builds it (in seconds), then serializing or `string(/a)` runs out of stack.
    refused(chain(100_000), new RegExp(`nests elements more than ${maxDepth} deep`));
    refused(chain(maxDepth + 1), /nests elements more than/);
    const doc = parseXmlBody(chain(maxDepth));
    expect(evaluateXPath('string(/a)', doc)).toEqual(['x']);
    expect(evaluateXPath('count(//a)', doc)).toEqual([maxDepth]);
  });

  it('refuses a body with more nodes than the limit (its tree would not fit the heap) before building it', () => {
    const { maxNodes, maxAttributes } = XML_BODY_LIMITS;
    // 4 characters an element: 10 MiB of these would be 2.6 million elements, about 800 MB of tree.
    refused(`<r>${'<a/>'.repeat(maxNodes)}</r>`, /more than 1,000,000 elements, attributes and other nodes/);
    refused(`<r>${'<!---->'.repeat(maxNodes)}</r>`, /more than 1,000,000 elements/);
    refused(`<r${Array.from({ length: maxAttributes + 1 }, (_, i) => ` a${i}=""`).join('')}/>`, /an element with more than 1,000 attributes/);
  });

  it('says what is not well formed and where, as xml-invalid (an undeclared prefix too)', () => {
    expect(() => parseXmlBody('<r><a></r>')).toThrow(expect.objectContaining({ code: 'xml-invalid', message: 'The body is not XML that can be read (non-well-formed element: found end tag "r" but expected "a", at line 1, character 7).' }));
    expect(() => parseXmlBody('<p:r/>')).toThrow(expect.objectContaining({ code: 'xml-invalid', message: expect.stringMatching(/^The body is not XML that can be read \(.*prefix.*p/) }));
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
