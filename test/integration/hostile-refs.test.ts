/**
 * Odd `$ref` forms (issue 11, item 6) given to the three commands that read a definition: the
 * built CLI (dist/cli.js) as a real process. Each job finishes: `parley import` imports with
 * the references as report items, `parley check` checks what it can and names the reference
 * where it cannot, `parley mock serve` refuses with a clear message. Never a raw Node `ERR_*`
 * code. dist/ must be built first (`node scripts/build.mjs`).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { finished, type Run } from '../support/processes.js';

const cli = join(repoRoot(), 'dist', 'cli.js');
/** Each run may start a supervisor with its children: slow on a loaded machine. */
const SLOW = { timeout: 120_000 };

/** The forms of the issue, and the reason each must be reported with. */
const ODD: [string, RegExp][] = [
  ['%2e%2e%2foutside%2fsecret.json', /percent-encoded "\/"/],
  ['//169.254.169.254/latest/x.json', /names another machine/],
  ['file://169.254.169.254/latest/x.json', /file: address/],
  ['/etc/secret.json', /absolute path/],
  ['..\\outside\\secret.json', /as a separator/],
];

let work: string;
let spec: string;
const running = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-hostile-refs-'));
  await mkdir(join(work, 'spec'));
  spec = join(work, 'spec', 'hostile.yaml');
  const schema = (ref: string) => `{description: ok, content: {application/json: {schema: {$ref: ${JSON.stringify(ref)}}}}}`;
  const odd = ODD.map(([ref], i) => `  /p${i}:\n    get:\n      responses:\n        '200': ${schema(ref)}\n`).join('');
  const fine = "  /fine:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {type: object, required: [id]}}}}\n";
  await writeFile(spec, `openapi: 3.0.3\ninfo: {title: Hostile, version: '1'}\npaths:\n${odd}${fine}`);
  await writeFile(join(work, 'ok.json'), '{"id": 1}');
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

function parley(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: work, stdio: 'pipe', env: { ...process.env, PARLEY_HOME: join(work, 'home') } });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.stdin.end();
  return finished(child);
}

function expectEachReported(text: string): void {
  for (const [ref, reason] of ODD) {
    const line = text.split('\n').find((l) => l.includes(`The reference ${JSON.stringify(ref)} in `));
    expect(line, `a line naming ${ref}`).toBeDefined();
    expect(line).toContain('hostile.yaml');
    expect(line).toMatch(reason);
  }
  expect(text).not.toMatch(/ERR_[A-Z_]+/);
}

describe('odd $ref forms in the three commands that read definitions', SLOW, () => {
  it('parley import imports the document and lists each reference as an error item', async () => {
    const project = join(work, 'project');
    const run = await parley(['import', spec, '--new-project', project]);
    // Imported with problems: exit 1, the report lists each reference as an error (docs/cli.md).
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(`Errors (${ODD.length})`);
    expectEachReported(run.stdout + run.stderr);
    const files = await readdir(project, { recursive: true });
    expect(files.filter((f) => f.endsWith('.request.yaml'))).toHaveLength(ODD.length + 1);
  });

  it('parley check checks what it can, and names the reference where it cannot', async () => {
    const fine = await parley(['check', '--definition', spec, '--method', 'get', '--path', '/fine', '--status', '200', '--body', join(work, 'ok.json')]);
    expect(fine.code, fine.stdout + fine.stderr).toBe(0);
    expect(fine.stdout).toContain('Contract ✓');
    expectEachReported(fine.stderr);

    const odd = await parley(['check', '--definition', spec, '--method', 'get', '--path', '/p1', '--status', '200', '--body', join(work, 'ok.json')]);
    expect(odd.code).toBe(2);
    expect(odd.stdout).toContain('Not checked');
    expect(odd.stdout).toMatch(/The reference "\/\/169\.254\.169\.254\/latest\/x\.json" in hostile\.yaml cannot be read: it names another machine/);
    expect(odd.stdout + odd.stderr).not.toMatch(/ERR_[A-Z_]+/);
  });

  it('parley mock serve refuses with a message naming the reference, its document and why', async () => {
    const run = await parley(['mock', 'serve', spec, '--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`The reference "%2e%2e%2foutside%2fsecret\\.json" in ${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be read: its path holds a percent-encoded "/"`));
    expect(run.stdout + run.stderr).not.toMatch(/ERR_[A-Z_]+/);
  });
});
