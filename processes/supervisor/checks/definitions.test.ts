/** The cached definition is read from inside the API folder only: a link out of it is refused. */
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../../protocol/model/api.js';
import { loadDefinition } from './definitions.js';

const DOC = 'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n';

async function apiWith(link: boolean): Promise<{ dir: string; api: Api }> {
  const outside = await mkdtemp(join(tmpdir(), 'parley-definitions-'));
  await writeFile(join(outside, 'private.yaml'), DOC);
  const dir = join(outside, 'project', 'apis', 'Pets');
  await mkdir(join(dir, 'definition'), { recursive: true });
  if (link) await symlink(join(outside, 'private.yaml'), join(dir, 'definition', 'openapi.yaml'));
  else await writeFile(join(dir, 'definition', 'openapi.yaml'), DOC);
  const api: Api = {
    version: 1,
    id: `a_${link ? 'link' : 'file'}`,
    name: 'Pets',
    baseUrl: '',
    auth: { type: 'none' },
    definition: { cached: ['definition/openapi.yaml'], fingerprint: `fp-${outside}` },
  } as Api;
  return { dir, api };
}

describe('loadDefinition', () => {
  it('reads the cached documents of the API folder', async () => {
    const { dir, api } = await apiWith(false);
    expect((await loadDefinition(dir, api)).documents[0]!.document).toMatchObject({ openapi: '3.1.0' });
  });

  it('refuses a cached document that is a symbolic link out of the project', async () => {
    const { dir, api } = await apiWith(true);
    await expect(loadDefinition(dir, api)).rejects.toMatchObject({ code: 'path-escape', message: expect.stringContaining('through a symbolic link') });
  });
});
