/**
 * The Query tab's engine: XPath 3.1 (maps and arrays over JSON) and JSONPath over nested JSON,
 * with filters; XPath 3.1 over XML and a namespaced SOAP envelope (the document's prefixes,
 * `*:name`, attributes, text(), count(); results as XML fragments and values); a stream's events
 * as one JSON document; errors in the user's terms (`//name` over JSON explained, JSONPath's
 * position in what was typed); long results cut and counted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../supervisor/paths.js';
import type { QueryJob } from '../../../protocol/model/query.js';
import type { StreamRow } from '../../../protocol/model/stream.js';
import { eventsDocument, MAX_RESULT_CHARS, runQuery, xmlBodyDocument } from './run-query.js';

const store = {
  store: {
    name: 'Corner books',
    open: true,
    book: [
      { title: 'Sayings of the Century', author: 'Nigel Rees', price: 8.95, tags: ['quotes'] },
      { title: 'Sword of Honour', author: 'Evelyn Waugh', price: 12.99, tags: ['war', 'novel'] },
      { title: 'Moby Dick', author: 'Herman Melville', price: 8.99, isbn: '0-553-21311-3', tags: [] },
      { title: 'The Lord of the Rings', author: 'J. R. R. Tolkien', price: 22.99, isbn: '0-395-19395-8', tags: ['fantasy', 'novel'] },
    ],
    bicycle: { color: 'red', price: 19.95, parts: { wheels: 2, bell: null } },
  },
};

const body = (value: unknown): QueryJob['source'] => ({ kind: 'body', bytes: new TextEncoder().encode(JSON.stringify(value)) });

function items(language: QueryJob['language'], expression: string, source: QueryJob['source'] = body(store)): unknown[] {
  const outcome = runQuery({ language, expression, source });
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  expect(outcome.result.shown).toBe(outcome.result.count);
  if (outcome.result.format !== 'json') throw new Error('not a JSON result');
  return JSON.parse(outcome.result.json) as unknown[];
}

/** The message of a query that fails. */
function failure(language: QueryJob['language'], expression: string, source: QueryJob['source'] = body(store)): { code: string; message: string } {
  const outcome = runQuery({ language, expression, source });
  if (outcome.ok) throw new Error(`${expression} did not fail`);
  return outcome;
}

describe('XPath 3.1 over JSON', () => {
  it('walks maps and arrays with the lookup operator', () => {
    expect(items('xpath', '?store?name')).toEqual(['Corner books']);
    expect(items('xpath', '?store?book?1?title')).toEqual(['Sayings of the Century']);
    expect(items('xpath', '?store?book?*?author')).toEqual(['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']);
    expect(items('xpath', '?store?bicycle?parts')).toEqual([{ wheels: 2, bell: null }]);
  });

  it('filters with predicates and returns maps and arrays as JSON', () => {
    expect(items('xpath', '?store?book?*[?price > 10]?title')).toEqual(['Sword of Honour', 'The Lord of the Rings']);
    expect(items('xpath', '?store?book?*[exists(?isbn)]!map { "t": ?title, "isbn": ?isbn }')).toEqual([
      { t: 'Moby Dick', isbn: '0-553-21311-3' },
      { t: 'The Lord of the Rings', isbn: '0-395-19395-8' },
    ]);
    expect(items('xpath', '?store?book?*[array:size(?tags) = 0]?title')).toEqual(['Moby Dick']);
    expect(items('xpath', '?store?book?*[?tags?* = "novel"]?title')).toEqual(['Sword of Honour', 'The Lord of the Rings']);
    expect(items('xpath', 'array { ?store?book?*?price }')).toEqual([[8.95, 12.99, 8.99, 22.99]]);
  });

  it('uses XPath 3.1 functions over maps and arrays', () => {
    expect(items('xpath', 'array:sort(array { map:keys(?store) })')).toEqual([['bicycle', 'book', 'name', 'open']]);
    expect(items('xpath', 'array:size(?store?book)')).toEqual([4]);
    expect(items('xpath', 'sum(?store?book?*?price) => round-half-to-even(2)')).toEqual([53.92]);
    expect(items('xpath', 'count(?store?book?*[starts-with(?author, "H")])')).toEqual([1]);
    expect(items('xpath', '?store?open')).toEqual([true]);
  });

  it('reports an expression that does not parse, with fontoxpath\'s code and where it broke', () => {
    const outcome = runQuery({ language: 'xpath', expression: '?store?book[', source: body(store) });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.code).toBe('query-invalid');
    // The engine's message first, then the expression with a caret under the place; no stack.
    expect(outcome.message).toMatch(/^XPath: XPST0003: Failed to parse script\. .* \(at 1:12 - 1:13\)\n1: \?store\?book\[\n +\^$/);
  });

  it('reports an expression that fails on the data (a type error) as an expression error', () => {
    const outcome = runQuery({ language: 'xpath', expression: '?store?name + 1', source: body(store) });
    expect(outcome).toMatchObject({ ok: false, code: 'query-invalid', message: expect.stringMatching(/^XPath: .*XPTY0004/s) });
  });
});

describe('JSONPath', () => {
  it('selects children, wildcards, indexes and recursive descent', () => {
    expect(items('jsonpath', '$.store.book[*].author')).toEqual(['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']);
    expect(items('jsonpath', '$..price')).toEqual([8.95, 12.99, 8.99, 22.99, 19.95]);
    expect(items('jsonpath', '$.store.book[2].title')).toEqual(['Moby Dick']);
    expect(items('jsonpath', '$.store.book[-1:].title')).toEqual(['The Lord of the Rings']);
    expect(items('jsonpath', '$.store.book[1].tags')).toEqual([['war', 'novel']]);
    expect(items('jsonpath', '$.store.bicycle.parts')).toEqual([{ wheels: 2, bell: null }]);
  });

  it('filters, skipping items a filter cannot read', () => {
    expect(items('jsonpath', '$.store.book[?(@.price < 10)].title')).toEqual(['Sayings of the Century', 'Moby Dick']);
    expect(items('jsonpath', '$..book[?(@.isbn)].title')).toEqual(['Moby Dick', 'The Lord of the Rings']);
    expect(items('jsonpath', "$.store.book[?(@.author == 'Evelyn Waugh')].price")).toEqual([12.99]);
    // `bell` is null: `@.price` of it cannot be read, so it is no match rather than an error.
    expect(items('jsonpath', '$..[?(@.price > 15)].price')).toEqual([19.95, 22.99]);
  });

  it('finds nothing for a path that is not there, and reports a filter that does not parse', () => {
    expect(items('jsonpath', '$.store.magazine')).toEqual([]);
    const outcome = runQuery({ language: 'jsonpath', expression: '$.store.book[?(@.price >)]', source: body(store) });
    expect(outcome).toMatchObject({ ok: false, code: 'query-invalid', message: expect.stringMatching(/^JSONPath: Expected expression after >/) });
  });

  it('runs no JavaScript in a filter', () => {
    const outcome = runQuery({ language: 'jsonpath', expression: '$.store.book[?(process.exit(1))]', source: body(store) });
    expect(outcome.ok ? outcome.result.count : 0).toBe(0);
  });
});

/** A SOAP 1.1 response as services write it: prefixes on the envelope and on the payload, a default namespace inside. */
const ENVELOPE = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <soap:Body>
    <m:GetQuoteResponse xmlns:m="https://example.org/stock">
      <m:Quote symbol="ACME" currency="EUR">34.50</m:Quote>
      <m:Quote symbol="INIT" currency="USD">12.25</m:Quote>
      <Note xmlns="urn:notes">prices are <b>delayed</b></Note>
    </m:GetQuoteResponse>
  </soap:Body>
</soap:Envelope>`;

const xmlBody = (text: string): QueryJob['source'] => ({ kind: 'body', bytes: new TextEncoder().encode(text), syntax: 'xml' });

function xmlItems(expression: string, text = ENVELOPE): { kind: string; text: string }[] {
  const outcome = runQuery({ language: 'xpath', expression, source: xmlBody(text) });
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  if (outcome.result.format !== 'xml') throw new Error('not an XML result');
  expect(outcome.result.shown).toBe(outcome.result.count);
  return outcome.result.items;
}

describe('XPath 3.1 over XML', () => {
  it('uses the prefixes the document declares, on the envelope and deeper, and shows elements as XML that stands alone', () => {
    expect(xmlItems('//m:Quote[@symbol = "ACME"]')).toEqual([{ kind: 'node', text: '<m:Quote xmlns:m="https://example.org/stock" symbol="ACME" currency="EUR">34.50</m:Quote>' }]);
    expect(xmlItems('/soap:Envelope/soap:Body/m:GetQuoteResponse/m:Quote/@symbol')).toEqual([
      { kind: 'node', text: 'symbol="ACME"' },
      { kind: 'node', text: 'symbol="INIT"' },
    ]);
  });

  it('matches a name in any namespace with *:name, the default namespace included', () => {
    expect(xmlItems('//*:Quote/text()')).toEqual([
      { kind: 'node', text: '34.50' },
      { kind: 'node', text: '12.25' },
    ]);
    expect(xmlItems('//*:Note/string()')).toEqual([{ kind: 'value', text: 'prices are delayed' }]);
    expect(xmlItems('//*:Note')).toEqual([{ kind: 'node', text: '<Note xmlns="urn:notes">prices are <b>delayed</b></Note>' }]);
    // An unprefixed name is in no namespace here: the Note is in urn:notes.
    expect(xmlItems('//Note')).toEqual([]);
  });

  it('returns atomic values: count(), sums, booleans, strings', () => {
    expect(xmlItems('count(//m:Quote)')).toEqual([{ kind: 'value', text: '2' }]);
    expect(xmlItems('sum(//m:Quote/number())')).toEqual([{ kind: 'value', text: '46.75' }]);
    expect(xmlItems('exists(//soap:Fault)')).toEqual([{ kind: 'value', text: 'false' }]);
    expect(xmlItems('//m:Quote/@currency/string()')).toEqual([
      { kind: 'value', text: 'EUR' },
      { kind: 'value', text: 'USD' },
    ]);
  });

  it('says which prefixes the document declares when the expression names another', () => {
    const { code, message } = failure('xpath', '//soapenv:Body', xmlBody(ENVELOPE));
    expect(code).toBe('query-invalid');
    expect(message).toBe('XPath: XPST0081: The prefix soapenv could not be resolved. The document declares soap, xsi, m; *:name matches a name in any namespace.');
  });

  it('refuses XML with a DTD before reading it, and says where XML is not well formed', () => {
    const laughs = '<!DOCTYPE r SYSTEM "a>b" [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><r>&b;</r>';
    expect(failure('xpath', '/r', xmlBody(laughs))).toMatchObject({ code: 'not-xml', message: 'The body has a DTD (<!DOCTYPE or <!ENTITY), which is never read: no entity is expanded or fetched. It is not queried.' });
    expect(failure('xpath', '/r', xmlBody('<r><a></r>'))).toMatchObject({
      code: 'not-xml',
      message: 'The body is not XML that can be read (non-well-formed element: found end tag "r" but expected "a", at line 1, character 7). It is not queried.',
    });
  });

  it('does not read XML with JSONPath, and says to choose XPath', () => {
    expect(failure('jsonpath', '$..Quote', xmlBody(ENVELOPE))).toMatchObject({ code: 'not-json', message: expect.stringMatching(/^JSONPath reads JSON, and this body is XML: choose XPath 3\.1/) });
  });
});

/** Real response bodies (test/fixtures/xml-bodies/SOURCES.md). */
const fixture = (path: string) => readFileSync(join(repoRoot(), 'test/fixtures/xml-bodies', path), 'utf8');
const STORES = fixture('node-soap/GET_ALL_STORE_NUMBERS__should_work_with_more_deeply_nested_XML_messages_and_security/response.xml');
const FARES = fixture('node-soap/RetrieveFareQuoteDateRange__should_handle_child_namespaces/response.xml');
const FAULT = fixture('node-soap/login__error_returned_should_contain_root_Json_on_fault/response.xml');
const CDATA = fixture('node-soap/Dummy__should_handle_cdata_xml_in_response/response.xml');
const CATALOG = fixture('harviewer/issue-78-catalog.xml');
const values = (expression: string, text: string) => xmlItems(expression, text).map((item) => item.text);

describe('XPath 3.1 over real response bodies', () => {
  it('reads payload elements in no namespace under a prefixed SOAP wrapper (node-soap, SAP RFC)', () => {
    expect(values('//STORE_ID/string()', STORES)).toEqual(['1001', '1002']);
    expect(values('/soapenv:Envelope/soapenv:Body/urn:Z_STORE_TEMPLATE_GET_ALL.Response/ET_RETURN/item/MESSAGE/string()', STORES)).toEqual(['Request processed successfully']);
    expect(values('count(//item)', STORES)).toEqual(['3']);
  });

  it('uses prefixes declared below the document element, and *:name for a default namespace declared there', () => {
    expect(values('//a:RequestedCurrencyOfFareQuote/string()', FARES)).toEqual(['ARS']);
    expect(values('//b:ExceptionInformation.Exception/b:ExceptionDescription/string()', FARES)).toEqual(['Successful Transaction']);
    expect(values('//a:RequestedPromotionalCode/@i:nil/string()', FARES)).toEqual(['true']);
    // The response element is in http://tempuri.org/, declared on itself: unprefixed, it is not found.
    expect(values('//RetrieveFareQuoteDateRangeResponse', FARES)).toEqual([]);
    expect(values('namespace-uri(//*:RetrieveFareQuoteDateRangeResponse)', FARES)).toEqual(['http://tempuri.org/']);
    expect(xmlItems('//a:RequestedPromotionalCode', FARES)).toEqual([
      { kind: 'node', text: '<a:RequestedPromotionalCode xmlns:a="http://tempuri.org/Service/Pricing.Response" xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/>' },
    ]);
  });

  it('reads a SOAP fault and its detail, and names the prefixes a fault declares when another is typed', () => {
    expect(values('exists(//soapenv:Fault)', FAULT)).toEqual(['true']);
    expect(values('//soapenv:Fault/faultcode/string()', FAULT)).toEqual(['soapenv:Server.userException']);
    expect(values('//platformFaults:code/string()', FAULT)).toEqual(['INVALID_LOGIN_CREDENTIALS']);
    expect(xmlItems('//detail/*', FAULT).map((item) => item.text.split('\n')[0])).toEqual([
      '<platformFaults:invalidCredentialsFault xmlns:platformFaults="urn:faults_2013_2.platform.webservices.netsuite.com">',
      '<ns1:hostname xmlns:ns1="http://xml.apache.org/axis/">partners-java10009.bos.netledger.com</ns1:hostname>',
    ]);
    expect(failure('xpath', '//soap:Fault', xmlBody(FAULT)).message).toBe(
      'XPath: XPST0081: The prefix soap could not be resolved. The document declares soapenv, xsd, xsi, platformFaults, ns1; *:name matches a name in any namespace.',
    );
  });

  it('gives a CDATA section\'s content as text', () => {
    expect(values('normalize-space(//c:DummyElement)', CDATA)).toEqual([
      '<?xml version="1.0" encoding="UTF-8" ?><response><forms><form ObjectId="1234" Form_Name="Dummy Form"><First_Name>Humpty</First_Name><Last_Name>Dumpty</Last_Name></form></forms></response>',
    ]);
    expect(values('//c:DummyElement/@language/string()', CDATA)).toEqual(['en-US']);
  });

  it('reads plain XML: predicates, comments, attributes, an escaped ampersand', () => {
    expect(values('//CD[COUNTRY = "UK"]/TITLE/string()', CATALOG)).toEqual(['Hide your heart', 'Still got the blues']);
    expect(values('//comment()', CATALOG)).toEqual(['<!--test comment-->', '<!--another comment-->']);
    expect(values('//TITLE[@id]/@date', CATALOG)).toEqual(['date="20160626"']);
    expect(values('//COMPANY[contains(., "&")]/string()', CATALOG)).toEqual(['Columbia & test entities']);
    expect(values('//COMPANY[contains(., "&")]', CATALOG)).toEqual(['<COMPANY>Columbia &amp; test entities</COMPANY>']);
    expect(values('sum(//CD/PRICE) = sum(//PRICE/number())', CATALOG)).toEqual(['true']);
  });

  it('builds a body\'s tree once for the queries that follow over the same bytes', () => {
    const first = xmlBodyDocument(new TextEncoder().encode(CATALOG));
    expect(xmlBodyDocument(new TextEncoder().encode(CATALOG))).toBe(first);
    expect(xmlBodyDocument(new TextEncoder().encode(FAULT))).not.toBe(first);
  });
});

describe('XPath over hostile XML bodies', () => {
  it('says a body nested too deep or with too many nodes is not queried, in the body\'s terms', () => {
    const deep = `${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`;
    expect(failure('xpath', '/a', xmlBody(deep))).toEqual({ ok: false, code: 'not-xml', message: 'The body nests elements more than 512 deep, the most an XML body may nest to be read. It is not queried.' });
    const wide = `<r>${'<a/>'.repeat(1_000_001)}</r>`;
    expect(failure('xpath', 'count(//a)', xmlBody(wide))).toMatchObject({ code: 'not-xml', message: expect.stringContaining('more than 1,000,000 elements, attributes and other nodes') });
  });

  it('has no function that reads a file or a URL', () => {
    for (const expression of ['doc("file:///etc/passwd")', 'unparsed-text("file:///etc/passwd")', 'json-doc("file:///etc/passwd")', 'parse-xml("<r/>")']) {
      expect(failure('xpath', expression, xmlBody(CATALOG))).toMatchObject({ code: 'query-invalid', message: expect.stringMatching(/^XPath: XPST0017: Function .* not registered/) });
    }
  });
});

describe('errors in the user\'s terms', () => {
  it('explains a node path over JSON as the map lookup it means, naming the key', () => {
    const { code, message } = failure('xpath', '//name');
    expect(code).toBe('query-invalid');
    expect(message).not.toMatch(/nodeType|Cannot read properties/);
    expect(message).toBe(
      "XPath: //name looks for XML nodes (elements, attributes, text), but this body is JSON, which XPath 3.1 reads as maps and arrays: look the key up with ?name, down a path with ?a?b?name, every value of a map or an array with ?*, and filter with [?price > 10]. For a key at any depth, JSONPath's $..name finds it.",
    );
    for (const expression of ['name', '/store', '@id', 'count(//title)', '?store/name', 'text()']) expect(failure('xpath', expression).message).toMatch(/looks for XML nodes .* this body is JSON/);
    expect(failure('xpath', '?store/book').message).toMatch(/^XPath: \/book looks for XML nodes/);
    expect(failure('xpath', '//title', { kind: 'events', rows: [] }).message).toContain('but the events are one JSON array');
  });

  it('gives a JSONPath filter error its position in the expression as typed, with a caret under it', () => {
    // jsonpath-plus says "character 9", counting in its rewrite `_$_v.x ==`; the place is the `)` at 17.
    expect(failure('jsonpath', '$.store[?(@.x ==)]').message).toBe('JSONPath: Expected expression after == (at character 17)\n$.store[?(@.x ==)]\n                ^');
    expect(failure('jsonpath', '$.store.book[?(@.price > 1 && @root.x <)]').message).toBe('JSONPath: Expected expression after < (at character 40)\n$.store.book[?(@.price > 1 && @root.x <)]\n                                       ^');
    expect(failure('jsonpath', '$.store.book[?(@.title == "A"').message).toBe('JSONPath: The filter opened here with [?( is not closed with )] (at character 13)\n$.store.book[?(@.title == "A"\n            ^');
    expect(failure('jsonpath', '$[(@.length-1)]').message).toMatch(/^JSONPath: The script expression \[\( \) here did not give a key .*\(at character 2\)/);
  });
});

describe('what a query reads', () => {
  it('says a body that is not JSON cannot be queried', () => {
    const outcome = runQuery({ language: 'jsonpath', expression: '$', source: { kind: 'body', bytes: new TextEncoder().encode('<a>xml</a>') } });
    expect(outcome).toMatchObject({ ok: false, code: 'not-json', message: expect.stringMatching(/^The body is not valid JSON \(.+\), so it cannot be queried\.$/) });
  });

  const rows: StreamRow[] = [
    { n: 1, at: Date.UTC(2026, 0, 1, 10, 0, 0), kind: 'comment', data: 'hello' },
    { n: 2, at: Date.UTC(2026, 0, 1, 10, 0, 1), kind: 'retry', data: '3000' },
    { n: 3, at: Date.UTC(2026, 0, 1, 10, 0, 2), kind: 'event', name: 'price', id: '7', data: '{"sku":"a","price":12}' },
    { n: 4, at: Date.UTC(2026, 0, 1, 10, 0, 3), kind: 'event', data: 'plain text' },
    { n: 9, at: Date.UTC(2026, 0, 1, 10, 0, 4), kind: 'event', name: 'price', data: '{"sku":"b","price":30}' },
  ];

  it('makes a stream\'s kept events one JSON document: name, id, data, parsed JSON data, time', () => {
    expect(eventsDocument(rows)).toEqual([
      { n: 3, event: 'price', id: '7', data: '{"sku":"a","price":12}', json: { sku: 'a', price: 12 }, time: '2026-01-01T10:00:02.000Z' },
      { n: 4, event: 'message', data: 'plain text', time: '2026-01-01T10:00:03.000Z' },
      { n: 9, event: 'price', data: '{"sku":"b","price":30}', json: { sku: 'b', price: 30 }, time: '2026-01-01T10:00:04.000Z' },
    ]);
  });

  it('queries the events with either language', () => {
    const source: QueryJob['source'] = { kind: 'events', rows };
    expect(items('jsonpath', "$[?(@.event == 'price' && @.json.price > 20)].json.sku", source)).toEqual(['b']);
    expect(items('xpath', '?*[?event = "price"]?json?price', source)).toEqual([12, 30]);
    expect(items('xpath', 'array:size(.)', source)).toEqual([3]);
  });

  it('cuts a result too long to show, and counts every item', () => {
    const big = Array.from({ length: 60 }, (_, i) => ({ i, text: 'y'.repeat(100_000) }));
    const outcome = runQuery({ language: 'jsonpath', expression: '$[*]', source: body(big) });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    if (outcome.result.format !== 'json') return;
    expect(outcome.result.count).toBe(60);
    expect(outcome.result.shown).toBeLessThan(60);
    expect(outcome.result.json.length).toBeLessThanOrEqual(MAX_RESULT_CHARS + 1000);
    expect((JSON.parse(outcome.result.json) as unknown[]).length).toBe(outcome.result.shown);
  });
});
