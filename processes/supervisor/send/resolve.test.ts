/** resolveRequest's refusals before the network: an auth without its values, a URL that is not one. */
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../../protocol/model/api.js';
import type { Auth } from '../../../protocol/model/auth.js';
import { blankRequest, emptyBody, type Body, type Request } from '../../../protocol/model/request.js';
import { Expander } from './expand.js';
import { resolveRequest } from './resolve.js';

const api: Api = { version: 1, id: 'a_1', name: 'Pets', baseUrl: 'http://127.0.0.1:9/v1', auth: { type: 'none' } };

function request(patch: Partial<Request>): Request {
  return { ...blankRequest({ id: 'r_1', name: 'Get', method: 'GET', url: '/pets' }), ...patch };
}

function resolve(req: Request, onApi: Api = api, secrets = new Map<string, string>(), projectRoot = '/nowhere') {
  return resolveRequest(req, onApi, {
    expander: new Expander({ environment: [{ name: 'empty', value: '', enabled: true }, { name: 'home', value: '/etc', enabled: true }], project: [], globals: [], secrets }),
    projectRoot,
    proxy: '',
    caPem: '',
    inlineLimit: 1024,
    oauthToken: () => Promise.reject(new Error('no token server in this test')),
  });
}

describe('resolveRequest with Kerberos auth', () => {
  it('needs no values: the sender is asked to answer Negotiate, for HTTP@<host> when no SPN is given', async () => {
    const spec = await resolve(request({ auth: { type: 'kerberos' } }));
    expect(spec.negotiate).toEqual({ spn: '' });
    expect(spec.headers.some(([n]) => n.toLowerCase() === 'authorization')).toBe(false);
  });

  it('carries the SPN as typed, inherited from the API too', async () => {
    const spec = await resolve(request({ auth: { type: 'inherit' } }), { ...api, auth: { type: 'kerberos', spn: ' HTTP/svc.example.test@EXAMPLE.TEST ' } });
    expect(spec.negotiate).toEqual({ spn: 'HTTP/svc.example.test@EXAMPLE.TEST' });
  });

  it('refuses an SPN that is not one before the network', async () => {
    await expect(resolve(request({ auth: { type: 'kerberos', spn: 'a/b/c' } }))).rejects.toMatchObject({ code: 'auth-kerberos-bad-spn', message: expect.stringMatching(/HTTP@host or HTTP\/host@REALM/) });
  });

  it('leaves a hand-set Authorization header alone', async () => {
    const spec = await resolve(request({ auth: { type: 'kerberos' }, headers: [{ name: 'Authorization', value: 'Negotiate abc', enabled: true }] }));
    expect(spec.negotiate).toBeUndefined();
  });
});

describe('resolveRequest refuses an auth whose required values are empty', () => {
  const cases: [string, Auth, RegExp][] = [
    ['Basic without a user name', { type: 'basic', username: '', password: '' }, /Basic auth has no Username/],
    ['Bearer without a token', { type: 'bearer', token: '  ' }, /Bearer auth has no Token/],
    ['Bearer whose token expands to nothing', { type: 'bearer', token: '${empty}' }, /Bearer auth has no Token/],
    ['API key without a key', { type: 'apikey', name: 'X-Key', value: '', in: 'header' }, /API key auth has no Key/],
    ['API key without a name or a key', { type: 'apikey', name: '', value: '', in: 'query' }, /has no Parameter name or Key/],
    [
      'OAuth 2 without its URLs and client',
      { type: 'oauth2', grant: 'authorization_code', tokenUrl: '', authorizationUrl: '', clientId: '', clientSecret: '', scope: '', usePkce: true },
      /OAuth 2 auth has no Authorization URL, Token URL or Client ID/,
    ],
  ];
  for (const [name, auth, message] of cases) {
    it(name, async () => {
      await expect(resolve(request({ auth }))).rejects.toMatchObject({ code: 'auth-incomplete', message: expect.stringMatching(message) });
    });
  }

  it('names the API when the auth is inherited', async () => {
    const err = await resolve(request({ auth: { type: 'inherit' } }), { ...api, auth: { type: 'basic', username: '', password: '' } }).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'auth-incomplete' });
    expect((err as Error).message).toContain('Basic auth (from the API Pets) has no Username');
  });

  it('sends Basic with a user name and an empty password, which some services use', async () => {
    const spec = await resolve(request({ auth: { type: 'basic', username: 'sk_test', password: '' } }));
    expect(spec.headers).toContainEqual(['Authorization', `Basic ${Buffer.from('sk_test:').toString('base64')}`]);
  });
});

describe('resolveRequest refuses a URL that is not one, instead of sending it as a path', () => {
  const cases: [string, RegExp][] = [
    ['ht!tp://bad url/%%', /the URL "ht!tp:\/\/bad url\/%%" is not valid: "ht!tp" is not a URL scheme/],
    ['http://bad host/pets', /contains a space/],
    ['/pets/a b', /contains a space/],
    ['/pets/%%41', /"%%4" is not a percent-escape/],
    ['ftp://example.com/x', /ftp: URLs are not HTTP requests/],
    ['http://exa mple.com:99999/', /contains a space/],
    ['http://example.com:99999/', /not a valid URL/],
  ];
  for (const [url, message] of cases) {
    it(url, async () => {
      await expect(resolve(request({ url }))).rejects.toMatchObject({ code: 'bad-url', message: expect.stringMatching(message) });
    });
  }

  it('still sends good URLs, full or under the base URL, with escapes and encoded path values', async () => {
    await expect(resolve(request({ url: '/pets/caf%C3%A9' })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/pets/caf%C3%A9');
    await expect(resolve(request({ url: 'https://example.com/a' })).then((s) => s.url)).resolves.toBe('https://example.com/a');
    const withParam = request({ url: '/pets/{id}', pathParams: [{ name: 'id', value: 'a b' }] });
    await expect(resolve(withParam).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/pets/a%20b');
  });

  it('never quotes a secret the URL expanded to', async () => {
    const err = await resolve(request({ url: '/pets/${secret:key}' }), api, new Map([['key', 'hunter 22']])).catch((e: Error) => e);
    expect((err as Error).message).toContain('${secret:key}');
    expect((err as Error).message).not.toContain('hunter');
  });
});

describe('resolveRequest sends the URL as typed', () => {
  const withVars = (req: Request) =>
    resolveRequest(req, api, {
      expander: new Expander({ environment: [{ name: 'term', value: 'a b&c=d', enabled: true }, { name: 'base', value: 'http://127.0.0.1:9/q?k=1', enabled: true }], project: [], globals: [], secrets: new Map() }),
      projectRoot: '/nowhere',
      proxy: '',
      caPem: '',
      inlineLimit: 1024,
      oauthToken: () => Promise.reject(new Error('no token server in this test')),
    });

  it('puts the query on the wire as typed, never the fragment', async () => {
    await expect(resolve(request({ url: '/echo?a=1&b=2#frag' })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/echo?a=1&b=2');
    await expect(resolve(request({ url: '/echo?x=a+b&y=%41&&z=#top?a=1' })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/echo?x=a+b&y=%41&&z=');
    await expect(resolve(request({ url: '/echo?' })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/echo?');
    await expect(resolve(request({ url: 'https://example.com/#only-a-fragment' })).then((s) => s.url)).resolves.toBe('https://example.com/');
  });

  it('expands ${...} in the query percent-encoded where it stands, and in the path as it is', async () => {
    await expect(withVars(request({ url: '/s?q=${term}&raw=1' })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/s?q=a%20b%26c%3Dd&raw=1');
    await expect(withVars(request({ url: '${base}&then=2#f' })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/q?k=1&then=2');
    await expect(withVars(request({ url: '/s/{id}?q={id}', pathParams: [{ name: 'id', value: '7' }] })).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/s/7?q={id}');
  });

  it('sends the rows a request of an earlier release holds switched on after the URL\'s query, as it did', async () => {
    const old = request({ url: '/pets?x=1', query: [{ name: 'limit', value: '10', enabled: true }, { name: 'off', value: '1', enabled: false }, { name: 'q', value: '${term}', enabled: true }] });
    await expect(withVars(old).then((s) => s.url)).resolves.toBe('http://127.0.0.1:9/v1/pets?x=1&limit=10&q=a%20b%26c%3Dd');
  });

  it('refuses a space or a stray % in the typed query, as in the path', async () => {
    await expect(resolve(request({ url: '/s?q=a b' }))).rejects.toMatchObject({ code: 'bad-url', message: expect.stringMatching(/contains a space/) });
    await expect(resolve(request({ url: '/s?q=100%' }))).rejects.toMatchObject({ code: 'bad-url', message: expect.stringMatching(/not a percent-escape/) });
  });
});

describe('resolveRequest sends body files from inside the project only', () => {
  let root: string;
  beforeAll(async () => {
    root = join(await mkdtemp(join(tmpdir(), 'parley-body-files-')), 'project');
    await mkdir(join(root, 'files'), { recursive: true });
    await writeFile(join(root, 'files', 'photo.png'), 'png');
    await symlink('/etc/passwd', join(root, 'files', 'leak.png'));
    await symlink('/etc', join(root, 'files', 'etc'));
  });
  const binary = (file: string): Body => ({ ...emptyBody(), kind: 'binary', binary: { file, contentType: 'image/png' } });
  const multipart = (file: string): Body => ({ ...emptyBody(), kind: 'multipart', multipart: [{ kind: 'file', name: 'avatar', file, contentType: '', enabled: true }] });

  it('sends a file named relative to the project folder', async () => {
    // The sender opens it inside the project folder itself (sender/engine/body-file.ts): it gets the folder and the path there.
    expect((await resolve(request({ method: 'POST', body: binary('files/./photo.png') }), api, undefined, root)).body).toEqual({ type: 'file', root, path: 'files/photo.png' });
    const spec = await resolve(request({ method: 'POST', body: multipart('files/photo.png') }), api, undefined, root);
    expect(spec.body).toMatchObject({ type: 'multipart', root, parts: [{ kind: 'file', name: 'avatar', path: 'files/photo.png' }] });
  });

  const refused: [string, (file: string) => Body, string, RegExp][] = [
    ['an absolute binary file', binary, '/etc/passwd', /binary body's file "\/etc\/passwd" is absolute/],
    ['an absolute multipart file', multipart, '/etc/passwd', /file of multipart part "avatar" "\/etc\/passwd" is absolute/],
    ['a path that climbs out', binary, '../../etc/passwd', /points outside the project folder/],
    ['a link out of the project', binary, 'files/leak.png', /through a symbolic link/],
    ['a file under a linked folder', multipart, 'files/etc/passwd', /through a symbolic link/],
    ['a property that expands to an absolute path', binary, '${home}/passwd', /"\/etc\/passwd" is absolute/],
  ];
  it.each(refused)('refuses %s, saying which field', async (_name, body, file, message) => {
    const err = await resolve(request({ method: 'POST', body: body(file) }), api, undefined, root).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'path-escape', message: expect.stringMatching(message) });
    expect((err as Error).message).toMatch(/^Not sent: .*choose the file again in the Body tab to copy it in\.$/);
  });
});

describe('resolveRequest names a missing secret by the one naming scheme', () => {
  it('says the name names no secret, and which stored secret it may mean', async () => {
    const req = request({ headers: [{ name: 'X-Token', value: '${secret:apiToken}', enabled: true }] });
    const run = (known: string[]) =>
      resolveRequest(req, api, {
        expander: new Expander({ environment: [], project: [], globals: [], secrets: new Map() }),
        projectRoot: '/nowhere',
        proxy: '',
        caPem: '',
        inlineLimit: 1024,
        secretNames: known,
        oauthToken: () => Promise.reject(new Error('unused')),
      });
    await expect(run(['staging/apiToken'])).rejects.toThrow('${secret:apiToken} names no secret in the keychain (did you mean ${secret:staging/apiToken}?)');
    await expect(run([])).rejects.toThrow('${secret:apiToken} names no secret in the keychain (store one with Add secret… under Environments)');
  });
});

describe('resolveRequest with a GraphQL body', () => {
  const graphql = (query: string, extra: Partial<NonNullable<Body['graphql']>> = {}): Partial<Request> => ({
    method: 'POST',
    url: '/graphql',
    body: { ...emptyBody(), kind: 'graphql', graphql: { query, variables: '{ "n": 3 }', operationName: '', schemaFile: '', ...extra } },
  });

  it('sends a subscription over graphql-ws to the same endpoint: ws: for http:, no body, the operation parsed', async () => {
    const spec = await resolve(request({ ...graphql('subscription T($n: Int!) { ticks(count: $n) }'), auth: { type: 'bearer', token: 't0k' } }));
    expect(spec).toMatchObject({ method: 'GET', url: 'ws://127.0.0.1:9/v1/graphql', body: { type: 'none' }, subscription: { query: 'subscription T($n: Int!) { ticks(count: $n) }', variables: { n: 3 } } });
    expect(spec.headers).toContainEqual(['Authorization', 'Bearer t0k']);
    expect(spec.headers.some(([n]) => n.toLowerCase() === 'content-type')).toBe(false);
    const secure = await resolve(request(graphql('subscription { ticks(count: 1) }')), { ...api, baseUrl: 'https://127.0.0.1:9' });
    expect(secure.url).toBe('wss://127.0.0.1:9/graphql');
  });

  it('sends the chosen operation of several by its kind: a query over HTTP, a subscription over graphql-ws', async () => {
    const document = 'query Q { hello }\nsubscription S { ticks(count: 1) }';
    const query = await resolve(request(graphql(document, { operationName: 'Q' })));
    expect(query).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/v1/graphql' });
    expect(query.subscription).toBeUndefined();
    const subscription = await resolve(request(graphql(document, { operationName: 'S' })));
    expect(subscription).toMatchObject({ url: 'ws://127.0.0.1:9/v1/graphql', subscription: { operationName: 'S' } });
  });

  it('sends a document that does not parse over HTTP, for the server to say why', async () => {
    const spec = await resolve(request(graphql('subscription {')));
    expect(spec).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/v1/graphql' });
  });
});
