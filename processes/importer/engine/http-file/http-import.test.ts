/**
 * The .http importer and the HTTP client environment importer: real files from kulala and
 * httpyac (test/fixtures/http, SOURCES.md), the rules as a table, the limits at their edges and
 * hostile input (a body file out of the folder, a symbolic link, a file over the size limit).
 */
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { createImporterRegistry } from '../registry.js';
import { counterIds, FIXED_CLOCK, importSource, httpOnly } from '../test-support.js';
import { parseHttpFile } from './parse.js';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'http');
const network = { proxy: '', caPem: '' };
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-http-import-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function requests(result: ImportResult): Request[] {
  return httpOnly(result).apis[0]?.requests.map((p) => p.request) ?? [];
}

async function pasted(text: string, format = 'http') {
  return (await importSource({ kind: 'paste', text }, {}, { offline: true }, format)).result;
}

async function picked(dir: string, name: string, text: string, options = {}) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), text);
  return (await importSource({ kind: 'file', path: join(dir, name) }, options)).result;
}

describe('parsing: the rules as a table', () => {
  const cases: { rule: string; text: string; want: { method: string; url: string; name?: string; headers?: string[]; body?: string | null }[] }[] = [
    { rule: 'a URL alone is GET', text: 'https://example.com/a', want: [{ method: 'GET', url: 'https://example.com/a' }] },
    { rule: '### separates and names', text: '### First\nGET https://x/1\n\n### Second\nPOST https://x/2\n\nbody', want: [{ method: 'GET', url: 'https://x/1', name: undefined }, { method: 'POST', url: 'https://x/2', body: 'body' }] },
    { rule: '# @name and // @name name the request', text: '# @name one\nGET https://x/1\n###\n// @name two\nGET https://x/2', want: [{ method: 'GET', url: 'https://x/1', name: 'one' }, { method: 'GET', url: 'https://x/2', name: 'two' }] },
    { rule: 'the HTTP version is cut from the URL', text: 'GET https://x/1 HTTP/1.1', want: [{ method: 'GET', url: 'https://x/1' }] },
    { rule: 'query continuation lines', text: 'GET https://x/search\n    ?q=1\n    &page=2\nAccept: */*', want: [{ method: 'GET', url: 'https://x/search?q=1&page=2', headers: ['Accept'] }] },
    { rule: 'an indented path continues the URL', text: 'POST https://x\n  /anything\n  ?a=b', want: [{ method: 'POST', url: 'https://x/anything?a=b' }] },
    { rule: 'comments in headers are skipped', text: 'GET https://x\nA: 1\n# note\nB: 2', want: [{ method: 'GET', url: 'https://x', headers: ['A', 'B'] }] },
    { rule: 'a request after a blank line without ###', text: 'POST https://x/1\nContent-Type: text/plain\n\nhello\n\nGET https://x/2', want: [{ method: 'POST', url: 'https://x/1', body: 'hello' }, { method: 'GET', url: 'https://x/2' }] },
    { rule: 'a GraphQL query line is not a QUERY request', text: 'POST https://x/graphql\n\nquery a {\n  b\n}', want: [{ method: 'POST', url: 'https://x/graphql', body: 'query a {\n  b\n}' }] },
    { rule: 'a handler ends the body', text: 'POST https://x\n\n{"a":1}\n\n> {%\n  client.log(1);\n%}\n\nGET https://x/2', want: [{ method: 'POST', url: 'https://x', body: '{"a":1}' }, { method: 'GET', url: 'https://x/2' }] },
    { rule: 'CRLF line ends', text: 'GET https://x/1\r\nA: 1\r\n\r\n###\r\nGET https://x/2', want: [{ method: 'GET', url: 'https://x/1', headers: ['A'] }, { method: 'GET', url: 'https://x/2' }] },
  ];
  it.each(cases)('$rule', ({ text, want }) => {
    const parsed = parseHttpFile(text);
    expect(parsed.requests.map((r) => ({ method: r.method, url: r.url }))).toEqual(want.map((w) => ({ method: w.method, url: w.url })));
    want.forEach((w, i) => {
      const r = parsed.requests[i]!;
      if (w.name !== undefined) expect(r.name).toBe(w.name);
      if (w.headers) expect(r.headers.map((h) => h.name)).toEqual(w.headers);
      if (w.body !== undefined) expect(r.body).toBe(w.body);
    });
  });

  it('reads @name = value variables, scripts before the request line and inline handlers', () => {
    const parsed = parseHttpFile('@host = https://x\n< {%\n  request.variables.set("a", 1);\n%}\nGET {{host}}/a\n\n> {% client.test("ok", () => {}); %}');
    expect(parsed.variables).toEqual([{ name: 'host', value: 'https://x', line: 1 }]);
    expect(parsed.requests[0]!.preScripts).toMatchObject([{ kind: 'inline', text: 'request.variables.set("a", 1);' }]);
    expect(parsed.requests[0]!.handlers).toMatchObject([{ kind: 'inline', text: 'client.test("ok", () => {});' }]);
  });
});

describe('converting', () => {
  it('turns {{name}} into ${name}, keeps dynamic variables and expressions with a warning, and @variables become properties', async () => {
    const result = await pasted('@token = {{base}}\n@host = example.com\nGET https://{{host}}/items/{{ id }}?t={{$timestamp}}&r={{login.response.body.$.id}}\nX-Trace: {{$uuid}}');
    const [r] = requests(result);
    expect(r!.url).toBe('https://${host}/items/${id}?t={{$timestamp}}&r={{login.response.body.$.id}}');
    expect(r!.headers).toEqual([{ name: 'X-Trace', value: '{{$uuid}}', enabled: true }]);
    expect(result.properties).toEqual([
      { name: 'token', value: '${base}', enabled: true },
      { name: 'host', value: 'example.com', enabled: true },
    ]);
    expect(result.report.warnings.map((w) => w.message).join('\n')).toMatch(/Dynamic variables are kept as written \(\{\{\$timestamp\}\}, \{\{\$uuid\}\}\)/);
    expect(result.report.warnings.map((w) => w.message).join('\n')).toMatch(/Expressions and references to other responses are kept as written/);
  });

  it('cuts a user and password from the URL into Basic auth, the password a secret, and never into the request file', async () => {
    const result = await pasted('GET https://alice:s3cr%40t@example.com/private\n\n###\nGET https://bob:{{pw}}@example.com/b');
    const [a, b] = requests(result);
    expect(a!.url).toBe('https://example.com/private');
    expect(a!.auth).toEqual({ type: 'basic', username: 'alice', password: `\${secret:request/${a!.id}/password}` });
    expect(result.secrets).toEqual([{ name: `request/${a!.id}/password`, value: 's3cr@t' }]);
    expect(JSON.stringify(result.apis)).not.toContain('s3cr');
    // A password that is only a variable holds no secret: kept as the variable.
    expect(b!.auth).toEqual({ type: 'basic', username: 'bob', password: '${pw}' });
  });

  it('makes a literal credential header a secret and keeps one made only of variables', async () => {
    const result = await pasted('GET https://x/a\nAuthorization: Bearer abc.def\nX-Api-Key: k-123\nX-Other: {{token}}\nAuthorization: Bearer {{token}}');
    const [r] = requests(result);
    expect(r!.headers.map((h) => h.value)).toEqual([`\${secret:request/${r!.id}/header-Authorization}`, `\${secret:request/${r!.id}/header-X-Api-Key}`, '${token}', 'Bearer ${token}']);
    expect(result.secrets?.map((s) => s.value)).toEqual(['Bearer abc.def', 'k-123']);
    expect(JSON.stringify(result.apis)).not.toContain('abc.def');
  });

  it('keeps requests in file order with order keys, named by @name, ### title, or method and path', async () => {
    const result = await pasted('### List pets\nGET https://x/pets\n\n###\n# @name create\nPOST https://x/pets\n\n###\nDELETE https://x/pets/1');
    const rs = requests(result);
    expect(rs.map((r) => r.name)).toEqual(['List pets', 'create', 'DELETE /pets/1']);
    expect(rs.map((r) => r.order)).toEqual(['a0', 'a1', 'a2']);
  });

  it('saves inline handlers and pre-request scripts as text under imported-scripts/, never run, and names them in the description', async () => {
    const result = await pasted('# @name login\n< {% request.variables.set("x", "1"); %}\nPOST https://x/login\n\n{"u":1}\n\n> {%\n  client.global.set("token", response.body.token);\n%}');
    expect(result.scripts).toEqual([
      { name: 'login pre-request.js', text: 'request.variables.set("x", "1");' },
      { name: 'login response.js', text: 'client.global.set("token", response.body.token);' },
    ]);
    expect(requests(result)[0]!.description).toContain('imported-scripts/login response.js');
    expect(requests(result)[0]!.body.raw.text).toBe('{"u":1}');
  });

  it('makes a GRAPHQL request and a query body a GraphQL body with its variables', async () => {
    const result = await pasted('GRAPHQL https://x/graphql\n\nquery Pet($id: ID!) {\n  pet(id: $id) { name }\n}\n\n{\n  "id": "{{petId}}"\n}');
    const [r] = requests(result);
    expect(r!.method).toBe('POST');
    expect(r!.body.kind).toBe('graphql');
    expect(r!.body.graphql).toEqual({ query: 'query Pet($id: ID!) {\n  pet(id: $id) { name }\n}', variables: '{\n  "id": "${petId}"\n}', operationName: '', schemaFile: '' });
  });

  it('lists WebSocket and gRPC requests as not imported (an import carries HTTP requests only)', async () => {
    const result = await pasted('WEBSOCKET ws://x/chat\n\n###\nGRPC localhost:50051/a.B/C\n\n###\nGET https://x/ok');
    expect(requests(result).map((r) => r.url)).toEqual(['https://x/ok']);
    expect(result.report.unimported.map((u) => u.reason)).toEqual([expect.stringMatching(/WEBSOCKET requests are not imported/), expect.stringMatching(/GRPC requests are not imported/)]);
  });

  it('reads a multipart body into parts; the Content-Type with its boundary goes', async () => {
    const result = await pasted('POST https://x/up\nContent-Type: multipart/form-data; boundary=B\n\n--B\nContent-Disposition: form-data; name="title"\n\nhello {{who}}\n--B\nContent-Disposition: form-data; name="file"; filename="a.png"\nContent-Type: image/png\n\n< ./a.png\n--B--');
    const [r] = requests(result);
    expect(r!.headers).toEqual([]);
    expect(r!.body.kind).toBe('multipart');
    expect(r!.body.multipart).toEqual([
      { kind: 'text', name: 'title', value: 'hello ${who}', enabled: true },
      { kind: 'file', name: 'file', file: 'a.png', contentType: 'image/png', enabled: true },
    ]);
  });

  it('refuses text with no request, variable or environment', async () => {
    await expect(pasted('# only a comment\n')).rejects.toMatchObject({ code: 'import-empty' });
  });
});

describe('an unnamed request is named "METHOD /path" (docs/importers.md), its origin left out however it is written', () => {
  it.each([
    ['https://api.example.test/pets?limit=1', 'GET /pets'],
    ['{{host}}/pets/{{petId}}', 'GET /pets/{{petId}}'],
    ['{{api}}/v1/pets', 'GET /v1/pets'],
    ['{{scheme}}://{{endpoint}}/simple', 'GET /simple'],
    ['{{scheme}}://{{endpoint}}', 'GET /'],
    ['http://127.0.0.1:8080', 'GET /'],
  ])('%s', async (url, name) => {
    expect(requests(await pasted(`GET ${url}`)).map((r) => r.name)).toEqual([name]);
  });
});

describe('body files: read only from inside the picked file\'s folder', () => {
  it('reads < ./file as the body, and <@ ./file with its variables replaced', async () => {
    const dir = join(work, 'bodies');
    await mkdir(join(dir, 'data'), { recursive: true });
    await writeFile(join(dir, 'data', 'pet.json'), '{"name": "{{petName}}"}');
    const result = await picked(dir, 'api.http', 'POST https://x/a\nContent-Type: application/json\n\n< ./data/pet.json\n\n###\nPOST https://x/b\nContent-Type: application/json\n\n<@ ./data/pet.json');
    const [a, b] = requests(result);
    expect(a!.body.raw).toEqual({ language: 'json', text: '{"name": "{{petName}}"}' });
    expect(b!.body.raw).toEqual({ language: 'json', text: '{"name": "${petName}"}' });
  });

  it('does not read < ../../etc/passwd, an absolute path or a symbolic link, and says so', async () => {
    const dir = join(work, 'hostile');
    await mkdir(dir, { recursive: true });
    await writeFile(join(work, 'outside.txt'), 'OUTSIDE SECRET');
    await symlink(join(work, 'outside.txt'), join(dir, 'link.txt'));
    await symlink('/etc/passwd', join(dir, 'passwd-link'));
    const result = await picked(dir, 'bad.http', ['< ../../etc/passwd', '< /etc/passwd', '< ./link.txt', '< ./passwd-link', '< ../outside.txt'].map((b, i) => `### ${i}\nPOST https://x/${i}\n\n${b}`).join('\n\n'));
    const rs = requests(result);
    expect(rs).toHaveLength(5);
    for (const r of rs) expect(r.body.kind).toBe('none');
    const text = JSON.stringify(result);
    expect(text).not.toContain('OUTSIDE SECRET');
    expect(text).not.toContain('root:');
    expect(result.report.warnings.filter((w) => /was not read/.test(w.message))).toHaveLength(5);
  });

  it('reads nothing from disk for pasted text', async () => {
    const result = await pasted('POST https://x/a\n\n< ./pet.json');
    expect(requests(result)[0]!.body.kind).toBe('none');
    expect(result.report.warnings[0]!.message).toMatch(/pasted text has no folder/);
  });
});

describe('environments beside a picked file', () => {
  it('imports the kulala files beside advanced_E.http: private values and credential-named public values as secrets, $shared to properties', async () => {
    const { result } = await importSource({ kind: 'file', path: join(FIXTURES, 'kulala', 'advanced_E.http') });
    expect(requests(result).map((r) => [r.method, r.url, r.name])).toEqual([
      ['POST', 'https://httpbin.org/advanced_e1?foo=bar&baz=bax', 'REQUEST_ONE'],
      ['POST', 'https://httpbin.org/advanced_e2', 'REQUEST_TWO'],
      ['POST', 'https://httpbin.org/advanced_e3', 'This is a comment for the next request'],
    ]);
    const dev = result.environments!.find((e) => e.name === 'dev')!;
    expect(dev.variables.find((v) => v.name === 'PASSWORD')).toMatchObject({ value: 'bananas', secret: true });
    expect(dev.variables.find((v) => v.name === 'USERNAME')).toMatchObject({ value: 'gorillamoe', secret: false });
    expect(dev.variables.find((v) => v.name === 'Recursive-Var')).toMatchObject({ value: '${USERNAME}', secret: false });
    expect(result.properties).toContainEqual({ name: 'DEFAULT_TIMEOUT', value: '1', enabled: true });
    expect(result.report.unimported.map((u) => u.item)).toEqual(['REQUEST_ONE: pre-request script ./../scripts/advanced_E_pre.js', 'REQUEST_ONE: response handler ./../scripts/advanced_E_post.js']);
  });

  it('leaves the environments out when the option is unticked', async () => {
    const { result } = await importSource({ kind: 'file', path: join(FIXTURES, 'kulala', 'simple.http') }, { httpEnvironments: false });
    expect(result.environments).toBeUndefined();
    expect(result.properties?.map((p) => p.name)).toEqual(['BASIC_TEST_TOKEN', 'URL_ENDPOINT', 'SCHEMA_FOO']);
  });

  it('every private value is a secret unless made only of {{variables}}', async () => {
    const dir = join(work, 'env-private');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { host: 'dev.example', apiKey: 'pub-key', token: '{{other}}' }, $shared: { version: 'v1' } }));
    await writeFile(join(dir, 'http-client.private.env.json'), JSON.stringify({ dev: { host: 'private-host', user: 'me', derived: '{{host}}' }, $shared: { sharedSecret: 'shh' } }));
    const result = await picked(dir, 'a.http', 'GET https://{{host}}/');
    const dev = result.environments![0]!;
    expect(dev.variables).toEqual([
      { name: 'host', value: 'private-host', enabled: true, secret: true },
      { name: 'apiKey', value: 'pub-key', enabled: true, secret: true },
      { name: 'token', value: '${other}', enabled: true, secret: false },
      { name: 'user', value: 'me', enabled: true, secret: true },
      { name: 'derived', value: '${host}', enabled: true, secret: false },
    ]);
    expect(result.properties).toEqual([
      { name: 'version', value: 'v1', enabled: true },
      { name: 'sharedSecret', value: '${secret:properties/sharedSecret}', enabled: true },
    ]);
    expect(result.secrets).toEqual([{ name: 'properties/sharedSecret', value: 'shh' }]);
  });
});

describe('HTTP client environment files alone', () => {
  it('a picked public file brings its private partner; $shared goes to the workspace globals', async () => {
    const result = (await importSource({ kind: 'file', path: join(FIXTURES, 'kulala', 'http-client.env.json') })).result;
    expect(result.report.format).toBe('http-env');
    expect(result.apis).toEqual([]);
    expect(result.environments!.map((e) => e.name)).toEqual(['dev', 'prod']);
    expect(result.globals).toEqual([{ name: 'DEFAULT_TIMEOUT', value: '1', enabled: true, secret: false }]);
    expect(result.report.notes!.map((n) => n.message)).toContain('http-client.private.env.json beside the file was read with it.');
  });

  it('a picked private file is read as private (every value a secret) and brings the public one', async () => {
    const dir = join(work, 'env-alone');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'http-client.env.json'), JSON.stringify({ prod: { host: 'x' } }));
    const result = await picked(dir, 'http-client.private.env.json', JSON.stringify({ prod: { pin: '1234' } }));
    expect(result.environments).toEqual([{ name: 'prod', variables: [{ name: 'host', value: 'x', enabled: true, secret: false }, { name: 'pin', value: '1234', enabled: true, secret: true }] }]);
  });

  it('pasted JSON is the public file', async () => {
    const result = await pasted(JSON.stringify({ $shared: { a: '1' }, local: { password: 'p', plain: 'v' } }), 'auto');
    expect(result.report.format).toBe('http-env');
    expect(result.environments![0]!.variables).toEqual([
      { name: 'password', value: 'p', enabled: true, secret: true },
      { name: 'plain', value: 'v', enabled: true, secret: false },
    ]);
  });

  it('keeps environments and variables named like object members as written', async () => {
    const result = await pasted('{"$shared": {"constructor": "c"}, "__proto__": {"toString": "t", "__proto__": "p"}, "hasOwnProperty": {"a": "1"}}', 'http-env');
    expect(result.environments).toEqual([
      { name: '__proto__', variables: [{ name: 'toString', value: 't', enabled: true, secret: false }, { name: '__proto__', value: 'p', enabled: true, secret: false }] },
      { name: 'hasOwnProperty', variables: [{ name: 'a', value: '1', enabled: true, secret: false }] },
    ]);
    expect(result.globals).toEqual([{ name: 'constructor', value: 'c', enabled: true, secret: false }]);
  });

  it('refuses JSON that is not an object of environments', async () => {
    await expect(pasted('[1,2]', 'http-env')).rejects.toMatchObject({ code: 'import-malformed' });
  });
});

describe('auto-detect', () => {
  const registry = createImporterRegistry();
  const cases: { what: string; name?: string; text: string; format: string | null }[] = [
    { what: 'a .http name', name: 'api.http', text: '{"openapi": "3.1.0"}', format: 'http' },
    { what: 'a .rest name', name: 'api.REST', text: '', format: 'http' },
    { what: 'a request line after comments and variables', text: '# hello\n// more\n@host = x\n\n###\nGET https://x/a', format: 'http' },
    { what: 'a request line with a {{variable}} URL', text: 'POST {{base}}/pets HTTP/1.1', format: 'http' },
    { what: 'a WebSocket request line', text: 'WEBSOCKET wss://x/chat', format: 'http' },
    { what: 'a bare URL line', text: 'https://example.com', format: 'http' },
    { what: 'prose that starts with a method word', text: 'GET the pets first', format: null },
    { what: 'the public environment file by name', name: 'http-client.env.json', text: '{"dev": {}}', format: 'http-env' },
    { what: 'the private environment file by name', name: 'http-client.private.env.json', text: '{"dev": {}}', format: 'http-env' },
    { what: 'environments by $shared', text: '{"$shared": {"a": 1}, "dev": {}}', format: 'http-env' },
  ];
  it.each(cases)('$what', ({ name, text, format }) => {
    expect(registry.detectFormat({ ...(name ? { name } : {}), text })?.format ?? null).toBe(format);
  });
});

describe('limits (SPEC: a file over 10 MB or with more than 5,000 requests is refused)', () => {
  const deps = { newId: counterIds(), now: FIXED_CLOCK };

  it('imports 5,000 requests and refuses 5,001', async () => {
    const file = (n: number) => Array.from({ length: n }, (_, i) => `GET https://x/${i}`).join('\n\n###\n');
    expect(requests(await pasted(file(5000)))).toHaveLength(5000);
    await expect(pasted(file(5001))).rejects.toMatchObject({ code: 'import-too-large', message: expect.stringMatching(/5,001 requests, over the 5,000/) });
  });

  it('imports a file of exactly 10 MB and refuses one byte more before reading it', async () => {
    const { runImportJob } = await import('../run-job.js');
    const dir = join(work, 'limits');
    await mkdir(dir, { recursive: true });
    const head = 'GET https://x/a\n\n';
    const exact = join(dir, 'exact.http');
    await writeFile(exact, head + ' '.repeat(10 * 1024 * 1024 - head.length));
    const { result } = await runImportJob({ source: { kind: 'file', path: exact }, format: 'auto', options: {}, network }, deps);
    expect(requests(result)).toHaveLength(1);
    const over = join(dir, 'over.http');
    await writeFile(over, head + ' '.repeat(10 * 1024 * 1024 - head.length + 1));
    await expect(runImportJob({ source: { kind: 'file', path: over }, format: 'auto', options: {}, network }, deps)).rejects.toMatchObject({ code: 'import-too-large' });
  });

  it('refuses a 51 MB file', async () => {
    const { runImportJob } = await import('../run-job.js');
    const big = join(work, 'limits', 'big.http');
    await writeFile(big, 'GET https://x/a\n');
    await truncate(big, 51 * 1024 * 1024);
    await expect(runImportJob({ source: { kind: 'file', path: big }, format: 'auto', options: {}, network }, deps)).rejects.toMatchObject({ code: 'import-too-large' });
  });
});

describe('real files', () => {
  it('httpyac intellij.http: six requests in order, continuation lines, a handler kept as text', async () => {
    const { result } = await importSource({ kind: 'file', path: join(FIXTURES, 'httpyac', 'intellij.http') });
    expect(requests(result).map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST https://httpbin.org/anything',
      'POST https://httpbin.org/anything',
      'POST https://httpbin.org/anything?test=test',
      'POST https://httpbin.org/anything',
      'POST https://httpbin.org/anything',
      'POST https://httpbin.org/anything',
    ]);
    expect(result.scripts?.map((s) => s.text)).toEqual(['client.global.set("email", response.body.form.email);']);
  });

  it('httpyac graphql.http: the fragment before the request joins its query', async () => {
    const { result } = await importSource({ kind: 'file', path: join(FIXTURES, 'httpyac', 'graphql.http') });
    const [first] = requests(result);
    expect(first!.body.kind).toBe('graphql');
    expect(first!.body.graphql!.query).toMatch(/^query test\(\$name: String!, \$owner: String!\) \{[^]*fragment IOParts on Repository \{/);
    expect(JSON.parse(first!.body.graphql!.variables)).toEqual({ name: 'vscode-httpyac', owner: 'AnWeber' });
  });

  it('httpyac multipartFormData.http: text parts and a file part', async () => {
    const { result } = await importSource({ kind: 'file', path: join(FIXTURES, 'httpyac', 'multipartFormData.http') });
    expect(requests(result)[0]!.body.multipart.map((p) => `${p.kind}:${p.name}`)).toEqual(['text:text', 'text:title', 'file:invoice']);
  });
});
