/**
 * The command line as a new user first meets it: run from a clone after the README's install
 * (`npx parley`, `node dist/cli.js`, the bin itself as `npm link` runs it), its --help naming every
 * import format (from protocol/import-formats.ts, the one list), and an unrecognised source
 * answered with the flag that chooses a format. dist/ is built by vitest's global setup.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFormats } from '../../protocol/import-formats.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { finished, runParley } from '../support/processes.js';

const run = promisify(execFile);
const root = repoRoot();
let work: string;

beforeAll(async () => void (work = await mkdtemp(join(tmpdir(), 'parley-cli-help-'))));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('parley from a clone', () => {
  it("runs as package.json's bin: the built file itself (what npm link points at), node dist/cli.js, and npx parley in the clone", async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    const bin = join(root, pkg.bin['parley']!);
    expect(bin).toBe(join(root, 'dist', 'cli.js'));
    // Every build writes it anew: a linked `parley` needs the x bit on the new file.
    expect((await stat(bin)).mode & 0o111).toBe(0o111);
    const direct = await run(bin, ['--help'], { cwd: work, timeout: 30_000 });
    expect(direct.stdout).toMatch(/^parley: an API workbench/);
    const viaNode = await run(process.execPath, [bin, '--help'], { cwd: work, timeout: 30_000 });
    expect(viaNode.stdout).toBe(direct.stdout);
    // npm runs the project's own bin; --no-install and offline: nothing is fetched from a registry.
    const viaNpx = await run('npx', ['--no-install', 'parley', '--help'], { cwd: root, timeout: 60_000, env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' } });
    expect(viaNpx.stdout).toBe(direct.stdout);
  }, 120_000);

  it('README says how to run it after the install', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('npx parley <command>');
    expect(readme).toContain('npm link');
    expect(readme).toContain('node dist/cli.js');
  });
});

describe('parley --help', () => {
  it('names every format import takes, each with what it is', async () => {
    const help = (await runParley(['--help'], { home: join(work, 'home') })).stdout;
    const importSection = help.slice(help.indexOf('  parley import <file'), help.indexOf('  parley import --format curl'));
    for (const format of builtFormats()) expect(importSection).toMatch(new RegExp(`\\n\\s+${format.id}\\s+${format.label.replace(/[()]/g, '\\$&')}`));
    expect(importSection).toMatch(/\n\s+curl\s+a curl command/);
    expect(importSection).not.toMatch(/Import an OpenAPI or Swagger document/);
  });

  it('answers a source nothing recognises with --format and its values', async () => {
    const notes = join(work, 'notes.txt');
    await writeFile(notes, 'hello, these are not an API\n');
    const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'import', notes, '--new-project', join(work, 'p')], { cwd: work, stdio: 'pipe', env: { ...process.env, PARLEY_HOME: join(work, 'home') } });
    child.stdin.end();
    const out = await finished(child);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('is not in a format Parley recognises.');
    expect(out.stderr).toContain('give it with --format <format>:');
    for (const format of builtFormats()) expect(out.stderr).toContain(format.id);
    expect(out.stderr).not.toContain('by hand');
  }, 120_000);
});
