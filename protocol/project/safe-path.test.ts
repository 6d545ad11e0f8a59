import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertInsideByText, isInsideFolder, resolveInside } from './safe-path.js';

let outside: string;
let root: string;
beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), 'parley-safe-path-'));
  root = join(outside, 'project');
  await mkdir(join(root, 'definition'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'not yours');
  await mkdir(join(outside, 'elsewhere'));
  await writeFile(join(root, 'definition', 'openapi.yaml'), 'openapi: 3.1.0');
  await symlink(join(outside, 'secret.txt'), join(root, 'definition', 'leak.yaml'));
  await symlink('../secret.txt', join(root, 'relative-leak.txt'));
  await symlink(join(outside, 'elsewhere'), join(root, 'linked-folder'));
  await symlink(join(outside, 'nothing-here'), join(root, 'dangling'));
  await symlink(join(root, 'loop-b'), join(root, 'loop-a'));
  await symlink(join(root, 'loop-a'), join(root, 'loop-b'));
  await symlink('openapi.yaml', join(root, 'definition', 'alias.yaml'));
  await symlink(root, join(outside, 'project-link'));
});

describe('resolveInside', () => {
  it('gives the full path of what stays inside, existing or not', () => {
    expect(resolveInside(root, 'definition/openapi.yaml')).toBe(join(root, 'definition', 'openapi.yaml'));
    expect(resolveInside(root, 'files/new/photo.png')).toBe(join(root, 'files', 'new', 'photo.png'));
    expect(resolveInside(root, 'definition/alias.yaml')).toBe(join(root, 'definition', 'alias.yaml'));
    // A project opened through a link to its folder is still that folder.
    expect(resolveInside(join(outside, 'project-link'), 'definition/openapi.yaml')).toBe(join(outside, 'project-link', 'definition', 'openapi.yaml'));
    expect(resolveInside(join(outside, 'not-made-yet'), 'a/b.yaml')).toBe(join(outside, 'not-made-yet', 'a', 'b.yaml'));
  });

  const refused: [string, RegExp][] = [
    ['../secret.txt', /points outside the project folder/],
    ['<outside>/secret.txt', /is absolute/],
    ['/etc/passwd', /is absolute/],
    ['C:\\Windows\\win.ini', /is absolute/],
    ['\\\\server\\share\\x', /is absolute/],
    ['a\0b', /NUL character/],
    ['definition/leak.yaml', /leads out of the project folder through a symbolic link/],
    ['relative-leak.txt', /leads out of the project folder through a symbolic link/],
    ['linked-folder', /through a symbolic link/],
    ['linked-folder/new.yaml', /through a symbolic link/],
    ['linked-folder/deeper/still/new.yaml', /through a symbolic link/],
    ['dangling', /points nowhere/],
    ['dangling/below.yaml', /points nowhere/],
    ['loop-a', /loop of symbolic links/],
  ];
  it.each(refused)('refuses %j', (path, message) => {
    expect(() => resolveInside(root, path.replace('<outside>', outside), 'body file')).toThrow(expect.objectContaining({ code: 'path-escape', message: expect.stringMatching(message) }));
  });
});

describe('the same rule without the disk (a mock folder\'s file list, "is it inside" tests)', () => {
  it.each([
    ['operations/op/Default.response.yaml', true],
    ['a/../b', true],
    ['..foo/x', true],
    ['../x', false],
    ['operations/op/../../../x.body.json', false],
    ['a\\..\\..\\x', false],
    ['/etc/passwd', false],
    ['C:\\x', false],
    ['a\0b', false],
  ])('%s inside: %s', (rel, inside) => {
    if (inside) expect(() => assertInsideByText(rel)).not.toThrow();
    else expect(() => assertInsideByText(rel)).toThrow(expect.objectContaining({ code: 'path-escape' }));
  });

  it('counts a name that only starts with two dots as inside, and the parent as outside', () => {
    expect(isInsideFolder('/p/project', '/p/project/..foo')).toBe(true);
    expect(isInsideFolder('/p/project', '/p/project')).toBe(true);
    expect(isInsideFolder('/p/project', '/p/project-2/x')).toBe(false);
    expect(isInsideFolder('/p/project', '/p')).toBe(false);
  });
});
