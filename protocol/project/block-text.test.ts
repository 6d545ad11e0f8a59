/**
 * Multi-line text in project files is written one line of the file per line of text (a YAML
 * literal block), so a one-line change is a one-line diff (issue 27, item 5), and every text
 * reads back byte for byte through both readers the load uses (js-yaml's fast path and `yaml`'s
 * document): trailing line breaks or none, tabs, leading spaces, `#`, `${}`, lines that look like
 * YAML. Text a block cannot hold (a carriage return, another control character, white space after
 * the last line break) is written as a double-quoted string instead, and reads back the same.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { blankRequest, emptyBody, requestForFile, type Request } from '../model/request.js';
import { checkAll } from '../validate-node.js';
import { requestKind } from './layout.js';
import { fastLoad, parseYamlFile, parseYamlFileWithDocument, writeYaml } from './yaml-file.js';

/** A request holding `text` in every multi-line place a request file has: raw body, a multipart text part, the description. */
function requestWith(text: string): Request {
  const request = blankRequest({ id: 'r_1', name: 'Body', method: 'POST', url: '/x' });
  return requestForFile({
    ...request,
    description: text,
    body: { ...emptyBody(), kind: 'raw', raw: { language: 'json', text }, multipart: [{ kind: 'text', name: 'note', value: text, enabled: true }] },
  });
}

/** The file as a save writes it: fresh, or rewriting `previous` (the file on disk). */
const written = (request: Request, previous?: string) => writeYaml(request, previous);

/** What each reader the load uses makes of `file`: the load's own path (fast, then `yaml` where needed) and each reader alone. */
function readBack(file: string): { load: unknown; yaml: unknown; fast: unknown } {
  const load = parseYamlFile(file, 'x.request.yaml', requestKind, checkAll);
  const withYaml = parseYamlFileWithDocument(file, 'x.request.yaml', requestKind, checkAll);
  const fast = fastLoad(file);
  // As the store takes a file in (ProjectReader.addRequest): a version 1 file reads as version 1.
  return { load: load.ok ? requestForFile(load.value) : load.problems, yaml: withYaml.ok ? requestForFile(withYaml.value) : withYaml.problems, fast };
}

function expectReadBack(text: string, file: string): void {
  const expected = requestWith(text);
  const { load, yaml, fast } = readBack(file);
  expect(load).toEqual(expected);
  expect(yaml).toEqual(expected);
  // The fast path may leave a file to `yaml` (undefined); when it reads it, it reads the same.
  if (fast !== undefined) expect(fast).toEqual(expected);
}

/** The style `yaml` wrote the raw body's text in. */
const bodyStyle = (file: string) => (parseDocument(file).getIn(['body', 'raw', 'text'], true) as { type?: string }).type;

/** Lines shaped like what YAML treats specially, and what bodies hold. */
const line = fc.oneof(
  fc.constantFrom('', ' ', '  lead', '\tlead', 'tab\tinside', '# not a comment', 'a # b', '${user}', '${secret:token}', '- x', 'key: v', '---', '...', '--- x', '? k', '[a]: b', '{"a": 1,', '  "b": [1, 2]', '}', '|', '>', '|-', '&anchor', '*alias', '!tag', '%YAML 1.1', '"quoted"', "'single'", 'trailing  ', 'é😀', '\u2028', '\ufeffbom'),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
const multiLine = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.integer({ min: 0, max: 3 }))
  .map(([lines, eol, trailing]) => lines.join(eol) + eol.repeat(trailing));
/** Lines of nothing but spaces, tabs and breaks (`yaml` alone loses their spaces: quoteBlankBlocks). */
const blankLines = fc.array(fc.constantFrom(' ', '  ', '\t', ''), { minLength: 1, maxLength: 4 }).map((lines) => `${lines.join('\n')}\n`);
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 60 }), multiLine, blankLines);

// Each run writes and reads whole request files three ways (about 30 ms on a busy machine).
const RUNS = { numRuns: 250 };
const SLOW = 60_000;

describe('multi-line text in project files', () => {
  it('reads back byte for byte through both readers, written fresh or over the file before', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('', 'one line', 'two\nlines\n', 'a\r\nb'), (text, before) => {
        expectReadBack(text, written(requestWith(text)));
        expectReadBack(text, written(requestWith(text), written(requestWith(before))));
      }),
      RUNS,
    );
  }, SLOW);

  it('is a literal block whenever a block can hold it, over a new request\'s `text: ""` too', () => {
    const blockable = multiLine.filter((t) => t.includes('\n') && !t.includes('\r') && !/\n[\t ]+$/.test(t) && !/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(t) && /[^ \t\n]/.test(t));
    fc.assert(
      fc.property(blockable, (text) => {
        const fresh = written(requestWith(''));
        expect(fresh).toContain('text: ""');
        const file = written(requestWith(text), fresh);
        expect(bodyStyle(file)).toBe('BLOCK_LITERAL');
        expect(bodyStyle(written(requestWith(text)))).toBe('BLOCK_LITERAL');
        expectReadBack(text, file);
      }),
      RUNS,
    );
  }, SLOW);

  it('picks the chomping and indentation indicators from the text', () => {
    const cases: [string, string][] = [
      ['{\n  "a": 1\n}', '|-'],
      ['{\n  "a": 1\n}\n', '|'],
      ['a\n\n\n', '|+'],
      ['  lead\nx', '|2-'],
    ];
    for (const [text, indicator] of cases) {
      const file = written(requestWith(text), written(requestWith('')));
      expect(file).toContain(`    text: ${indicator}\n`);
      expectReadBack(text, file);
    }
  });

  it('falls back to a double-quoted string for text a block cannot hold (CRLF, control characters, white space after the last line)', () => {
    for (const text of ['a\r\nb\r\n', 'bell\u0007\nx', 'a\n  ', 'nel\u0085\nx', ' \n', '\n \t\n\n', '  \n  \n']) {
      const file = written(requestWith(text), written(requestWith('')));
      expect(bodyStyle(file)).toBe('QUOTE_DOUBLE');
      expectReadBack(text, file);
    }
  });

  it('a one-line change to a 20-line body changes one line of the file', () => {
    const body = Array.from({ length: 20 }, (_, i) => `  "field${i}": ${i},`);
    const text = `{\n${body.join('\n')}\n}\n`;
    const edited = text.replace('"field7": 7', '"field7": 77');
    const first = written(requestWith(text), written(requestWith('')));
    const second = written(requestWith(edited), first);
    const a = first.split('\n');
    const b = second.split('\n');
    expect(b.length).toBe(a.length);
    // The body appears twice in the request (raw text and the multipart part) and once as the description.
    const changed = b.map((l, i) => (l === a[i] ? null : [a[i], l])).filter((x) => x !== null);
    expect(changed).toEqual([
      ['  "field7": 7,', '  "field7": 77,'],
      ['      "field7": 7,', '      "field7": 77,'],
      ['        "field7": 7,', '        "field7": 77,'],
    ].map(([from, to]) => [expect.stringContaining(from!.trim()), expect.stringContaining(to!.trim())]));
    expectReadBack(edited, second);
  });

  it('a single-line value that was a block goes back to a plain scalar', () => {
    const file = written(requestWith('plain'), written(requestWith('two\nlines')));
    expect(bodyStyle(file)).toBe('PLAIN');
    expect(file).toContain('text: plain\n');
  });
});
