/**
 * Imports and definition updates through the supervisor and a real importer child: what lands
 * in the project, secrets kept out of it, a failed import leaving nothing behind, cancel and
 * kill -9 of the importer mid-job (the job fails clearly, the next one works, nothing stored is
 * lost), and the definition update's preview, apply, changed-sources refusal and failed save.
 * A big import's requests are written as they arrive: the supervisor never holds them all, and
 * a kill -9 of the importer after some were staged leaves the project exactly as it was.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isHttp } from '../../protocol/kinds/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChildProcessHandle, type ChildCallOptions } from '../../processes/supervisor/children/child-process.js';
import { STAGING_DIR } from '../../processes/supervisor/imports/import-staging.js';

import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { nodeFs, type FsOps } from '../../processes/supervisor/store/atomic.js';
import { ProjectReader } from '../../processes/supervisor/store/project-reader.js';
import type { Request } from '../../protocol/model/request.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import type { ChunkOf, MethodName, ReqOf } from '../../protocol/messages.js';
import type { ImportProgress } from '../../protocol/model/import.js';
import { alive } from '../support/processes.js';
import { until } from '../support/until.js';

const PETS = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
servers: [{ url: 'http://127.0.0.1:9/v1' }]
tags: [{ name: pets }]
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
    post:
      tags: [pets]
      summary: Create a pet
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
      responses: { '201': { description: created } }
  /pets/{id}:
    get:
      tags: [pets]
      summary: Get a pet
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
webhooks: {}
components:
  schemas:
    Pet: { type: object, required: [name], properties: { name: { type: string } } }
`;

/** Keeps secrets in memory; the real keychain is exercised by send-path and cli-import tests. */
class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  get = async (name: string) => this.values.get(name) ?? null;
  set = async (name: string, value: string) => void this.values.set(name, value);
  delete = async (name: string) => void this.values.delete(name);
  unavailableReason = async () => null;
}

/** Project saves that can be made to fail on their next rename. */
let failNextRename = false;
const flakyFs: FsOps = {
  ...nodeFs,
  rename: (from, to) => {
    if (failNextRename) {
      failNextRename = false;
      return Promise.reject(Object.assign(new Error('injected rename failure'), { code: 'EIO' }));
    }
    return nodeFs.rename(from, to);
  },
};

let sup: Supervisor;
let home: string;
let server: Server;
let base: string;
const secrets = new MemorySecrets();
const seenAuth: (string | undefined)[] = [];
const logs: string[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-import-it-'));
  sup = await Supervisor.start({ dataDir: home, log: (line) => logs.push(line), secrets, projectFs: flakyFs });
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    if (req.url === '/slow.yaml') return void setTimeout(() => res.end(PETS), 20_000);
    if (req.url === '/private.yaml') {
      if (req.headers.authorization !== 'Bearer tok-s3cret-value') return void res.writeHead(401).end();
      return void res.end(PETS);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 30_000);

afterAll(async () => {
  await sup?.shutdown();
  server?.closeAllConnections();
  server?.close();
});

function run(req: ReqOf<'import.run'>, signal = new AbortController().signal, progress: ImportProgress[] = []) {
  return sup.imports.run(req, { signal, chunk: (p) => progress.push(p) });
}

// A full collection on demand, to count which request objects the supervisor still holds.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** An OpenAPI document of `operations` operations, each with a request body to sample. */
function manyOperations(operations: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations / 2; i++) {
    const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } };
    paths[`/things/${i}`] = { get: { summary: `Get thing ${i}`, responses: { '200': { description: 'ok' } } }, put: { summary: `Put thing ${i}`, requestBody: body, responses: { '200': { description: 'ok' } } } };
  }
  const thing = { type: 'object', properties: { name: { type: 'string', example: 'a thing' }, tags: { type: 'array', items: { type: 'string' } }, size: { type: 'integer' } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Many', version: '1' }, servers: [{ url: 'http://127.0.0.1:9' }], paths, components: { schemas: { Thing: thing } } });
}

/**
 * Watches the importer's parts as the supervisor receives them: each part's requests are
 * remembered weakly (so `live()` counts those still held), and `onPart` runs with the child.
 */
function watchParts(onPart: (child: ChildProcessHandle, parts: number) => void = () => {}) {
  const refs: WeakRef<object>[] = [];
  let parts = 0;
  const call = ChildProcessHandle.prototype.call;
  const spy = vi.spyOn(ChildProcessHandle.prototype, 'call').mockImplementation(function (this: ChildProcessHandle, type: MethodName, payload: unknown, options: ChildCallOptions<'importer.run'> = {}) {
    const onChunk = options.onChunk;
    if (type !== 'importer.run' || !onChunk) return call.call(this, type, payload as never, options as never);
    const watched = (chunk: ChunkOf<'importer.run'>) => {
      if ('part' in chunk && chunk.part === 'requests') {
        for (const item of chunk.items) refs.push(new WeakRef(item.request));
        onPart(this, ++parts);
      }
      onChunk(chunk);
    };
    return call.call(this, 'importer.run', payload as ReqOf<'importer.run'>, { ...options, onChunk: watched });
  } as never);
  return {
    received: () => refs.length,
    /** How many of the requests received are still held by anything (after a full collection). */
    live(): number {
      collectGarbage();
      let held = 0;
      for (const ref of refs) if (ref.deref() !== undefined) held++;
      return held;
    },
    restore: () => spy.mockRestore(),
  };
}

/**
 * Watches the project index's read-back: every parsed request the reader adds to the index is
 * remembered weakly, by the objects inside it (its body, headers, settings, auth), so `live()`
 * counts the requests of which anything parsed is still held (after a full collection).
 */
function watchReadBack() {
  const refs: WeakRef<object>[][] = [];
  const add = ProjectReader.prototype.addRequest;
  // Wrapped by hand: a vitest spy would keep every call's arguments, the parsed requests among them.
  ProjectReader.prototype.addRequest = function (this: ProjectReader, ...args: Parameters<typeof add>) {
    const parsed = args.find((a): a is Request => typeof a === 'object' && a !== null && 'body' in a);
    if (parsed) refs.push([parsed, parsed.body, parsed.headers, parsed.settings, parsed.auth].map((o) => new WeakRef(o)));
    return add.apply(this, args);
  };
  return {
    read: () => refs.length,
    live(): number {
      collectGarbage();
      return refs.filter((request) => request.some((ref) => ref.deref() !== undefined)).length;
    },
    restore: () => void (ProjectReader.prototype.addRequest = add),
  };
}

/** Every file under `dir` with its text, and every folder, hidden ones included. */
async function everything(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = join(entry.parentPath, entry.name);
    out.set(relative(dir, full), entry.isDirectory() ? '<dir>' : await readFile(full, 'utf8'));
  }
  return out;
}

function stagedFiles(): string[] {
  const root = join(home, STAGING_DIR);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' });
}

async function filesOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    out.set(relative(dir, full), await readFile(full, 'utf8'));
  }
  return out;
}

describe('import through the importer process', () => {
  it('imports a file into a new project: the API, its folders and requests, the cached definition, progress', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-doc-'));
    await writeFile(join(dir, 'pets.yaml'), PETS);
    const progress: ImportProgress[] = [];
    const done = await run({ source: { kind: 'file', path: join(dir, 'pets.yaml') }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'p1'), name: 'First' } }, undefined, progress);
    expect(done.detection).toMatchObject({ format: 'openapi', label: expect.stringContaining('OpenAPI 3.0') });
    expect(done.apis).toEqual([{ id: expect.any(String), name: 'Pets', baseUrl: 'http://127.0.0.1:9/v1', requests: 3, folders: 1 }]);
    expect(done.report).toMatchObject({ declaredVersion: 'openapi-3.0', apiVersion: '1.0', requestCount: 3, folderCount: 1 });
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['read', 'convert', 'done']));

    const store = sup.project(join(home, 'p1'));
    expect(store.name).toBe('First');
    const api = store.listApis()[0]!;
    expect(api.definition?.source).toEqual({ kind: 'file', location: join(dir, 'pets.yaml') });
    expect((await store.requestsOf(api.id)).filter(isHttp).map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /pets', 'GET /pets/{id}', 'POST /pets']);
    expect(await readFile(join(store.apiDir(api.id), api.definition!.cached[0]!), 'utf8')).toBe(PETS);
    expect(existsSync(join(store.apiDir(api.id), 'requests', 'pets'))).toBe(true);
  });

  it('importing the same document again makes a second API', async () => {
    const store = sup.project(join(home, 'p1'));
    const done = await run({ source: { kind: 'paste', text: PETS }, format: 'openapi', options: { name: 'Pets again' }, into: { kind: 'project', project: store.root } });
    expect(store.listApis().map((a) => a.name).sort()).toEqual(['Pets', 'Pets again']);
    expect(store.getApi(done.apis[0]!.id).definition?.source).toBeUndefined();
  });

  it('a document that does not parse is refused, naming it, and no project is created', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-doc-'));
    await writeFile(join(dir, 'openapi.yaml'), 'openapi: 3.0.0\ninfo: [unclosed\n');
    await expect(run({ source: { kind: 'file', path: join(dir, 'openapi.yaml') }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'never') } })).rejects.toMatchObject({
      code: 'import-malformed',
      message: expect.stringContaining('openapi.yaml'),
    });
    expect(existsSync(join(home, 'never'))).toBe(false);
  });

  it('fetches with credentials: the secret goes to the keychain, the files keep only a reference', async () => {
    const token = 'tok-s3cret-value';
    const done = await run({
      source: { kind: 'url', url: `${base}/private.yaml`, credentials: { type: 'bearer', token } },
      format: 'auto',
      options: {},
      into: { kind: 'new', path: join(home, 'p2') },
    });
    const store = sup.project(done.project!);
    const api = store.getApi(done.apis[0]!.id);
    expect(api.definition?.source).toEqual({ kind: 'url', location: `${base}/private.yaml`, credentials: { type: 'bearer', secret: `\${secret:api.${api.id}.definition}` } });
    expect(secrets.values.get(`api.${api.id}.definition`)).toBe(token);
    for (const [file, text] of await filesOf(done.project!)) expect(text, file).not.toContain(token);
    expect(sup.workspace.get().secrets).toContain(`api.${api.id}.definition`);
  });

  it('a 401 is reported as needing authentication', async () => {
    await expect(run({ source: { kind: 'url', url: `${base}/private.yaml` }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'p401') } })).rejects.toMatchObject({
      code: 'auth-required',
      message: expect.stringContaining('needs authentication'),
    });
  });

  it('an OpenAPI file found by auto-detect is converted by an importer that favors memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-doc-'));
    const paths = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`/things/${i}`, { get: { summary: `Thing ${i}`, responses: { '200': { description: 'ok' } } } }]));
    await writeFile(join(dir, 'many.json'), JSON.stringify({ openapi: '3.0.3', info: { title: 'Many', version: '1' }, paths }));
    const job = run({ source: { kind: 'file', path: join(dir, 'many.json') }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'many') } });
    await until(() => sup.activeJobs.some((j) => j.pid !== undefined));
    const cmdline = readFileSync(`/proc/${sup.activeJobs[0]!.pid!}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('--optimize-for-size');
    expect(cmdline.some((a) => /^--max-old-space-size=\d+$/.test(a))).toBe(true);
    // Its 4,000 requests came over in parts, ahead of the answer, and all landed.
    expect((await job).apis[0]).toMatchObject({ name: 'Many', requests: 4000 });
    expect(await sup.project(join(home, 'many')).requestsOf((await job).apis[0]!.id)).toHaveLength(4000);
  }, 120_000);

  it('cancel stops the job and its importer process', async () => {
    const abort = new AbortController();
    const job = run({ source: { kind: 'url', url: `${base}/slow.yaml` }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'cancelled') } }, abort.signal);
    await until(() => sup.activeJobs.some((j) => j.pid !== undefined));
    const pid = sup.activeJobs[0]!.pid!;
    // What comes from a URL is a definition: its importer favors memory (ImportService.inChild).
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--optimize-for-size');
    abort.abort();
    await expect(job).rejects.toMatchObject({ code: 'cancelled' });
    await until(() => sup.activeJobs.length === 0);
    await until(() => !alive(pid));
    expect(existsSync(join(home, 'cancelled'))).toBe(false);
  });

  it('kill -9 of the importer mid-job: the job fails clearly, the next import works, nothing stored is lost', async () => {
    const store = sup.project(join(home, 'p1'));
    const slowRequestsBefore = seenAuth.length;
    const before = await filesOf(store.root);
    const job = run({ source: { kind: 'url', url: `${base}/slow.yaml` }, format: 'auto', options: {}, into: { kind: 'project', project: store.root } });
    await until(() => sup.activeJobs.some((j) => j.state === 'running'));
    await until(() => seenAuth.length > slowRequestsBefore);
    process.kill(sup.activeJobs[0]!.pid!, 'SIGKILL');
    await expect(job).rejects.toMatchObject({ code: 'child-died', message: expect.stringMatching(/importer process was stopped by SIGKILL/) });
    expect(await filesOf(store.root)).toEqual(before);

    const next = await run({ source: { kind: 'paste', text: PETS }, format: 'auto', options: { name: 'After the crash' }, into: { kind: 'project', project: store.root } });
    expect(next.apis[0]).toMatchObject({ name: 'After the crash', requests: 3 });
  });

  it('a big import is written as its parts arrive: the supervisor never holds all its requests at once', async () => {
    const operations = 4000;
    const dir = await mkdtemp(join(tmpdir(), 'parley-doc-'));
    await writeFile(join(dir, 'many.json'), manyOperations(operations));
    let atSave = -1;
    const watch = watchParts();
    const readBack = watchReadBack();
    try {
      const progress: ImportProgress[] = [];
      const job = sup.imports.run(
        { source: { kind: 'file', path: join(dir, 'many.json') }, format: 'openapi', options: {}, into: { kind: 'new', path: join(home, 'streamed') } },
        {
          signal: new AbortController().signal,
          // Said just before the commit: every part has arrived and been staged.
          chunk: (p) => {
            progress.push(p);
            if (p.phase === 'done' && /^Saving/.test(p.message)) atSave = watch.live();
          },
        },
      );
      const answer = await job;
      expect(answer.apis[0]).toMatchObject({ name: 'Many', requests: operations });
      expect(watch.received()).toBe(operations);
      // Every request was let go once its file was staged: while the files are saved, none is held.
      expect(atSave).toBe(0);
      // Read back into the project's index, which keeps each request's text and what the tree
      // shows of it, not the parsed request (bench/README.md: 10.6 KB of heap each on Graph).
      expect(readBack.read()).toBe(operations);
      expect(readBack.live()).toBe(0);
      const store = sup.project(join(home, 'streamed'));
      expect(store.tree().items.filter((item) => item.kind === 'request')).toHaveLength(operations);
      expect(store.tree().items).toContainEqual(expect.objectContaining({ kind: 'request', name: 'Put thing 1234', method: 'PUT' }));
      const requests = await store.requestsOf(answer.apis[0]!.id);
      expect(requests).toHaveLength(operations);
      expect(requests.find((r) => r.name === 'Put thing 1234')).toMatchObject({ method: 'PUT', url: '/things/1234' });
      expect(stagedFiles()).toEqual([]);
    } finally {
      watch.restore();
      readBack.restore();
    }
  }, 240_000);

  it('kill -9 of the importer after some requests were staged: the project is exactly as it was, no staged file is left', async () => {
    await run({ source: { kind: 'paste', text: PETS }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'killed-mid-stream') } });
    const store = sup.project(join(home, 'killed-mid-stream'));
    const before = await everything(store.root);
    const dir = await mkdtemp(join(tmpdir(), 'parley-doc-'));
    await writeFile(join(dir, 'many.json'), manyOperations(4000));
    let killed = 0;
    // At the first part, once its files are being staged, the importer (still converting the rest) is killed.
    const watch = watchParts((child, parts) => {
      if (parts !== 1) return;
      const pid = child.pid!;
      void until(() => stagedFiles().length > 0, 60_000).then(() => {
        killed = stagedFiles().length;
        process.kill(pid, 'SIGKILL');
      });
    });
    try {
      const job = run({ source: { kind: 'file', path: join(dir, 'many.json') }, format: 'openapi', options: {}, into: { kind: 'project', project: store.root } });
      await expect(job).rejects.toMatchObject({ code: 'child-died', message: expect.stringMatching(/importer process was stopped by SIGKILL/) });
    } finally {
      watch.restore();
    }
    expect(killed).toBeGreaterThan(0);
    expect(await everything(store.root)).toEqual(before);
    expect(stagedFiles()).toEqual([]);
    expect(store.listApis().map((a) => a.name)).not.toContain('Many');
  }, 240_000);

  it('a failed save writes nothing and takes the fetched secret back out of the keychain', async () => {
    const count = secrets.values.size;
    failNextRename = true;
    await expect(
      run({ source: { kind: 'url', url: `${base}/private.yaml`, credentials: { type: 'bearer', token: 'tok-s3cret-value' } }, format: 'auto', options: {}, into: { kind: 'project', project: join(home, 'p1') } }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/Saving failed \(EIO\)/) });
    expect(secrets.values.size).toBe(count);
    expect(sup.project(join(home, 'p1')).listApis()).toHaveLength(3);
  });
});

describe('definition update through the importer process', () => {
  let doc: string;
  let project: string;
  let apiId: string;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-doc-'));
    doc = join(dir, 'pets.yaml');
    await writeFile(doc, PETS);
    const done = await run({ source: { kind: 'file', path: doc }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'upd') } });
    project = done.project!;
    apiId = done.apis[0]!.id;
  });

  const changed = () => PETS.replace('  /pets/{id}:\n    get:\n', '  /owners:\n    get:\n      summary: List owners\n      responses: { \'200\': { description: ok } }\n  /pets/{id}:\n    delete:\n');
  const ctx = () => ({ signal: new AbortController().signal, chunk: () => {} });

  it('previews added and removed operations without writing anything', async () => {
    await writeFile(doc, changed());
    const before = await filesOf(project);
    const { preview, source } = await sup.imports.preview({ project, api: apiId }, ctx());
    expect(source).toBe(doc);
    expect(preview.added).toEqual(expect.arrayContaining([{ method: 'get', path: '/owners' }, { method: 'delete', path: '/pets/{id}' }]));
    expect(preview.removed).toEqual([{ method: 'get', path: '/pets/{id}' }]);
    expect(await filesOf(project)).toEqual(before);
  });

  it('refuses Apply when a source changed since the preview, and applies nothing', async () => {
    const { preview } = await sup.imports.preview({ project, api: apiId }, ctx());
    await writeFile(doc, changed().replace("version: '1.0'", "version: '1.1'"));
    const before = await filesOf(project);
    await expect(sup.imports.apply({ project, api: apiId, fingerprint: preview.fingerprint }, ctx())).rejects.toMatchObject({ code: 'definition-changed' });
    expect(await filesOf(project)).toEqual(before);
  });

  it('a failed save leaves the API exactly as it was', async () => {
    const { preview } = await sup.imports.preview({ project, api: apiId }, ctx());
    const before = await filesOf(project);
    failNextRename = true;
    await expect(sup.imports.apply({ project, api: apiId, fingerprint: preview.fingerprint }, ctx())).rejects.toMatchObject({ message: expect.stringMatching(/Saving failed \(EIO\)/) });
    expect(await filesOf(project)).toEqual(before);
  });

  it('applies: new requests added, the removed operation’s request kept and orphaned, the cache rewritten', async () => {
    const { preview } = await sup.imports.preview({ project, api: apiId }, ctx());
    const { counts } = await sup.imports.apply({ project, api: apiId, fingerprint: preview.fingerprint }, ctx());
    expect(counts).toMatchObject({ added: 2, orphaned: 1 });
    const store = sup.project(project);
    const requests = (await store.requestsOf(apiId)).filter(isHttp);
    expect(requests).toHaveLength(5);
    expect(requests.find((r) => r.operation?.path === '/pets/{id}' && r.operation.method === 'get')?.orphaned).toBe(true);
    const api = store.getApi(apiId);
    expect(api.definition?.apiVersion).toBe('1.1');
    expect(await readFile(join(store.apiDir(apiId), api.definition!.cached[0]!), 'utf8')).toContain('/owners');
  });

  it('refuses to read a cached definition document that is a symbolic link out of the project', async () => {
    const store = sup.project(project);
    const cached = join(store.apiDir(apiId), store.getApi(apiId).definition!.cached[0]!);
    const outside = join(await mkdtemp(join(tmpdir(), 'parley-outside-')), 'elsewhere.yaml');
    await rename(cached, outside);
    await symlink(outside, cached);
    try {
      await expect(sup.imports.preview({ project, api: apiId }, ctx())).rejects.toMatchObject({ code: 'path-escape', message: expect.stringContaining('through a symbolic link') });
    } finally {
      await rename(outside, cached);
    }
  });

  it('an API imported from pasted text asks for a file or URL', async () => {
    const pasted = await run({ source: { kind: 'paste', text: PETS }, format: 'auto', options: {}, into: { kind: 'project', project } });
    await expect(sup.imports.preview({ project, api: pasted.apis[0]!.id }, ctx())).rejects.toMatchObject({ code: 'no-source' });
    const { preview } = await sup.imports.preview({ project, api: pasted.apis[0]!.id, source: { kind: 'file', path: doc } }, ctx());
    expect(preview.added.length).toBeGreaterThan(0);
  });
});

