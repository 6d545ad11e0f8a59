/**
 * Import cURL's local files through the real supervisor and its curl reader (an importer child),
 * as the dialog calls it: the preview, given the project, lists each file outside the project that
 * the command sends by real path and size; the import copies only the files listed in
 * `copyLocalFiles` and leaves the others out of the request, saying so; nothing is copied unasked.
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

let work: string;
let project: string;
let sup: Supervisor;
let call: UiCall;
let apiId: string;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'parley-curl-local-')));
  project = join(work, 'project');
  await writeFile(join(work, 'id_rsa'), 'PRIVATE KEY');
  await writeFile(join(work, 'photo.png'), 'PNG');
  sup = await Supervisor.start({ dataDir: join(work, 'home'), log: () => {} });
  call = handlerCaller(uiHandlers(sup));
  await sup.openProject(project, { create: true });
  apiId = (await call('api.create', { project, name: 'Up', baseUrl: 'http://127.0.0.1:9' })).id;
  await mkdir(join(project, 'files'), { recursive: true });
  await writeFile(join(project, 'files', 'inside.txt'), 'IN');
  await symlink(join(work, 'id_rsa'), join(project, 'files', 'key-link'));
});

afterAll(async () => {
  await sup?.shutdown();
  await rm(work, { recursive: true, force: true });
});

const command = () => `curl http://127.0.0.1:9/up -F key=@${join(work, 'id_rsa')} -F photo=@../photo.png -F in=@files/inside.txt -F linked=@files/key-link`;

describe('Import cURL of a command that sends local files', () => {
  it('the preview lists each file outside the project by real path and size; without the project, none', async () => {
    const report = await call('curl.preview', { command: command(), project });
    expect(report.localFiles).toEqual([
      { path: join(work, 'id_rsa'), size: 11, field: 'multipart part "key"' },
      { path: join(work, 'photo.png'), size: 3, field: 'multipart part "photo"' },
      { path: join(work, 'id_rsa'), size: 11, field: 'multipart part "linked"' },
    ]);
    expect((await call('curl.preview', { command: command() })).localFiles).toBeUndefined();
  });

  it('copies only the files the user agreed to; the others are left out of the request, and the report says so', async () => {
    const { request, report } = await call('curl.import', { project, parent: apiId, command: command(), name: 'Some', copyLocalFiles: [join(work, 'photo.png')] });
    expect(request.body.multipart.map((p) => (p.kind === 'file' ? [p.name, p.file] : [p.name]))).toEqual([
      ['key', ''],
      ['photo', 'files/photo.png'],
      ['in', 'files/inside.txt'],
      ['linked', ''],
    ]);
    expect(report.copied).toEqual([{ from: join(work, 'photo.png'), to: 'files/photo.png' }]);
    expect(report.notes).toContain(`"${join(work, 'id_rsa')}" (11 bytes) is outside the project and was not copied into it: the multipart part "key" has no file. Choose one on the Body tab.`);
    expect((await readdir(join(project, 'files'))).sort()).toEqual(['inside.txt', 'key-link', 'photo.png']);
    expect(await readFile(join(project, 'files', 'photo.png'), 'utf8')).toBe('PNG');
  });

  it('copies nothing when the call does not ask', async () => {
    const { request, report } = await call('curl.import', { project, parent: apiId, command: `curl http://127.0.0.1:9/up --data-binary @${join(work, 'id_rsa')}`, name: 'None' });
    expect(request.body).toMatchObject({ kind: 'binary', binary: { file: '' } });
    expect(report.copied).toBeUndefined();
    expect(report.localFiles).toEqual([{ path: join(work, 'id_rsa'), size: 11, field: 'binary body' }]);
    expect((await readdir(join(project, 'files'))).sort()).toEqual(['inside.txt', 'key-link', 'photo.png']);
  });
});
