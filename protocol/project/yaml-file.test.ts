/**
 * The fast path of `parseYamlFile` (js-yaml) must read every file exactly as the reference path
 * (`yaml`'s document, YAML 1.2 core schema) does: the same values for what Parley writes, the
 * same values or the same problems for anything else.
 */
import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type as T } from '@sinclair/typebox';
import { parseDocument, type Document } from 'yaml';
import type { Auth } from '../model/auth.js';
import type { Api } from '../model/api.js';
import type { ProjectFile } from '../model/project.js';
import { defaultSettings, emptyBody, type Body, type RawLanguage, type Request } from '../model/request.js';
import { defaultPreferences, type Workspace } from '../model/workspace.js';
import type { Mock } from '../model/mock.js';
import { checkAll } from '../validate-node.js';
import { apiKind, projectKind, requestKind } from './layout.js';
import { loadMockFolder, serializeMockFolder } from './mock-files.js';
import { fastLoad, fastLoadValue, parseYamlFile, parseYamlFileWithDocument, writeYaml, type FileKind } from './yaml-file.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** What `yaml` reads, as `parseYamlFileWithDocument` does; `undefined` when it finds an error. */
function yamlReads(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) return undefined;
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

/** Any map with a version: the reading is what is compared, not the schema. */
const anyKind: FileKind<Record<string, unknown>> = { label: 'test', schema: T.Object({ version: T.Literal(1) }), version: 1 };

/** Both paths of parseYamlFile give the same result (value or problems) for `text`. */
function expectBothPathsAgree(text: string, kind: FileKind<unknown> = anyKind): void {
  expect(parseYamlFile(text, 'f.yaml', kind, checkAll)).toStrictEqual(parseYamlFileWithDocument(text, 'f.yaml', kind, checkAll));
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
  return { next, pick: <V>(items: readonly V[]): V => items[Math.floor(next() * items.length)]! };
}

// Pieces of strings that YAML treats specially somewhere: indicators, YAML 1.1 and js-yaml
// scalars, line breaks of every kind, quotes, escapes, non-printable and non-BMP characters.
const ATOMS = [
  '', ' ', '  ', '\t', '\n', '\r\n', '\r', ':', ': ', ' #', '#', '-', '- ', '"', "'", '\\', '[', ']', '{', '}', ',', '?', '? ', '&a', '*a', '!', '!!str',
  '%', '@', '`', '|', '>', '---', '...', '<<', 'yes', 'no', 'on', 'off', 'y', 'true', 'True', 'null', '~', 'Null', '0755', '0o17', '0x1F', '0b101',
  '1_000', '1e3', '.inf', '-.Inf', '.NaN', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '12:30:00', '+1', '-0', '1.', '.5', 'é', '😀', '\u2028',
  '\u0085', '\u00a0', '\ufeff', '\x00', '\x07', '\x1b', '\x7f', '\ud800', 'abc', 'x y', 'http://a/b?c=d&e=f', '*/*', '${secret:token}', '{{petId}}',
];

describe('files Parley writes', () => {
  const auths: Auth[] = [
    { type: 'inherit' },
    { type: 'none' },
    { type: 'basic', username: 'ann', password: '${secret:pw}' },
    { type: 'bearer', token: '${secret:token}' },
    { type: 'apikey', name: 'X-Key', value: '${key}', in: 'header' },
    { type: 'apikey', name: 'key', value: '${key}', in: 'query' },
    {
      type: 'oauth2',
      grant: 'authorization_code',
      tokenUrl: 'https://auth.example.com/token',
      authorizationUrl: 'https://auth.example.com/authorize',
      clientId: 'parley',
      clientSecret: '${secret:client}',
      scope: 'read write',
      usePkce: true,
    },
  ];
  const languages: RawLanguage[] = ['json', 'xml', 'text', 'html', 'javascript'];
  const rawTexts: Record<RawLanguage, string> = {
    json: '{\n  "name": "Rex: the dog",\n  "tags": ["a", "b"],\n  "age": 3,\n  "owner": null\n}',
    xml: '<?xml version="1.0"?>\n<pet id="1">\n  <name>Rex</name>\n</pet>\n',
    text: 'line one\n  indented line\n\ntrailing spaces   \n',
    html: '<!doctype html>\n<p class="x">Hello</p>',
    javascript: 'export default function (a, b) {\n  return a + b;\n}\n',
  };
  const bodies: Body[] = [
    emptyBody(),
    ...languages.map((language): Body => ({ ...emptyBody(), kind: 'raw', raw: { language, text: rawTexts[language] } })),
    { ...emptyBody(), kind: 'raw', raw: { language: 'json', text: '{"compact":true}' } },
    { ...emptyBody(), kind: 'raw', raw: { language: 'text', text: '  leading spaces\nand "quotes" and \'apostrophes\'' } },
    { ...emptyBody(), kind: 'form', form: [{ name: 'q', value: 'a b', enabled: true }, { name: 'empty', value: '', enabled: false }] },
    {
      ...emptyBody(),
      kind: 'multipart',
      multipart: [
        { kind: 'text', name: 'meta', value: '{"a":1}', enabled: true },
        { kind: 'file', name: 'upload', file: 'files/photo 1.png', contentType: 'image/png', enabled: true },
      ],
    },
    { ...emptyBody(), kind: 'binary', binary: { file: '/home/ann/data.bin', contentType: 'application/octet-stream' } },
  ];
  const request = (n: number, body: Body, auth: Auth): Request => ({
    version: 1,
    id: `r_${n}`,
    name: `Get pet #${n}: "by id"`,
    method: 'POST',
    url: 'https://api.example.com/pets/{petId}',
    pathParams: [{ name: 'petId', value: '12' }],
    query: [
      { name: 'limit', value: '20', enabled: true },
      { name: 'flag', value: 'true', enabled: false },
      { name: 'when', value: '2001-12-14', enabled: true },
    ],
    headers: [
      { name: 'Accept', value: '*/*', enabled: true },
      { name: 'X-Id', value: '${requestId}', enabled: true },
      { name: 'X-Empty', value: '', enabled: false },
    ],
    body,
    auth,
    settings: n % 2 ? defaultSettings() : { sendCookies: true, timeoutMs: 0, httpVersion: '2' },
    ...(n % 3 === 0
      ? {
          operation: { method: 'post', path: '/pets/{petId}' },
          generated: { url: '/pets/{petId}', query: [], headers: [], pathParams: [{ name: 'petId', value: '0' }], contentType: 'application/json', body: '{}', auth: { type: 'inherit' } },
          orphaned: n % 2 === 0,
          restored: n % 2 === 1,
        }
      : {}),
  });
  const requests = bodies.flatMap((body, b) => auths.map((auth, a) => request(b * auths.length + a, body, auth)));
  const project: ProjectFile = { version: 1, name: 'Pet store: v2', properties: [{ name: 'baseUrl', value: 'http://localhost:4010', enabled: true }] };
  const apis: Api[] = auths.map((auth, n) => ({
    version: 1,
    id: `a_${n}`,
    name: `Pets ${n}`,
    baseUrl: 'https://api.example.com/v1',
    auth,
    ...(n % 2
      ? {
          definition: {
            format: 'openapi-3.1',
            source: { kind: 'url', location: 'https://example.com/openapi.yaml', credentials: { type: 'bearer', secret: 'defToken' } },
            cached: ['definition/openapi.yaml', 'definition/schemas/pet.yaml'],
            fingerprint: 'sha256:0123abcd',
            apiVersion: '1.0.0',
          },
          generated: { baseUrl: 'https://api.example.com/v1', auth: { type: 'none' }, apiVersion: '1.0' },
        }
      : {}),
  }));
  const workspace: Workspace = {
    version: 1,
    environments: [{ id: 'e_1', name: 'Local', variables: [{ name: 'token', value: '${secret:token}', enabled: true }] }],
    globals: [{ name: 'host', value: 'localhost:8080', enabled: true }],
    activeEnvironment: 'e_1',
    preferences: defaultPreferences(),
    secrets: ['token'],
    recentProjects: ['/home/ann/projects/pets', 'C:\\Users\\ann\\pets'],
  };

  it('reads the project, API, request (every body kind and auth) and workspace files identically, on the fast path', () => {
    const files: [string, unknown, FileKind<unknown>][] = [
      ['project', project, projectKind],
      ...apis.map((api): [string, unknown, FileKind<unknown>] => [`api ${api.id}`, api, apiKind]),
      ...requests.map((r): [string, unknown, FileKind<unknown>] => [`request ${r.id} (${r.body.kind}${r.body.kind === 'raw' ? ` ${r.body.raw.language}` : ''}, ${r.auth.type})`, r, requestKind]),
      ['workspace', workspace, anyKind],
    ];
    for (const [what, value, kind] of files) {
      const text = writeYaml(value);
      const fast = fastLoad(text);
      expect(fast, `${what} took the slow path:\n${text}`).not.toBeUndefined();
      expect(fast, what).toStrictEqual(yamlReads(text));
      expect(fast, what).toStrictEqual(value);
      expectBothPathsAgree(text, kind);
    }
  });

  it('reads a rewrite of a hand-edited file (comments, key order, flow style kept) identically', () => {
    const original = requests[3]!;
    const handEdited = `# Pet lookup\nversion: 1\nid: ${original.id} # keep\nname: "${original.name.replace(/"/g, '\\"')}"\n` + writeYaml(original).split('\n').slice(3).join('\n').replace('pathParams:\n  - name: petId\n    value: "12"', 'pathParams: [{name: petId, value: "12"}]');
    expect(yamlReads(handEdited)).toStrictEqual(original);
    const edited: Request = { ...original, name: 'Renamed', url: 'https://api.example.com/v2/pets/{petId}', pathParams: [{ name: 'petId', value: '13' }] };
    const text = writeYaml(edited, handEdited);
    expect(text).toContain('# Pet lookup');
    expect(fastLoad(text)).toStrictEqual(edited);
    expect(yamlReads(text)).toStrictEqual(edited);
    expectBothPathsAgree(text, requestKind);
  });

  it('reads mock files (as loaded and as written, fresh and rewritten) identically', async () => {
    const loaded = await loadMockFolder(join(repo, 'test/fixtures/mocks/folders/pets'));
    expect(loaded.problems).toEqual([]);
    const mock = loaded.mock!;
    const texts: [string, string][] = [];
    const fresh = serializeMockFolder(mock, new Map());
    for (const change of fresh) if (typeof change.content === 'string' && change.path.endsWith('.yaml')) texts.push([`written ${change.path}`, change.content]);
    const existing = new Map(fresh.map((c) => [c.path, c.content as string]));
    const edited: Mock = {
      ...mock,
      port: 4011,
      contractCheck: 'refuse',
      operations: mock.operations.map((op) => ({
        ...op,
        responses: op.responses.map((r, i) => ({ ...r, status: 201, delayMs: 250 * i, headers: [...r.headers, { name: 'X-Trace', value: '{{trace}}' }], values: { ...r.values, trace: { from: 'header', name: 'X-Trace' } } })),
      })),
    };
    for (const change of serializeMockFolder(edited, existing)) if (typeof change.content === 'string' && change.path.endsWith('.yaml')) texts.push([`rewritten ${change.path}`, change.content]);
    for (const [what, text] of texts) {
      const fast = fastLoad(text);
      expect(fast, `${what} took the slow path:\n${text}`).not.toBeUndefined();
      expect(fast, what).toStrictEqual(yamlReads(text));
    }
    expect(texts.length).toBeGreaterThan(10);
  });

  it('reads random values (every YAML special case in strings and keys) identically whenever it takes the fast path', () => {
    const rnd = random(20261122);
    const str = () => Array.from({ length: Math.floor(rnd.next() * 6) }, () => rnd.pick(ATOMS)).join('');
    const value = (depth: number): unknown => {
      const r = rnd.next();
      if (depth > 3 || r < 0.5) return rnd.pick<unknown>([str(), str(), str(), Math.floor(rnd.next() * 1e6) - 5e5, rnd.next() * 100, true, false, null, 0, -1, 1e21, 2 ** 53 + 2]);
      if (r < 0.75) return Array.from({ length: Math.floor(rnd.next() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rnd.next() * 4) }, () => [str(), value(depth + 1)]));
    };
    let fastCount = 0;
    const runs = 3000;
    for (let i = 0; i < runs; i++) {
      const written = { version: 1, ...(value(0) as object), k: value(1) };
      const text = writeYaml(written, rnd.next() < 0.3 ? writeYaml({ version: 1, k: value(1), c: 'x' }) : undefined);
      // The value-only path (big imported definitions) reads the same wherever it reads.
      const read = fastLoadValue(text);
      if (read !== undefined) expect(read, JSON.stringify(text)).toStrictEqual(yamlReads(text));
      const fast = fastLoad(text);
      if (fast === undefined) continue;
      fastCount++;
      expect(fast, JSON.stringify(text)).toStrictEqual(yamlReads(text));
    }
    // Not a vacuous pass: most files still take the fast path.
    expect(fastCount).toBeGreaterThan(runs / 2);
    // 3,000 random files read both ways: seconds alone, over 30 s on a loaded 2-core machine.
  }, 120_000);
});

describe('files the fast parser would read differently from YAML 1.2', () => {
  const cases: [string, string][] = [
    ['YAML 1.1 booleans stay strings', 'a: yes\nb: no\nc: on\nd: off\ne: y\nf: N\ng: Yes'],
    ['YAML 1.2 booleans', 'a: true\nb: False\nc: TRUE'],
    ['a leading zero is decimal, not octal', 'a: 0755\nb: 00\nc: 0o755'],
    ['binary and underscore numbers stay strings', 'a: 0b101\nb: 1_000\nc: 0x_1F\nd: 0x1F'],
    ['sexagesimal numbers stay strings', 'a: 190:20:30\nb: 1:30'],
    ['timestamps stay strings', 'a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10 -5'],
    ['floats and specials', 'a: 1e3\nb: .inf\nc: -.Inf\nd: .NaN\ne: +12\nf: 1.\ng: .5\nh: -0\ni: 12345678901234567890\nj: 1.5e+3\nk: 1E3'],
    ['nulls', 'a: ~\nb: null\nc: Null\nd:\ne: NULL\nf: nil'],
    ['a merge key without anchors is a plain key', 'c:\n  <<: {b: 1}\n  d: 2'],
    ['a merge key with an alias', 'base: &base {b: 1, c: 2}\nx:\n  <<: *base\n  c: 3'],
    ['anchors and aliases', 'a: &x [1, 2]\nb: *x\nc: &y text\nd: *y'],
    ['an alias to no anchor', 'a: *nowhere'],
    ['a YAML 1.1 directive', '%YAML 1.1\n---\nversion: 1\na: yes\nb: 0755\nc: 2001-12-14'],
    ['a YAML 1.2 directive', '%YAML 1.2\n---\nversion: 1\na: yes'],
    ['a tag directive', '%TAG !e! tag:example.com,2000:\n---\nversion: 1\na: !e!x 1'],
    ['standard tags', 'a: !!str 12\nb: !!int "12"\nc: ! 12\nd: !!float 1\ne: !!null ""\nf: !!bool true'],
    ['unknown and js-yaml extra tags', 'a: !foo 12\nb: !!binary aGk=\nc: !!set {x, y}\nd: !!omap [{a: 1}]\ne: !!timestamp 2001-12-14'],
    ['a null key', '~: 1\nb: 3'],
    ['a null key spelled out', 'b: 3\nNULL: 2'],
    ['null keys twice', '~: 1\nnull: 2'],
    ['a null key in flow', 'a: {: 1}'],
    ['collections as keys', '? [a, b]\n: x\n[c]: y\n{d: 1}: z'],
    ['scalars as keys', '1.0: a\ntrue: b\n0x10: c\n.inf: d'],
    ['same key after stringifying', '1: a\n"1": b'],
    ['duplicate keys', 'a: 1\na: 2'],
    ['a comment glued to a quoted value', 'a: "b"#c'],
    ['a glued document marker', '---!\nb: 1'],
    ['a tab before continued quoted text', 'a:\n  b: "x\n \ty"'],
    ['a tab before a continued flow collection', 'a: [\n\tb]'],
    ['a compact nested sequence with an empty item', 'seq:\n- a\n- -\n-  nested\n  - seq'],
    ['a carriage return alone', 'a: b\rc: d'],
    ['CRLF line ends', 'a: |\r\n  x\r\n  y\r\nb: c\r\n'],
    ['a byte order mark', '\ufeffa: 1'],
    ['an implicit key over 1024 characters', `${'k'.repeat(1100)}: 1`],
    ['a long escaped key', `"${'\\x41'.repeat(200)}": 1`],
    ['next-line and separator characters', 'a: b\u0085c\nd: "e\\u2028f"\ng: h\u2028i'],
    ['__proto__ as a key', '__proto__: {polluted: true}\nb: 1'],
    ['two documents', 'a: 1\n---\nb: 2'],
    ['an empty file', ''],
    ['a list', '- a\n- b'],
    ['a scalar', 'just text'],
  ];

  it.each(cases)('%s: read as yaml reads it', (_what, body) => {
    // The version goes first, or after the directives' `---`.
    const text = body.includes('---') || body.startsWith('%') || body.startsWith('\ufeff') || body === '' || body.startsWith('-') || body === 'just text' ? body : `version: 1\n${body}`;
    expectBothPathsAgree(text);
    const reference = yamlReads(text);
    const fast = fastLoad(text);
    if (fast !== undefined) expect(fast).toStrictEqual(reference);
    // The value-only path agrees wherever yaml reads the text; the one text it reads that yaml refuses is a glued comment.
    const value = fastLoadValue(text);
    if (value !== undefined && reference !== undefined) expect(value).toStrictEqual(reference);
    if (value !== undefined && reference === undefined) expect(_what).toBe('a comment glued to a quoted value');
  });

  it('takes the value-only fast path for an OpenAPI document full of quoted references and Markdown, reading it as yaml does', () => {
    const text = [
      'openapi: 3.0.3',
      "info: {title: 'Graph-like', version: '1.0'}",
      'paths:',
      '  /users/{id}:',
      '    get:',
      '      description: |',
      '        Returns **one** user. Filters: `a != b`, *emphasis*, what? & more!',
      '        * a list item',
      '      parameters:',
      "        - {$ref: '#/components/parameters/top'}",
      '      responses:',
      "        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/user'}}}}",
      'components:',
      '  parameters:',
      "    top: {name: $top, in: query, description: Show only the first n items! (n >= 0) & no more *, schema: {type: integer}}",
      '  schemas:',
      "    user: {type: object, properties: {id: {type: string, pattern: '^[a-z]*$'}}}",
    ].join('\n');
    expect(fastLoad(text)).toBeUndefined(); // the project-file path leaves quoted references to yaml
    const value = fastLoadValue(text);
    expect(value).not.toBeUndefined();
    expect(value).toStrictEqual(yamlReads(text));
  });

  it('leaves anchors, tags, explicit keys, collections as keys and merge keys at a node start to yaml on the value-only path (an alias alone is an error to js-yaml)', () => {
    for (const text of ['a: &x 1\nb: *x', '- !tag x', 'a:\n  - &y [1]\n  - *y', 'b: {c: *x}', 'base: {b: 1}\nx:\n  <<: {c: 2}', '? [a]\n: b', '[a, &z b]: c', 'a: [[1], &w 2]\nb: *w', 'a: {b: [1], c: &v 2}\nd: *v', 'a: {"b":&u 1}\nc: *u']) {
      expect(fastLoadValue(text), text).toBeUndefined();
    }
  });

  it('keeps YAML 1.2 core values, not js-yaml defaults', () => {
    const parsed = parseYamlFile('version: 1\na: yes\nb: 0755\nc: 0b101\nd: 2001-12-14\ne:\n  <<: {f: 1}\nf: 1_000', 'f.yaml', anyKind, checkAll);
    expect(parsed).toStrictEqual({ ok: true, value: { version: 1, a: 'yes', b: 755, c: '0b101', d: '2001-12-14', e: { '<<': { f: 1 } }, f: '1_000' } });
  });
});

describe('problems keep their file, line and rule', () => {
  const request: Request = {
    version: 1,
    id: 'r_1',
    name: 'Get pet',
    method: 'GET',
    url: '/pets/{id}',
    pathParams: [{ name: 'id', value: '1' }],
    query: [],
    headers: [{ name: 'Accept', value: 'application/json', enabled: true }],
    body: emptyBody(),
    auth: { type: 'inherit' },
    settings: defaultSettings(),
  };
  const text = writeYaml(request);
  const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

  it('a schema problem names the line of the value', () => {
    const broken = text.replace('timeoutMs: 30000', 'timeoutMs: soon');
    const parsed = parseYamlFile(broken, 'apis/a/requests/r.request.yaml', requestKind, checkAll);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems[0]).toMatchObject({ file: 'apis/a/requests/r.request.yaml', rule: 'schema', line: lineOf('timeoutMs') });
    expectBothPathsAgree(broken, requestKind);
  });

  it('a syntax error, a newer version, a file that is not a map and an alias to nothing', () => {
    const cases: [string, string, number][] = [
      // An unclosed flow sequence is noticed on the next line, where a key cannot be.
      [text.replace('method: GET', 'method: [GET'), 'yaml-syntax', lineOf('url')],
      [text.replace('version: 1', 'version: 9'), 'version-too-new', 1],
      [text.replace('version: 1', 'version: one'), 'version', 1],
      ['- a\n- b\n', 'not-a-map', 1],
      [text.replace('method: GET', 'method: *nowhere'), 'yaml-syntax', lineOf('method')],
      [`${text}id: r_2\n`, 'yaml-syntax', text.split('\n').length],
    ];
    for (const [broken, rule, line] of cases) {
      const parsed = parseYamlFile(broken, 'r.yaml', requestKind, checkAll);
      expect(parsed.ok, broken).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.problems[0], broken).toMatchObject({ file: 'r.yaml', rule, line });
      expectBothPathsAgree(broken, requestKind);
    }
  });

  it('random edits of a request file give the same value or the same problems on both paths', () => {
    const rnd = random(7);
    const base = writeYaml({ ...request, body: { ...emptyBody(), kind: 'raw', raw: { language: 'json', text: '{\n  "a": [1, 2],\n  "b": "x: y"\n}' } } });
    const inserts = ['---', '...', ': ', '- ', '  ', '\n  ', '\n- ', '\t', '\r', '\n', ' ', ':', '-', '#', '"', "'", '[', ']', '{', '}', ',', '?', '&', '*', '!', '%', '|', '>', '\\', 'a', '0', '.', '~', '\u00a0', '\ufeff'];
    for (let i = 0; i < 1500; i++) {
      let edited = base;
      for (let n = 1 + Math.floor(rnd.next() * 3); n > 0; n--) {
        const at = Math.floor(rnd.next() * edited.length);
        const op = rnd.next();
        if (op < 0.4) edited = edited.slice(0, at) + rnd.pick(inserts) + edited.slice(at);
        else if (op < 0.7) edited = edited.slice(0, at) + edited.slice(at + 1);
        else edited = edited.slice(0, at) + rnd.pick(inserts) + edited.slice(at + 1);
      }
      expectBothPathsAgree(edited, requestKind);
    }
    // 1,500 edits read both ways: 13-25 s alone, over 30 s on a loaded 2-core machine.
  }, 120_000);
});

describe('YAML files in the repository', () => {
  it('every fixture is read identically whenever the fast path takes it', async () => {
    const files = (await readdir(join(repo, 'test/fixtures'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => join(e.parentPath, e.name));
    expect(files.length).toBeGreaterThan(50);
    let fastCount = 0;
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const fast = fastLoad(text);
      if (fast === undefined) continue;
      fastCount++;
      expect(fast, file).toStrictEqual(yamlReads(text));
    }
    expect(fastCount).toBeGreaterThan(files.length / 2);
  });
});

describe('the one writer (every kind, mock files included)', () => {
  it('returns a hand-spaced file byte for byte when it already says the same', () => {
    const previous = 'version:   1\nname:    Pets   # mine\ntags: [ a,  b ]\n';
    expect(writeYaml({ version: 1, name: 'Pets', tags: ['a', 'b'], gone: undefined }, previous)).toBe(previous);
    expect(writeYaml({ version: 1, name: 'Cats', tags: ['a', 'b'] }, previous)).toBe('version: 1\nname: Cats # mine\ntags: [ a, b ]\n');
  });

  it('keeps the comments of a value that changes shape, and styles only new files', () => {
    const previous = 'version: 1\n# the list\ntags: x # one for now\n';
    const text = writeYaml({ version: 1, tags: ['x', 'y'] }, previous);
    expect(text).toMatch(/^version: 1\n# the list\ntags:\n {2}- x\n {2}- y\n/);
    expect(text).toContain('# one for now');
    const flow = (doc: Document) => {
      const tags = doc.get('tags', true) as { flow?: boolean } | undefined;
      if (tags) tags.flow = true;
    };
    expect(writeYaml({ version: 1, tags: ['x'] }, undefined, { styleNew: flow })).toBe('version: 1\ntags: [ x ]\n');
    expect(writeYaml({ version: 1, tags: ['x', 'z'] }, 'version: 1\ntags:\n  - x\n  - y\n', { styleNew: flow })).toBe('version: 1\ntags:\n  - x\n  - z\n');
  });
});
