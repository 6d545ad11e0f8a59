import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXAMPLE_BODY_LIMIT, type ExampleSource } from '../../../protocol/model/example.js';
import { MASK } from '../../../protocol/credentials/index.js';
import { examplesDirOf } from '../../../protocol/project/examples.js';
import { ExampleStore } from './example-store.js';
import { ProjectStore } from './project-store.js';

const json = (value: unknown, status = 200, statusText = 'OK'): ExampleSource => {
  const body = new TextEncoder().encode(JSON.stringify(value));
  return { status, statusText, headers: [['Content-Type', 'application/json']], body, size: body.byteLength };
};

describe('ExampleStore', () => {
  let root: string;
  let project: ProjectStore;
  let requestId: string;
  let examples: ExampleStore;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-examples-'));
    project = await ProjectStore.open(root, { create: true });
    const api = await project.createApi({ name: 'Pets', baseUrl: 'http://127.0.0.1:1' });
    requestId = (await project.createRequest({ parent: api.id, name: 'Get pet', method: 'GET', url: '/pets/1' })).id;
    examples = new ExampleStore(project);
  });
  const examplesDir = () => examplesDirOf(project.requestFile(requestId));
  afterEach(async () => {
    await project.close();
    await rm(root, { recursive: true, force: true });
  });

  it('saves beside the request file, lists them by status, and reads them back after a reopen', async () => {
    const saved = await examples.save(requestId, json({ id: 1, name: 'Rex' }), { now: new Date('2026-11-25T10:12:00Z') });
    expect(saved.replaced).toBe(false);
    expect(saved.example).toMatchObject({ status: 200, statusText: 'OK', name: '200 OK', recordedAt: '2026-11-25T10:12:00.000Z', truncated: false, masked: false });
    const dir = examplesDir();
    expect((await readdir(dir)).sort()).toEqual(['200.body.json', '200.example.yaml']);
    expect(await readFile(join(dir, '200.body.json'), 'utf8')).toBe('{"id":1,"name":"Rex"}');
    expect(await readFile(join(dir, '200.example.yaml'), 'utf8')).toContain('body: 200.body.json');
    await examples.save(requestId, json({ code: 'missing' }, 404, 'Not Found'));
    const reopened = await ProjectStore.open(root);
    const list = await new ExampleStore(reopened).list(requestId);
    await reopened.close();
    expect(list.problems).toEqual([]);
    expect(list.examples.map((e) => e.name)).toEqual(['200 OK', '404 Not Found']);
    expect(new TextDecoder().decode(list.examples[1]!.body)).toBe('{"code":"missing"}');
    // A reopened project still loads the request, and does not take the examples folder for a folder of requests.
    expect(project.tree().items.filter((i) => i.kind === 'folder')).toEqual([]);
  });

  it('replaces the example of the same status, and refuses a sixth status without changing anything', async () => {
    for (const status of [200, 201, 400, 404, 500]) await examples.save(requestId, json({ status }, status, 'X'));
    const again = await examples.save(requestId, json({ second: true }, 404, 'Not Found'));
    expect(again.replaced).toBe(true);
    expect(again.examples.map((e) => e.status)).toEqual([200, 201, 400, 404, 500]);
    expect(new TextDecoder().decode(again.examples[3]!.body)).toBe('{"second":true}');
    const before = await readdir(examplesDir());
    await expect(examples.save(requestId, json({}, 503, 'Unavailable'))).rejects.toMatchObject({
      code: 'examples-full',
      message: expect.stringContaining('already keeps 5 examples (200, 201, 400, 404, 500)'),
    });
    const after = await readdir(examplesDir());
    expect(after.sort()).toEqual(before.sort());
    expect((await examples.list(requestId)).examples.map((e) => e.status)).toEqual([200, 201, 400, 404, 500]);
  });

  it('cuts the body at 256 KB, never through a character, and says so', async () => {
    const text = 'é'.repeat(EXAMPLE_BODY_LIMIT); // 2 bytes each: twice the limit
    const body = new TextEncoder().encode(text);
    const saved = await examples.save(requestId, { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/plain']], body, size: body.byteLength });
    expect(saved.example.truncated).toBe(true);
    expect(saved.example.size).toBe(body.byteLength);
    expect(saved.example.body.byteLength).toBe(EXAMPLE_BODY_LIMIT);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(saved.example.body)).toBe('é'.repeat(EXAMPLE_BODY_LIMIT / 2));
    const small = await examples.save(requestId, { status: 201, statusText: 'Created', headers: [], body: new Uint8Array(EXAMPLE_BODY_LIMIT), size: EXAMPLE_BODY_LIMIT });
    expect(small.example.truncated).toBe(false);
    expect(small.example.body.byteLength).toBe(EXAMPLE_BODY_LIMIT);
    // A body the UI already cut (it holds only the start of a big one) is still marked as cut.
    const partial = await examples.save(requestId, { status: 206, statusText: 'Partial', headers: [], body: new Uint8Array(10), size: 10_000_000 });
    expect(partial.example).toMatchObject({ truncated: true, size: 10_000_000 });
  });

  it('masks credentials as SPEC rule 2 says: credential headers and body values masked, Set-Cookie dropped', async () => {
    const body = new TextEncoder().encode('{"user":"bob","access_token":"abc","nested":{"password":"pw"}}');
    const saved = await examples.save(requestId, {
      status: 200,
      statusText: 'OK',
      headers: [
        ['Content-Type', 'application/json'],
        ['Set-Cookie', 'sid=1; HttpOnly'],
        ['X-Api-Key', 'k'],
        ['X-Trace', 't'],
      ],
      body,
      size: body.byteLength,
    });
    expect(saved.example.masked).toBe(true);
    expect(saved.example.headers).toEqual([
      ['Content-Type', 'application/json'],
      ['X-Api-Key', MASK],
      ['X-Trace', 't'],
    ]);
    expect(JSON.parse(new TextDecoder().decode(saved.example.body))).toEqual({ user: 'bob', access_token: MASK, nested: { password: MASK } });
    for (const f of await readdir(examplesDir())) expect(await readFile(join(examplesDir(), f), 'utf8')).not.toMatch(/abc|"pw"|sid=1/);
    const xml = new TextEncoder().encode('<login><password>pw</password></login>');
    const saved2 = await examples.save(requestId, { status: 401, statusText: 'Unauthorized', headers: [['Content-Type', 'application/xml']], body: xml, size: xml.byteLength });
    expect(new TextDecoder().decode(saved2.example.body)).toBe('<login><password>&#x2022;&#x2022;&#x2022;&#x2022;&#x2022;&#x2022;</password></login>');
  });

  it('deletes one example, and every example with its request', async () => {
    await examples.save(requestId, json({}, 200));
    await examples.save(requestId, json({}, 404, 'Not Found'));
    expect((await examples.delete(requestId, 200)).map((e) => e.status)).toEqual([404]);
    await expect(examples.delete(requestId, 200)).rejects.toMatchObject({ code: 'not-found' });
    const dir = examplesDir();
    await project.deleteRequest(requestId);
    expect(existsSync(dir)).toBe(false);
  });

  it('lists an unreadable example file as a problem and still shows the rest', async () => {
    await examples.save(requestId, json({ ok: true }));
    const dir = examplesDir();
    await writeFile(join(dir, '404.example.yaml'), 'version: 1\nstatus: 404\n');
    await writeFile(join(dir, '500.example.yaml'), 'version: 1\nstatus: 500\nstatusText: x\nname: x\nrecordedAt: x\nheaders: []\nsize: 1\nbody: ../../../../etc/passwd\n');
    const list = await examples.list(requestId);
    expect(list.examples.map((e) => e.status)).toEqual([200]);
    expect(list.problems).toHaveLength(2);
    expect(list.problems.join('\n')).toContain('500.example.yaml: the body file');
  });
});
