import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import { cp, mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasCode } from '../errors.js';
import { Mock } from '../model/mock.js';
import { Value } from '@sinclair/typebox/value';
import { NameClaims } from '../../processes/supervisor/store/name-claims.js';
import {
  loadMockFolder,
  mockFolderOf,
  parseMockFolder,
  readMockFolder,
  renderYaml,
  saveMockFolder,
  serializeMockFolder,
  type AtomicWriter,
  type FileChange,
} from './mock-files.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/mocks');

/** A plain writer for tests: the app's writer is atomic, this one only has to apply the changes. */
const writeAll: AtomicWriter = async (files) => {
  for (const f of files) {
    if (f.content === null) await rm(f.path, { force: true });
    else {
      await mkdir(dirname(f.path), { recursive: true });
      await writeFile(f.path, f.content);
    }
  }
};

describe('loading refused mock folders', async () => {
  const cases = (await readdir(join(fixtures, 'refused'))).sort();

  it.each(cases)('%s is refused with file, line and rule', async (name) => {
    const dir = join(fixtures, 'refused', name);
    const expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8')) as Array<{ file: string; rule: string; line?: number }>;
    const loaded = await loadMockFolder(dir);
    expect(loaded.mock).toBeNull();
    expect(loaded.problems.map((p) => ({ file: p.file, rule: p.rule, ...(expected.find((e) => e.file === p.file)?.line ? { line: p.line } : {}) }))).toEqual(expected);
    for (const p of loaded.problems) expect(p.message.length).toBeGreaterThan(10);
  });

  it('names the file and the placeholder for {{undeclared}}', async () => {
    const loaded = await loadMockFolder(join(fixtures, 'refused', 'undeclared-value'));
    expect(loaded.problems[0]!.message).toContain('{{who}}');
    expect(loaded.problems[0]!.message).toContain('Default.response.yaml');
  });

  it('says plainly that a newer file was left alone', async () => {
    const loaded = await loadMockFolder(join(fixtures, 'refused', 'version-too-new'));
    expect(loaded.problems[0]!.message).toMatch(/^mocks\/version-too-new\/mock\.yaml is a version 4 mock file; this release of Parley reads up to version 3\./);
  });
});

describe('loading the pets mock', () => {
  it('builds the model from every file', async () => {
    const { mock, problems } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    expect(problems).toEqual([]);
    expect(Value.Check(Mock, mock)).toBe(true);
    expect(mock).toMatchObject({ version: 2, id: 'mock-pets', name: 'pets', path: '/api', port: 0, contractCheck: 'log' });
    const list = mock!.operations.find((o) => o.name === 'listPets')!;
    expect(list.dispatch).toBe('match');
    expect(list.responses.map((r) => r.name)).toEqual(['Cats', 'Dogs', 'Default']);
    expect(list.responses[0]!.match).toEqual([{ source: { from: 'query', name: 'kind' }, check: 'equals', value: 'cat' }]);
    expect(list.responses[1]!.status).toBe(200);
    const get = mock!.operations.find((o) => o.name === 'getPet')!;
    expect(get.responses[0]!.values).toEqual({ petId: { from: 'path', name: 'petId' }, trace: { from: 'header', name: 'X-Trace' } });
    expect(get.responses[0]!.body.text).toContain('Pet {{petId}}');
    expect(get.responses[1]!.name).toBe('Not found');
    const mine = mock!.operations.find((o) => o.name === 'myPets')!;
    expect(mine.script).toContain("respond('Empty')");
    expect(mine.responses.find((r) => r.name === 'Empty')!.body).toEqual({ kind: 'none', text: '' });
    const create = mock!.operations.find((o) => o.name === 'createPet')!;
    expect(create.defaultResponse).toBe('First');
    expect(create.responses[1]!.scenario).toEqual({ name: 'adoption', onlyInState: 'Adopted' });
  });
});

describe('saving', () => {
  let dir: string;
  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'parley-mock-files-')), 'pets');
    await cp(join(fixtures, 'folders', 'pets'), dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dirname(dir), { recursive: true, force: true });
  });

  it('changes nothing when nothing changed', async () => {
    const { mock } = await loadMockFolder(dir);
    expect(serializeMockFolder(mock!, await readMockFolder(dir))).toEqual([]);
  });

  it('keeps comments, key order and template values through an edit', async () => {
    const { mock } = await loadMockFolder(dir);
    const get = mock!.operations.find((o) => o.name === 'getPet')!;
    get.responses[0]!.status = 203;
    get.responses[1]!.name = 'Missing';
    get.dispatch = 'random';
    mock!.port = 4010;
    const changes = await saveMockFolder(dir, mock!, writeAll);
    expect(changes.map((c) => `${c.content === null ? '-' : '+'}${c.path}`).sort()).toEqual([
      '+mock.yaml',
      '+operations/getPet/Default.response.yaml',
      '+operations/getPet/Missing.body.json',
      '+operations/getPet/Missing.response.yaml',
      '+operations/getPet/operation.yaml',
      '-operations/getPet/Not found.body.json',
      '-operations/getPet/Not found.response.yaml',
    ]);

    const mockYaml = await readFile(join(dir, 'mock.yaml'), 'utf8');
    expect(mockYaml).toBe(
      '# The pets mock: a hand-written folder the file tests load, save and compare.\nversion: 2\nid: mock-pets\nkind: rest\napi: api-pets\nport: 4010\npath: /api # every operation is served under /api\ncontractCheck: log\n',
    );
    const response = await readFile(join(dir, 'operations/getPet/Default.response.yaml'), 'utf8');
    expect(response).toContain('# A template: it declares values');
    expect(response).toContain('status: 203');
    expect(response).toContain('  petId: { from: path, name: petId }');
    const op = await readFile(join(dir, 'operations/getPet/operation.yaml'), 'utf8');
    expect(op).toContain('dispatch: random');
    expect(op).toContain('responses: [ Default, Missing ]');
    expect(op).toContain('dispatch: random');

    const again = await loadMockFolder(dir);
    expect(again.problems).toEqual([]);
    const reloaded = again.mock!.operations.find((o) => o.name === 'getPet')!;
    expect(reloaded.responses[0]!.values).toEqual(get.responses[0]!.values);
    expect(reloaded.responses.map((r) => r.name)).toEqual(['Default', 'Missing']);
    expect(again.mock!.version).toBe(2);
  });

  it('keeps a hand-written default like `delay: 0`', async () => {
    const { mock } = await loadMockFolder(dir);
    mock!.operations.find((o) => o.name === 'listPets')!.responses[2]!.status = 299;
    await saveMockFolder(dir, mock!, writeAll);
    const text = await readFile(join(dir, 'operations/listPets/Default.response.yaml'), 'utf8');
    expect(text).toContain('delay: 0 # written by hand; kept as is');
    expect(text).toContain('status: 299');
  });

  it('saves version 1 once no response declares values, and 2 when one does', async () => {
    const { mock } = await loadMockFolder(dir);
    const get = mock!.operations.find((o) => o.name === 'getPet')!;
    get.responses[0]!.values = {};
    get.responses[0]!.headers = get.responses[0]!.headers.filter((h) => h.name !== 'X-Trace');
    get.responses[0]!.body.text = '{ "id": 7 }\n';
    await saveMockFolder(dir, mock!, writeAll);
    const v1 = await loadMockFolder(dir);
    expect(v1.problems).toEqual([]);
    expect(v1.mock!.version).toBe(1);
    for (const [rel, text] of await readMockFolder(dir)) if (rel.endsWith('.yaml')) expect(text, rel).toMatch(/^version: 1$/m);

    v1.mock!.operations[0]!.responses[0]!.values = { q: { from: 'query', name: 'q' } };
    await saveMockFolder(dir, v1.mock!, writeAll);
    for (const [rel, text] of await readMockFolder(dir)) if (rel.endsWith('.yaml')) expect(text, rel).toMatch(/^version: 2$/m);
  });

  it('writes a binary body to <name>.body.bin as its bytes, reads it back the same, and saves version 3 while one is there', async () => {
    const { mock } = await loadMockFolder(dir);
    const get = mock!.operations.find((o) => o.name === 'getPet')!;
    // Every byte value: none may pass through a text encoding on the way to the disk or back.
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i));
    get.responses[1]!.body = { kind: 'binary', text: bytes.toString('base64') };
    const changes = await saveMockFolder(dir, mock!, writeAll);
    expect(changes.map((c) => `${c.content === null ? '-' : '+'}${c.path}`)).toContain('-operations/getPet/Not found.body.json');
    expect(await readFile(join(dir, 'operations/getPet/Not found.body.bin'))).toEqual(bytes);
    expect(await readFile(join(dir, 'operations/getPet/Not found.response.yaml'), 'utf8')).toMatch(/^body: binary$/m);
    for (const [rel, text] of await readMockFolder(dir)) if (rel.endsWith('.yaml')) expect(text, rel).toMatch(/^version: 3$/m);

    const again = await loadMockFolder(dir);
    expect(again.problems).toEqual([]);
    expect(again.mock!.version).toBe(3);
    expect(again.mock!.operations.find((o) => o.name === 'getPet')!.responses[1]!.body).toEqual({ kind: 'binary', text: bytes.toString('base64') });
    expect(serializeMockFolder(again.mock!, await readMockFolder(dir))).toEqual([]);

    // A body file written by hand with `{{...}}` in its bytes is no template: nothing to declare.
    await writeFile(join(dir, 'operations/getPet/Not found.body.bin'), '{{undeclared}}');
    expect((await loadMockFolder(dir)).problems).toEqual([]);
  });

  it('keeps the file name when a response is renamed by letter case only', async () => {
    const { mock } = await loadMockFolder(dir);
    mock!.operations.find((o) => o.name === 'listPets')!.responses[0]!.name = 'cats';
    const changes = serializeMockFolder(mock!, await readMockFolder(dir));
    expect(changes.map((c) => c.path)).toEqual(['operations/listPets/operation.yaml', 'operations/listPets/Cats.response.yaml']);
    await saveMockFolder(dir, mock!, writeAll);
    const again = await loadMockFolder(dir);
    expect(again.problems).toEqual([]);
    expect(again.mock!.operations.find((o) => o.name === 'listPets')!.responses.map((r) => r.name)).toEqual(['cats', 'Dogs', 'Default']);
  });

  it('writes a new response file with documented keys in a stable order', () => {
    const text = renderYaml({
      version: 2,
      id: 'r9',
      name: 'New',
      status: 200,
      delay: 0,
      body: 'json',
      headers: [],
      values: { who: { from: 'query', name: 'who' } },
      scenario: undefined,
      match: [{ source: { from: 'header', name: 'X-Kind' }, check: 'present' }],
    });
    expect(text).toBe(
      'version: 2\nid: r9\nname: New\nstatus: 200\nbody: json\nvalues:\n  who: { from: query, name: who }\nmatch:\n  - source: { from: header, name: X-Kind }\n    check: present\n',
    );
  });
});

describe('paths stay inside the mock folder', () => {
  it('refuses a file list that climbs out with ../', () => {
    const files = new Map([
      ['mock.yaml', 'version: 1\nid: m\napi: a\n'],
      ['operations/../../outside/operation.yaml', 'version: 1\nid: o\nmethod: GET\npath: /x\n'],
    ]);
    const loaded = parseMockFolder('m', files);
    expect(loaded.mock).toBeNull();
    expect(loaded.problems).toEqual([expect.objectContaining({ rule: 'path-escape', file: 'mocks/m/operations/../../outside/operation.yaml' })]);
  });

  it('refuses to save an operation whose name would leave the folder', async () => {
    const { mock } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    mock!.operations[0]!.name = '..';
    expect(() => serializeMockFolder(mock!, new Map())).toThrow(expect.objectContaining({ code: 'path-escape' }));
    mock!.operations[0]!.name = '../evil';
    let caught: unknown;
    try {
      serializeMockFolder(mock!, new Map());
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, 'path-escape')).toBe(true);
  });

  it('turns a response name with separators into a file name inside the operation folder', async () => {
    const { mock } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    mock!.operations[0]!.responses[0]!.name = '../../etc/passwd';
    const changes: FileChange[] = serializeMockFolder(mock!, new Map());
    const paths = changes.map((c) => c.path);
    // The request files' rule (file-names.ts): separators become `-`, leading dots go.
    expect(paths.filter((p) => p.endsWith('etc-passwd.response.yaml'))).toEqual([`operations/${mock!.operations[0]!.name}/-..-etc-passwd.response.yaml`]);
    for (const p of paths) expect(p.split('/')).not.toContain('..');
  });
});

describe('file names that work on Windows, macOS and Linux', () => {
  it('never names a response file after a device, and keeps responses differing only in case apart', async () => {
    const { mock } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    const op = mock!.operations[0]!;
    const first = op.responses[0]!;
    op.responses = [
      { ...first, id: 'r-con', name: 'CON' },
      { ...first, id: 'r-ok', name: 'Ok' },
      { ...first, id: 'r-ok2', name: 'OK' },
      { ...first, id: 'r-cafe', name: 'Caf\u00e9' },
      { ...first, id: 'r-cafe2', name: 'Cafe\u0301' },
    ];
    op.defaultResponse = 'CON';
    const bases = serializeMockFolder(mock!, new Map())
      .map((c) => c.path)
      .filter((p) => p.startsWith(`operations/${op.name}/`) && p.endsWith('.response.yaml'))
      .map((p) => p.slice(`operations/${op.name}/`.length, -'.response.yaml'.length));
    expect(bases).toEqual(['CON_', 'Ok', 'OK 2', 'Caf\u00e9', 'Caf\u00e9 2']);
  });

  it('refuses a new operation name Windows cannot hold, and keeps saving an operation folder that already has one', async () => {
    const { mock } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    const original = mock!.operations[0]!.name;
    mock!.operations[0]!.name = 'NUL';
    expect(() => serializeMockFolder(mock!, new Map())).toThrow(expect.objectContaining({ code: 'path-escape' }));
    mock!.operations[0]!.name = 'name. ';
    expect(() => serializeMockFolder(mock!, new Map())).toThrow(expect.objectContaining({ code: 'path-escape' }));

    const dir = await mkdtemp(join(tmpdir(), 'parley-mock-names-'));
    mock!.operations[0]!.name = original;
    await saveMockFolder(dir, mock!, writeAll);
    await cp(join(dir, 'operations', original), join(dir, 'operations', 'aux'), { recursive: true });
    await rm(join(dir, 'operations', original), { recursive: true });
    const existing = await loadMockFolder(dir);
    expect(existing.problems).toEqual([]);
    existing.mock!.operations.find((o) => o.name === 'aux')!.path = '/moved';
    await saveMockFolder(dir, existing.mock!, writeAll);
    expect((await loadMockFolder(dir)).mock!.operations.find((o) => o.name === 'aux')!.path).toBe('/moved');
  });
});

describe('SOAP mock files', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-soap-mock-files-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keep kind: soap and the binding through a save and a load; a REST mock.yaml gains neither key', async () => {
    // A REST folder written before SOAP mocks existed loads and saves back byte for byte.
    const restDir = join(dir, 'rest');
    await cp(join(fixtures, 'folders', 'pets'), restDir, { recursive: true });
    const before = await readFile(join(restDir, 'mock.yaml'), 'utf8');
    const { mock: rest } = await loadMockFolder(restDir);
    expect(rest!.kind).toBe('rest');
    await saveMockFolder(restDir, rest!, writeAll);
    expect(await readFile(join(restDir, 'mock.yaml'), 'utf8')).toBe(before);
    expect(before).not.toMatch(/^binding:/m);

    const soap: Mock = { ...rest!, kind: 'soap', binding: 'StockQuoteSoap12', name: 'soap' };
    const soapDir = join(dir, 'soap');
    await saveMockFolder(soapDir, soap, writeAll);
    const soapYaml = await readFile(join(soapDir, 'mock.yaml'), 'utf8');
    expect(soapYaml).toMatch(/^kind: soap$/m);
    expect(soapYaml).toMatch(/^binding: StockQuoteSoap12$/m);
    const loaded = await loadMockFolder(soapDir);
    expect(loaded.problems).toEqual([]);
    expect(loaded.mock).toMatchObject({ kind: 'soap', binding: 'StockQuoteSoap12' });
    expect(Value.Check(Mock, loaded.mock)).toBe(true);
  });

  it('refuses a kind it does not know', async () => {
    const { mock: rest } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    const target = join(dir, 'odd');
    await saveMockFolder(target, rest!, writeAll);
    const yaml = await readFile(join(target, 'mock.yaml'), 'utf8');
    await writeFile(join(target, 'mock.yaml'), yaml.replace(/^kind: .*$/m, 'kind: graphql'));
    const loaded = await loadMockFolder(target);
    expect(loaded.mock).toBeNull();
    expect(loaded.problems.map((p) => p.rule)).toContain('schema');
  });
});

// Mock files are project files (issue 12 item 4): one reader, one writer, one path rule, one name rule.
describe('mock files read and written like the other project files', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-mock-kinds-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const operation = (version: number) => `version: ${version}\nid: op\nmethod: GET\npath: /x\n`;
  const response = (version: number, extra = '') => `version: ${version}\nid: r\nname: Default\nbody: none\n${extra}`;
  const folder = (mockV: number, opV: number, responseV: number, extra = '') =>
    new Map([
      ['mock.yaml', `version: ${mockV}\nid: m\napi: a\n`],
      ['operations/op/operation.yaml', operation(opV)],
      ['operations/op/Default.response.yaml', response(responseV, extra)],
    ]);

  it('keeps a hand-written mock.yaml (comments, blank lines, key order, quoting) byte for byte but for the changed value', async () => {
    const handWritten = [
      '# Hand-written: keys in my order.',
      'api: "api-pets" # the contract',
      '',
      '# where it listens',
      'port: 0 # any free port',
      'id: mock-pets',
      'version: 1',
      "path: '/api'",
      '',
    ].join('\n');
    const mockDir = join(dir, 'pets');
    await mkdir(mockDir);
    await writeFile(join(mockDir, 'mock.yaml'), handWritten);
    const { mock, problems } = await loadMockFolder(mockDir);
    expect(problems).toEqual([]);
    mock!.port = 4010;
    await saveMockFolder(mockDir, mock!, writeAll);
    expect(await readFile(join(mockDir, 'mock.yaml'), 'utf8')).toBe(handWritten.replace('port: 0 #', 'port: 4010 #'));
  });

  it('leaves a file it does not change untouched, even spaced in a way the writer would not write', async () => {
    const mockDir = join(dir, 'spaced');
    await mkdir(join(mockDir, 'operations', 'op'), { recursive: true });
    const mockYaml = 'version:   1\nid:    m      # odd spacing\napi: a\n';
    await writeFile(join(mockDir, 'mock.yaml'), mockYaml);
    await writeFile(join(mockDir, 'operations/op/operation.yaml'), `${operation(1)}responses: [Default]\n`);
    await writeFile(join(mockDir, 'operations/op/Default.response.yaml'), response(1));
    const { mock } = await loadMockFolder(mockDir);
    mock!.operations[0]!.responses[0]!.status = 201;
    const changes = await saveMockFolder(mockDir, mock!, writeAll);
    expect(changes.map((c) => c.path)).toEqual(['operations/op/Default.response.yaml']);
    expect(await readFile(join(mockDir, 'mock.yaml'), 'utf8')).toBe(mockYaml);
  });

  it.each([
    ['mock.yaml', folder(4, 2, 2), 'mocks/m/mock.yaml', 'mock'],
    ['operation.yaml', folder(2, 4, 2), 'mocks/m/operations/op/operation.yaml', 'mock operation'],
    ['a response file', folder(1, 1, 9), 'mocks/m/operations/op/Default.response.yaml', 'mock response'],
  ])('refuses %s of a newer version with version-too-new naming the file', (_what, files, file, label) => {
    const loaded = parseMockFolder('m', files);
    expect(loaded.mock).toBeNull();
    expect(loaded.problems).toEqual([{ file, line: 1, rule: 'version-too-new', message: expect.stringMatching(new RegExp(`^${file} is a version \\d ${label} file; this release of Parley reads up to version 3\\.`)) }]);
  });

  it.each([
    ['all files version 1', folder(1, 1, 1), 1],
    ['a version 1 operation beside a version 2 template', folder(2, 1, 2, 'values:\n  q: { from: query, name: q }\n'), 2],
    ['version 1 files with a template (migrated, saved as 2)', folder(1, 1, 1, 'values:\n  q: { from: query, name: q }\n'), 2],
  ])('migrates older files: %s', (_what, files, saved) => {
    const loaded = parseMockFolder('m', files);
    expect(loaded.problems).toEqual([]);
    expect(loaded.mock!.version).toBe(saved);
    const written = new Map(files);
    for (const c of serializeMockFolder(loaded.mock!, files)) written.set(c.path, c.content as string);
    for (const [rel, text] of written) expect(text, rel).toMatch(new RegExp(`^version: ${saved}$`, 'm'));
  });

  it('reports a missing or broken version with the project files\' rules and lines', () => {
    const files = folder(1, 1, 1);
    files.set('operations/op/operation.yaml', 'id: op\nmethod: GET\npath: /x\n');
    files.set('operations/op/Default.response.yaml', 'version: 1\nid: r\nname: Default\nbody: none\nstatus: "200"\n');
    const loaded = parseMockFolder('m', files);
    expect(loaded.problems.map((p) => [p.file, p.line, p.rule])).toEqual([
      ['mocks/m/operations/op/operation.yaml', 1, 'version'],
      ['mocks/m/operations/op/Default.response.yaml', 5, 'schema'],
    ]);
  });

  it.each([
    ['a body file path in the folder list', () => parseMockFolder('m', new Map([...folder(1, 1, 1), ['operations/op/../../../x.body.json', '{}']]))],
    ['a mock folder name', () => mockFolderOf(dir, '../../x')],
    ['an operation folder name', async () => {
      const { mock } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
      mock!.operations[0]!.name = '../../x';
      return serializeMockFolder(mock!, new Map());
    }],
  ])('refuses ../../x as %s with path-escape', async (_what, act) => {
    let result: unknown;
    try {
      result = await act();
    } catch (err) {
      expect(hasCode(err, 'path-escape'), String(err)).toBe(true);
      return;
    }
    expect(result).toMatchObject({ mock: null, problems: [{ rule: 'path-escape', file: 'mocks/m/operations/op/../../../x.body.json' }] });
  });

  it('reads nothing and writes nothing through an operations folder linked out of the mock folder', async () => {
    const outside = join(dir, 'outside');
    await mkdir(join(outside, 'op'), { recursive: true });
    await writeFile(join(outside, 'op', 'operation.yaml'), operation(1));
    const mockDir = join(dir, 'project', 'mocks', 'm');
    await mkdir(mockDir, { recursive: true });
    await writeFile(join(mockDir, 'mock.yaml'), 'version: 1\nid: m\napi: a\n');
    await symlink(outside, join(mockDir, 'operations'));
    expect([...(await readMockFolder(mockDir)).keys()]).toEqual(['mock.yaml']);
    const { mock } = await loadMockFolder(mockDir);
    const op = parseMockFolder('m', folder(1, 1, 1)).mock!.operations[0]!;
    await expect(saveMockFolder(mockDir, { ...mock!, operations: [op] }, writeAll)).rejects.toMatchObject({ code: 'path-escape' });
    expect(await readdir(join(outside, 'op'))).toEqual(['operation.yaml']);
    // A mock folder that is itself a link out of the project is refused by its name's path.
    await symlink(outside, join(dir, 'project', 'mocks', 'linked'));
    expect(() => mockFolderOf(join(dir, 'project'), 'linked')).toThrow(expect.objectContaining({ code: 'path-escape' }));
  });

  it('names response files as request files are named: __proto__, CON, a/b and names differing only in case', async () => {
    const names = ['__proto__', 'CON', 'a/b', 'Ok', 'OK', 'con.txt', '  spaced  out. ', '...'];
    const { mock } = await loadMockFolder(join(fixtures, 'folders', 'pets'));
    const op = mock!.operations[0]!;
    const first = op.responses[0]!;
    op.responses = names.map((name, i) => ({ ...first, id: `r${i}`, name }));
    op.defaultResponse = names[0]!;
    const prefix = `operations/${op.name}/`;
    const bases = serializeMockFolder(mock!, new Map())
      .map((c) => c.path)
      .filter((p) => p.startsWith(prefix) && p.endsWith('.response.yaml'))
      .map((p) => p.slice(prefix.length, -'.response.yaml'.length));
    const claims = new NameClaims();
    const requestNames = names.map((name) => claims.claim(join(dir, 'requests'), name, '.request.yaml', 'request'));
    expect(bases).toEqual(requestNames.map((n) => (n === 'request' ? 'response' : n)));
    expect(bases).toEqual(['__proto__', 'CON_', 'a-b', 'Ok', 'OK 2', 'con_.txt', 'spaced out', 'response']);
    // And they load back under their names.
    const files = new Map<string, string>();
    for (const c of serializeMockFolder(mock!, new Map())) files.set(c.path, c.content as string);
    const again = parseMockFolder('pets', files);
    expect(again.problems).toEqual([]);
    expect(again.mock!.operations.find((o) => o.name === op.name)!.responses.map((r) => r.name).sort()).toEqual([...names].sort());
  });

  it('counts a {{constructor}} placeholder as undeclared: values are own keys only', () => {
    const files = folder(1, 1, 1);
    files.set('operations/op/Default.response.yaml', 'version: 1\nid: r\nname: Default\nbody: text\n');
    files.set('operations/op/Default.body.txt', 'hello {{constructor}} {{__proto__}}\n');
    const loaded = parseMockFolder('m', files);
    expect(loaded.problems.map((p) => p.rule)).toEqual(['undeclared-value', 'undeclared-value']);
  });
});
