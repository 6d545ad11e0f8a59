import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertCurlCommand } from '../../importer/engine/curl/convert-command.js';
import { bodyFileRefs, locateBodyFiles, withBodyFiles } from './local-files.js';

/** What a command makes of a file it reads: the body's files, and what the report says it ignored. */
async function filesOf(command: string): Promise<{ refs: ReturnType<typeof bodyFileRefs>; ignored: string[] }> {
  const { request, report } = await convertCurlCommand(command, { id: 'r' });
  return { refs: bodyFileRefs(request.body), ignored: report.ignored };
}

describe('the files a curl command sends', () => {
  it.each([
    ['--data-binary @/path', 'curl https://x.example/up --data-binary @/srv/data/payload.bin', [{ file: '/srv/data/payload.bin', field: 'binary body' }]],
    ['-d @/etc/passwd', 'curl https://x.example/up -d @/etc/passwd', [{ file: '/etc/passwd', field: 'binary body' }]],
    ['--data @file (relative)', 'curl https://x.example/up --data @notes.txt', [{ file: 'notes.txt', field: 'binary body' }]],
    ['--json @file', 'curl https://x.example/up --json @/home/ann/order.json', [{ file: '/home/ann/order.json', field: 'binary body' }]],
    ['-F file=@...', "curl https://x.example/up -F 'file=@/home/ann/.ssh/id_rsa;type=text/plain' -F note=hi", [{ file: '/home/ann/.ssh/id_rsa', field: 'multipart part "file"' }]],
    ['two -F parts', 'curl https://x.example/up -F a=@/one -F b=@two', [{ file: '/one', field: 'multipart part "a"' }, { file: 'two', field: 'multipart part "b"' }]],
  ])('%s: the file is a body file of the request', async (_name, command, refs) => {
    expect((await filesOf(command)).refs).toEqual(refs);
  });

  it.each([
    ['--data-urlencode name@file', 'curl https://x.example/up --data-urlencode name@/etc/passwd', '--data-urlencode name@/etc/passwd (reads a file)'],
    ['-T file', 'curl -T /etc/passwd https://x.example/up', '-T'],
    ['--upload-file file', 'curl --upload-file /etc/passwd https://x.example/up', '--upload-file'],
    ['-F part=<file', "curl https://x.example/up -F 'text=</etc/passwd'", '-F text=</etc/passwd (a field read from a file)'],
    ['two -d @file', 'curl https://x.example/up -d @/etc/passwd -d @/etc/hosts', 'data @/etc/passwd (reads a file)'],
  ])('%s: not imported, so never read: the report lists it as ignored', async (_name, command, ignored) => {
    const { refs, ignored: listed } = await filesOf(command);
    expect(refs).toEqual([]);
    expect(listed).toContain(ignored);
  });

  it('withBodyFiles puts new paths in the same order, leaving text parts alone', async () => {
    const { request } = await convertCurlCommand('curl https://x.example/up -F a=@/one -F t=text -F b=@two', { id: 'r' });
    const body = withBodyFiles(request.body, ['files/one', '']);
    expect(body.multipart.map((p) => (p.kind === 'file' ? p.file : p.value))).toEqual(['files/one', 'text', '']);
  });
});

describe('where the files are', () => {
  let root: string;
  let elsewhere: string;
  beforeAll(async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'parley-curl-files-')));
    root = join(base, 'project');
    elsewhere = join(base, 'home');
    await mkdir(join(root, 'files'), { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(root, 'files', 'in.json'), '{}');
    await writeFile(join(elsewhere, 'key.pem'), 'PRIVATE KEY');
    await symlink(join(elsewhere, 'key.pem'), join(root, 'files', 'link.pem'));
  });

  const locate = async (command: string, base: string) => locateBodyFiles(root, (await convertCurlCommand(command, { id: 'r' })).request, base);

  it('a file outside the project, by absolute path or from the command line\'s folder, is a local file with its real path and size', async () => {
    for (const [file, base] of [[join(elsewhere, 'key.pem'), root], ['key.pem', elsewhere], ['../home/key.pem', root]] as const) {
      expect(await locate(`curl https://x.example -d @${file}`, base)).toEqual([
        { file, field: 'binary body', where: 'outside', local: { path: join(elsewhere, 'key.pem'), size: 11, field: 'binary body' } },
      ]);
    }
  });

  it('a link inside the project that leads out is the file it leads to', async () => {
    expect(await locate('curl https://x.example -F k=@files/link.pem', root)).toMatchObject([{ where: 'outside', local: { path: join(elsewhere, 'key.pem'), field: 'multipart part "k"' } }]);
  });

  it('a file inside the project is named where it is; a missing one is missing', async () => {
    expect(await locate(`curl https://x.example -F a=@files/in.json -F b=@${join(root, 'files', 'in.json')} -F c=@nothing.bin`, root)).toEqual([
      { file: 'files/in.json', field: 'multipart part "a"', where: 'inside', path: 'files/in.json' },
      { file: join(root, 'files', 'in.json'), field: 'multipart part "b"', where: 'inside', path: 'files/in.json' },
      { file: 'nothing.bin', field: 'multipart part "c"', where: 'missing', full: join(root, 'nothing.bin') },
    ]);
  });
});
