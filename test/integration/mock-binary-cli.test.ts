/**
 * A binary response in `parley mock new` and `parley mock check` (issue 27 item 13): the Redocly
 * museum API's getTicketCode answers image/png. New Mock writes a real PNG as Default.body.bin
 * (it wrote the text `string`, a sample of `type: string, format: binary`), `mock check` finds
 * the mock clean, and finds the text body an older Parley wrote an error, not clean.
 * dist/ must be built first (`node scripts/build.mjs`).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { finished, type Run } from '../support/processes.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const museum = join(root, 'test', 'fixtures', 'mocks', 'contracts', 'redocly-museum.openapi.yaml');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let home = '';
let project = '';
const parley = (args: string[]): Promise<Run> =>
  finished(spawn(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, PARLEY_HOME: join(home, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] }));

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-mock-binary-'));
  project = join(home, 'project');
  const imported = await parley(['import', museum, '--new-project', project]);
  expect(imported.code, imported.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe('a binary response in parley mock new and mock check', () => {
  const op = () => join(project, 'mocks', 'Museum', 'operations', 'getTicketCode');

  it('New Mock answers image/png with a PNG file, and mock check finds the mock clean', async () => {
    const made = await parley(['mock', 'new', project, '--api', 'Redocly Museum API', '--name', 'Museum']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/getTicketCode +GET +\/tickets\/\{ticketId\}\/qr +→ 200 image\/png/);
    const png = await readFile(join(op(), 'Default.body.bin'));
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(await readFile(join(op(), 'Default.response.yaml'), 'utf8')).toMatch(/^body: binary$/m);

    const check = await parley(['mock', 'check', project, '--mock', 'Museum']);
    expect(check.stdout).toContain('mocks/Museum: clean');
    expect(check.code).toBe(0);
  }, 60_000);

  it('mock check calls the text an older New Mock wrote for image/png an error', async () => {
    const yaml = await readFile(join(op(), 'Default.response.yaml'), 'utf8');
    await writeFile(join(op(), 'Default.response.yaml'), yaml.replace(/^body: binary$/m, 'body: text'));
    await unlink(join(op(), 'Default.body.bin'));
    await writeFile(join(op(), 'Default.body.txt'), 'string');

    const check = await parley(['mock', 'check', project, '--mock', 'Museum']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/error +getTicketCode › Default +body-media-type +The body is the text "string", but image\/png is binary/);
  }, 60_000);
});
