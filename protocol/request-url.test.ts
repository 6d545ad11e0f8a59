import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Row } from './model/common.js';
import { blankRequest, requestForFile } from './model/request.js';
import { pathParamNames, queryAsRows, queryBackInUrl, queryInUrl, queryRows, sentUrlText, splitUrlText, syncPathParams, withQueryRows } from './request-url.js';

// --- generators: URL text as people type it, and rows as people fill them in ------------------

/** Pieces a query name or value is made of: the characters that matter to a query, escapes good and bad, placeholders. */
const piece = fc.oneof(
  fc.constantFrom('a', 'b', 'lang', 'en', '=', '==', '+', ' ', '%', '%20', '%2B', '%26', '%3D', '%E9', '%zz', '%C3%A9', '%F0%9F', '?', '/', ':', ',', '@', '$', '{', '}', '{id}', '[]', 'é', '😀'),
  fc.constantFrom('${var}', '${secret:token}', '${a b}', '${}', '${a=b}', '${x&y}', '${x#y}', '$${v}', '${{v}}'),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const component = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));
/** A pair's text: `name`, `name=value`, `=value`, `` (from `&&`), or a value holding more `=`. */
const pairText = fc.oneof(component, fc.tuple(component, component).map(([n, v]) => `${n}=${v}`));
const queryText = fc.array(pairText, { maxLength: 6 }).map((pairs) => pairs.join('&'));
const baseText = fc.oneof(
  fc.constantFrom('http://host/echo', 'https://api.example.com/pets/{petId}', '${baseUrl}/pets/{id}', '/pets', '', 'http://127.0.0.1:8080'),
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replace(/[?#]/g, '')),
);
/** Any URL text: a base, then maybe `?` and a query (`?` alone too), then maybe `#` and a fragment (which may hold `?`, `&` and `#`). */
const urlText = fc
  .tuple(baseText, fc.option(queryText, { nil: null }), fc.option(fc.oneof(component, fc.constantFrom('frag', 'a?b&c#d', '')), { nil: null }))
  .map(([base, query, fragment]) => `${base}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`);

const rowText = fc.oneof(component, fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 6 }));
const row = fc.record({ name: rowText, value: rowText }).map((r): Row => ({ ...r, enabled: true }));

const RUNS = { numRuns: 2_000 };

describe('the URL text and its query rows', () => {
  it('text -> rows -> text is the text, byte for byte, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(urlText, fc.string({ unit: 'binary', maxLength: 40 })), (text) => {
        expect(withQueryRows(text, queryRows(text))).toBe(text);
      }),
      RUNS,
    );
  });

  it('rows -> text -> rows gives the rows back, for any rows and any URL they are written into', () => {
    fc.assert(
      fc.property(urlText, fc.array(row, { maxLength: 6 }), (text, rows) => {
        const written = withQueryRows(text, rows);
        expect(queryRows(written)).toEqual(rows);
        // What is around the query stays as it was.
        const before = splitUrlText(text);
        const after = splitUrlText(written);
        expect({ base: after.base, fragment: after.fragment }).toEqual({ base: before.base, fragment: before.fragment });
      }),
      RUNS,
    );
  });

  it('editing one row rewrites only that pair: the rest of the text is unchanged', () => {
    fc.assert(
      fc.property(
        urlText.filter((t) => splitUrlText(t).query !== null),
        fc.nat(),
        row,
        (text, at, edited) => {
          const rows = queryRows(text);
          const i = at % rows.length;
          const written = withQueryRows(text, rows.map((r, j) => (j === i ? edited : r)));
          const oldPairs = splitUrlText(text).query!.split('&');
          const newPairs = splitUrlText(written).query!.split('&');
          expect(newPairs.length).toBe(oldPairs.length);
          newPairs.forEach((pair, j) => j !== i && expect(pair).toBe(oldPairs[j]));
          expect(queryRows(written)[i]).toEqual(edited);
        },
      ),
      RUNS,
    );
  });

  it('reads what is typed a key at a time: `?`, `&`, `=` and `#` are never eaten', () => {
    const typed = 'http://host/echo?a=1&b=2#frag';
    for (let n = 0; n <= typed.length; n++) {
      const text = typed.slice(0, n);
      expect(withQueryRows(text, queryRows(text))).toBe(text);
    }
    expect(queryRows('http://host/echo?')).toEqual([{ name: '', value: '', enabled: true }]);
    expect(queryRows('http://host/echo?a=1&b=2#frag')).toEqual([
      { name: 'a', value: '1', enabled: true },
      { name: 'b', value: '2', enabled: true },
    ]);
    expect(sentUrlText('http://host/echo?a=1&b=2#frag')).toBe('http://host/echo?a=1&b=2');
  });

  it('a row added at the end is appended to the query as typed, and only it is written', () => {
    const text = '/pets?channel=email&q=a+b%2Fc#top';
    const rows = [...queryRows(text), { name: 'lang', value: 'en', enabled: true }];
    expect(withQueryRows(text, rows)).toBe('/pets?channel=email&q=a+b%2Fc&lang=en#top');
    expect(withQueryRows('/pets', [{ name: 'lang', value: 'en', enabled: true }])).toBe('/pets?lang=en');
    expect(withQueryRows('/pets?lang=en#x', [])).toBe('/pets#x');
  });

  it('decodes percent-escapes and `+`, keeps placeholders and escapes that are not UTF-8 as written', () => {
    expect(queryRows('/x?q=a+b%20c&t=${token}&bad=%E9%zz&k=${a+b}&e==x=')).toEqual([
      { name: 'q', value: 'a b c', enabled: true },
      { name: 't', value: '${token}', enabled: true },
      { name: 'bad', value: '%E9%zz', enabled: true },
      { name: 'k', value: '${a+b}', enabled: true },
      { name: 'e', value: '=x=', enabled: true },
    ]);
  });

  it('writes a new row readably: placeholders, braces, `:` `/` `,` `@` as they are; what would split a pair escaped', () => {
    const row = (name: string, value: string): Row => ({ name, value, enabled: true });
    expect(withQueryRows('/x', [row('key', '${apiKey}'), row('ids', '{a,b}:c/d@e'), row('a=b', 'c=d&e#f g+h%')])).toBe(
      '/x?key=${apiKey}&ids={a,b}:c/d@e&a%3Db=c=d%26e%23f%20g%2Bh%25',
    );
    expect(withQueryRows('/x', [row('${a=b}', '${c&d}')])).toBe('/x?%24{a%3Db}=%24{c%26d}');
  });
});

describe('requests whose query rows predate the URL text', () => {
  const rows = (...r: [string, string, boolean][]): Row[] => r.map(([name, value, enabled]) => ({ name, value, enabled }));

  it('a file of an earlier release (URL without its query, rows on) reads as the text it sent, rows switched off kept', () => {
    const old = { url: '/pets/{petId}', query: rows(['limit', '10', true], ['debug', '1', false], ['tag', 'a b', true], ['', '', true]) };
    expect(queryInUrl(old)).toEqual({ url: '/pets/{petId}?limit=10&tag=a%20b', query: rows(['debug', '1', false]) });
    // A URL that already held a query had the rows sent after it.
    expect(queryInUrl({ url: '/pets?x=1#f', query: rows(['y', '2', true]) })).toEqual({ url: '/pets?x=1&y=2#f', query: [] });
    // Already in one place: the same object.
    const now = { url: '/pets?limit=10', query: rows(['debug', '1', false]) };
    expect(queryInUrl(now)).toBe(now);
  });

  it('requestForFile puts the query in the URL, on load and on save', () => {
    const request = { ...blankRequest({ id: 'r_1', name: 'List', method: 'GET', url: '/pets' }), query: rows(['limit', '5', true]) };
    expect(requestForFile(request)).toMatchObject({ url: '/pets?limit=5', query: [] });
  });

  it('queryAsRows and queryBackInUrl round-trip, unchanged pairs as the user wrote them', () => {
    fc.assert(
      fc.property(urlText, fc.array(row.map((r) => ({ ...r, enabled: false })), { maxLength: 3 }), (url, off) => {
        const request = { url, query: off };
        const asRows = queryAsRows(request);
        expect(splitUrlText(asRows.url).query).toBeNull();
        expect(queryBackInUrl(asRows, url)).toEqual(request);
      }),
      RUNS,
    );
  });
});

describe('path parameters', () => {
  it('finds path placeholders but not ${expansions}, and not in the query or fragment', () => {
    expect(pathParamNames('${base}/pets/{petId}/toys/{toyId}?q={notPath}#{frag}')).toEqual(['petId', 'toyId']);
    expect(pathParamNames('https://{host}.example/x/{id}')).toEqual(['id']);
    expect(syncPathParams('/pets/{petId}/{kind}', [{ name: 'petId', value: '7' }, { name: 'gone', value: 'x' }])).toEqual([
      { name: 'petId', value: '7' },
      { name: 'kind', value: '' },
    ]);
  });

  it('blankRequest keeps the URL as typed and makes a path-parameter row per {name}', () => {
    const request = blankRequest({ id: 'r_1', name: 'Get a pet', method: 'get', url: '/pets/{petId}/toys/{toyId}?limit=5#x' });
    expect(request.url).toBe('/pets/{petId}/toys/{toyId}?limit=5#x');
    expect(request.pathParams).toEqual([
      { name: 'petId', value: '' },
      { name: 'toyId', value: '' },
    ]);
    expect(request.query).toEqual([]);
    expect(request.method).toBe('GET');
  });
});
