/** The streaming HAR reader: entries out exactly as JSON.parse reads them, whatever the chunking; malformed captures named. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HarSplitter, MAX_HAR_DEPTH, readHarEntries } from './read-har.js';

const enc = new TextEncoder();

function split(text: string | Uint8Array, cuts: number[] = []): { entries: unknown[]; info: ReturnType<HarSplitter['end']> } {
  const bytes = typeof text === 'string' ? enc.encode(text) : text;
  const s = new HarSplitter('t.har');
  const entries: unknown[] = [];
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b).concat(bytes.length)) {
    // A copy, as a stream hands fresh buffers.
    for (const e of s.push(bytes.slice(at, cut))) entries.push(e.value);
    at = cut;
  }
  return { entries, info: s.end() };
}

const har = (entries: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ log: { version: '1.2', creator: { name: 'Firefox', version: '120' }, ...extra, entries } });

describe('HarSplitter', () => {
  const tricky = [
    { request: { method: 'GET', url: 'https://h/a', headers: [{ name: 'x', value: 'a "quoted" \\ value \\\\' }] }, response: { status: 200, content: { text: '{"k":"}]{["}' } } },
    { request: { method: 'POST', url: 'https://h/b?x=1', postData: { text: '\\"\\\\"' } }, response: { status: 201, content: {} }, 'ünï': ['ö', { a: [] }] },
  ];
  const text = har(tricky, { pages: [{ id: 'p', nested: [{ a: [1, { b: '}' }] }] }] });

  it('reads every entry, and the log info, cut at every byte', () => {
    const bytes = enc.encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { entries, info } = split(bytes, [cut]);
      expect(entries, `cut at ${cut}`).toEqual(tricky);
      expect(info).toEqual({ version: '1.2', creator: 'Firefox 120' });
    }
  });

  it('agrees with JSON.parse on generated captures and chunkings', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.string({ unit: fc.constantFrom('a', '"', '\\', '}', ']', '{', '[', 'é', ' ', ':', ',') }), fc.integer(), fc.boolean(), fc.constant(null)),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string({ maxLength: 5 }), value, { maxKeys: 4 }), { maxLength: 4 }), fc.array(fc.nat(400), { maxLength: 6 }), (entries, cuts) => {
        expect(split(har(entries), cuts).entries).toEqual(JSON.parse(har(entries)).log.entries);
      }),
      { numRuns: 300 },
    );
  });

  it('finds where long strings full of escapes end (past the bytes walked one by one), cut at every byte', () => {
    const long = [
      { a: `${'x'.repeat(30)}\\"${'y'.repeat(30)}\\\\`, b: ['\\'.repeat(41), `"${'\\'.repeat(40)}"`], c: { d: `${'}'.repeat(25)}"]"{` } },
      { e: `${'z'.repeat(60)}\\\\\\"\\`, 'long key \\" with escapes past the walk': 1 },
    ];
    const bytes = enc.encode(har(long));
    for (let cut = 0; cut <= bytes.length; cut++) expect(split(bytes, [cut, cut + 29]).entries, `cut at ${cut}`).toEqual(long);
  });

  it('reads the outer keys whole when an escape in one is cut between chunks', () => {
    const bytes = enc.encode('{"log":{"v\\"x":1,"entr\\u0069es":[{"a":1}]}}');
    for (let cut = 0; cut <= bytes.length; cut++) expect(split(bytes, [cut]).entries, `cut at ${cut}`).toEqual([{ a: 1 }]);
  });

  it('takes entries before version, a byte order mark and white space anywhere', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(' { "log" : { "entries" : [ {"a":1} , {"b":2} ] , "version" : "1.1" } } \n')]);
    expect(split(bom, [1, 2, 5])).toEqual({ entries: [{ a: 1 }, { b: 2 }], info: { version: '1.1' } });
  });

  it.each([
    ['truncated inside an entry', har([{ a: 1 }, { b: 'x'.repeat(40) }]).slice(0, -20), /ends before its JSON is complete \(cut short after [\d,]+ bytes inside log.entries\[1\]\)/],
    ['truncated after the entries', har([{ a: 1 }]).slice(0, -2), /ends before its JSON is complete/],
    ['empty', '  ', /it is empty/],
    ['an entry that is a string', har(['GET /']), /log.entries\[0\] is a string, not an object/],
    ['an entry that is a number', '{"log":{"entries":[{}, 5]}}', /log.entries\[1\] is a number, not an object/],
    ['an entry that is an array', '{"log":{"entries":[[]]}}', /log.entries\[0\] is an array, not an object/],
    ['entries that are an object', '{"log":{"entries":{}}}', /log.entries is an object, not an array/],
    ['no entries', '{"log":{"version":"1.2"}}', /it has no log.entries/],
    ['no log', '{"hello":1}', /it has no log object/],
    ['an array', '[1,2]', /it has no log object/],
    ['broken JSON in an entry', '{"log":{"entries":[{"a":1,,}]}}', /log.entries\[0\] is not valid JSON/],
    ['broken JSON outside the entries', '{"log":{"version" "1.2","entries":[]}}', /its JSON is broken outside log.entries/],
    ['trailing garbage', '{"log":{"entries":[]}} x', /its JSON is broken outside log.entries/],
    ['50,000-deep nesting in an entry', `{"log":{"entries":[{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}}`, new RegExp(`log.entries\\[0\\] is nested more than ${MAX_HAR_DEPTH} levels deep`)],
    ['50,000-deep nesting outside the entries', `{"log":{"pages":${'['.repeat(50_000)}${']'.repeat(50_000)},"entries":[]}}`, new RegExp(`it is nested more than ${MAX_HAR_DEPTH} levels deep`)],
  ])('refuses %s with a message naming what is wrong', (_, input, message) => {
    let error: unknown;
    try {
      split(input, [7]);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'import-malformed', message: expect.stringMatching(message) });
    expect((error as Error).message).toMatch(/^t\.har is not a readable HAR capture: /);
  });

  it('streams entries as the consumer asks and reports the log at the end', async () => {
    async function* chunks() {
      yield enc.encode('{"log":{"version":"1.2","entries":[{"n":0},');
      yield enc.encode('{"n":1}]}}');
    }
    const seen: unknown[] = [];
    let log: unknown;
    for await (const e of readHarEntries(chunks(), 'x.har', (info, count) => (log = { info, count }))) seen.push(e);
    expect(seen).toEqual([{ index: 0, value: { n: 0 } }, { index: 1, value: { n: 1 } }]);
    expect(log).toEqual({ info: { version: '1.2' }, count: 2 });
  });
});
