/**
 * .http imports through the supervisor and a real importer child: a picked file with its
 * environment files beside it into a new project (requests in file order, the URL password and
 * a literal credential header to the secret store and never into a project file, scripts as
 * text under imported-scripts/, environments in the workspace renamed when taken and never
 * active, `$shared` to project properties), auto-detect's count of the environments beside the
 * file, and a source whose secrets have no store. dist/ must be built first.
 */
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import type { ReqOf } from '../../protocol/messages.js';
import type { Request } from '../../protocol/model/request.js';

class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  available = true;
  get = async (name: string) => this.values.get(name) ?? null;
  set = async (name: string, value: string) => void this.values.set(name, value);
  delete = async (name: string) => void this.values.delete(name);
  unavailableReason = async () => (this.available ? null : 'There is no system keychain.');
}

let sup: Supervisor;
let home: string;
let src: string;
const secrets = new MemorySecrets();

const HTTP = `@host = https://api.example.test
@apiToken = tok-LITERAL-123

### List pets
GET {{host}}/pets
    ?limit=10
Accept: application/json

###
# @name login
POST https://alice:pa55-LITERAL@api.example.test/login
Content-Type: application/json
X-Api-Key: key-LITERAL-456

{"user": "{{user}}"}

> {%
  client.global.set("token", response.body.token);
%}
`;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-http-it-'));
  src = join(home, 'src');
  await mkdir(src);
  await writeFile(join(src, 'pets.http'), HTTP);
  await writeFile(join(src, 'http-client.env.json'), JSON.stringify({ $shared: { region: 'eu' }, dev: { user: 'dev-user', password: 'env-PW-LITERAL' }, prod: { user: 'prod-user' } }));
  await writeFile(join(src, 'http-client.private.env.json'), JSON.stringify({ dev: { pin: 'PIN-LITERAL' } }));
  sup = await Supervisor.start({ dataDir: home, log: () => {}, secrets });
}, 30_000);
afterAll(async () => {
  await sup?.shutdown();
});

function run(req: ReqOf<'import.run'>) {
  return sup.imports.run(req, { signal: new AbortController().signal, chunk: () => {} });
}

async function allFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.set(relative(dir, join(entry.parentPath, entry.name)), await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return out;
}

it('counts the environments beside a picked .http file for the dialog', async () => {
  expect(await sup.imports.detect({ source: { kind: 'file', path: join(src, 'pets.http') } })).toEqual({ detection: { format: 'http', label: '.http file', settledBy: 'file-name' }, environmentsBeside: 2 });
});

it('imports a picked .http file with its environments: secrets stored, never written to a project file', { timeout: 60_000 }, async () => {
  // A taken name is renamed (SPEC): "dev" exists already.
  await sup.workspace.update((draft) => {
    draft.environments.push({ id: 'e_existing', name: 'dev', variables: [] });
  });
  const done = await run({ source: { kind: 'file', path: join(src, 'pets.http') }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'p') } });
  expect(done.apis).toEqual([expect.objectContaining({ name: 'pets', requests: 2 })]);
  expect(done.workspace?.environments.map((e) => [e.name, e.secrets])).toEqual([['dev 2', 2], ['prod', 0]]);
  const ws = sup.workspace.get();
  expect(ws.activeEnvironment).toBeUndefined();

  const store = sup.project(done.project!);
  const api = store.listApis().find((a) => a.name === 'pets')!;
  const reqs = ((await store.requestsOf(api.id)) as Request[]).sort((a, b) => (a.order ?? '').localeCompare(b.order ?? ''));
  expect(reqs.map((r) => [r.name, r.method, r.url])).toEqual([
    ['List pets', 'GET', '${host}/pets?limit=10'],
    ['login', 'POST', 'https://api.example.test/login'],
  ]);
  const login = reqs[1]!;
  expect(login.auth).toEqual({ type: 'basic', username: 'alice', password: `\${secret:request/${login.id}/password}` });
  expect(secrets.values.get(`request/${login.id}/password`)).toBe('pa55-LITERAL');
  expect(secrets.values.get(`request/${login.id}/header-X-Api-Key`)).toBe('key-LITERAL-456');
  expect(secrets.values.get('properties/apiToken')).toBe('tok-LITERAL-123');
  expect(store.properties).toEqual([
    { name: 'host', value: 'https://api.example.test', enabled: true },
    { name: 'apiToken', value: '${secret:properties/apiToken}', enabled: true },
    { name: 'region', value: 'eu', enabled: true },
  ]);

  const files = await allFiles(done.project!);
  const script = [...files].find(([path]) => path.startsWith('imported-scripts/'));
  expect(script).toEqual(['imported-scripts/login response.js', 'client.global.set("token", response.body.token);']);
  const everything = [...files.values()].join('\n') + (await readFile(join(home, 'workspace.yaml'), 'utf8').catch(() => ''));
  for (const literal of ['pa55-LITERAL', 'key-LITERAL-456', 'tok-LITERAL-123', 'env-PW-LITERAL', 'PIN-LITERAL']) expect(everything).not.toContain(literal);
});

it('without a secret store: refused, or with the secrets left out when the user chose so', { timeout: 60_000 }, async () => {
  secrets.available = false;
  try {
    await expect(run({ source: { kind: 'file', path: join(src, 'pets.http') }, format: 'http', options: { httpEnvironments: false }, into: { kind: 'new', path: join(home, 'q') } })).rejects.toMatchObject({ code: 'no-secure-storage' });
    const done = await run({ source: { kind: 'file', path: join(src, 'pets.http') }, format: 'http', options: { httpEnvironments: false }, into: { kind: 'new', path: join(home, 'q') }, leaveOutSecrets: true });
    expect(done.workspace).toBeUndefined();
    expect(done.report.warnings.map((w) => w.message).join('\n')).toMatch(/3 passwords or credentials from the source were not kept/);
    const files = [...(await allFiles(done.project!)).values()].join('\n');
    expect(files).not.toContain('LITERAL');
  } finally {
    secrets.available = true;
  }
});
