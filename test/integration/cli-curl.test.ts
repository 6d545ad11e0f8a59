/**
 * `parley import --format curl` end to end: the built CLI (dist/cli.js) as a real process with its
 * own headless supervisor, a curl command from a file or standard input, the request file read
 * back from the project. The -u case stores the password in a real Secret Service
 * (scripts/with-keyring) and is skipped without one; under CI=true a missing keyring fails.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { keyringMissing } from '../support/keyring.js';
import { finished, type Run } from '../support/processes.js';

const noKeyring = await keyringMissing();
const cli = join(repoRoot(), 'dist', 'cli.js');
const SLOW = { timeout: 120_000 };
let work: string;
let home: string;
let project: string;

function parley(args: string[], stdin?: string): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, PARLEY_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin ?? '');
  return finished(child);
}

async function requestFiles(): Promise<string[]> {
  const dir = join(project, 'apis', 'shop', 'requests');
  return (await readdir(dir, { recursive: true }).catch(() => [])).filter((f) => f.endsWith('.request.yaml')).sort();
}

beforeAll(async () => {
  // Its real path: the report names the real path of a file it copies.
  work = await realpath(await mkdtemp(join(tmpdir(), 'parley-cli-curl-')));
  home = join(work, 'home');
  project = join(work, 'project');
  await mkdir(join(project, 'apis', 'shop'), { recursive: true });
  await writeFile(join(project, 'parley.yaml'), 'version: 1\nname: Shop\nproperties: []\n');
  await writeFile(join(project, 'apis', 'shop', 'api.yaml'), 'version: 1\nid: a_shop\nname: Shop API\nbaseUrl: https://shop.example.com\nauth:\n  type: none\n');
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('parley import --format curl', () => {
  it(
    'imports a command from a file into an API folder and reports it, ignored options included',
    SLOW,
    async () => {
      await writeFile(join(work, 'order.sh'), `curl -sS -k --retry 2 -X PUT 'https://shop.example.com/orders/7?notify=1' \\\n  -H 'X-Trace: trace-77' -H 'Content-Type: application/json' \\\n  --data-raw '{"qty":2}'\n`);
      const run = await parley(['import', '--format', 'curl', 'order.sh', '--project', 'project', '--api', 'shop api', '--folder', 'orders']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Imported PUT /orders/7 into Shop API / orders');
      expect(run.stdout).toMatch(/Request\s+PUT https:\/\/shop\.example\.com\/orders\/7\?notify=1/);
      expect(run.stdout).toMatch(/Headers\s+X-Trace\n/);
      expect(run.stdout).toMatch(/Body\s+raw JSON \(9 characters\)/);
      expect(run.stdout).toMatch(/Ignored\s+-s, -S, -k, --retry\n/);
      expect(run.stdout).not.toContain('trace-77');
      expect(await requestFiles()).toEqual(['orders/PUT -orders-7.request.yaml']);
      const saved = parseYaml(await readFile(join(project, 'apis', 'shop', 'requests', 'orders', 'PUT -orders-7.request.yaml'), 'utf8'));
      expect(saved).toMatchObject({
        name: 'PUT /orders/7',
        method: 'PUT',
        url: 'https://shop.example.com/orders/7?notify=1',
        query: [],
        headers: [{ name: 'X-Trace', value: 'trace-77', enabled: true }],
        body: { kind: 'raw', raw: { language: 'json', text: '{"qty":2}' } },
      });
    },
  );

  it(
    'refuses a command that sends files from outside the project without --allow-local-files, naming them, writing nothing',
    SLOW,
    async () => {
      await writeFile(join(work, 'order.json'), '{"qty":1}');
      await writeFile(join(work, 'avatar.png'), 'avatar-bytes');
      const before = { requests: await requestFiles(), files: await readdir(join(project, 'files')).catch(() => []) };
      const cases: [string, RegExp][] = [
        ['curl https://shop.example.com/orders --data-binary @/etc/passwd', /sends a file from outside the project, which the import would copy into it: "\/etc\/passwd" \([\d,]+ bytes\)\. Nothing was imported\. Give --allow-local-files to copy them/],
        ['curl https://shop.example.com/orders -d @/etc/passwd', /"\/etc\/passwd" \([\d,]+ bytes\)/],
        ['curl https://shop.example.com/orders --json @order.json', new RegExp(`"${join(work, 'order.json')}" \\(9 bytes\\)`)],
        ["curl https://shop.example.com/photos -F 'avatar=@avatar.png' -F 'order=@order.json'", new RegExp(`sends files from outside the project.*"${join(work, 'avatar.png')}" \\(12 bytes\\), "${join(work, 'order.json')}" \\(9 bytes\\)`)],
      ];
      for (const [command, message] of cases) {
        const run = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API'], command);
        expect({ command, code: run.code }).toEqual({ command, code: 2 });
        expect(run.stderr).toMatch(message);
        expect(run.stdout).toBe('');
      }
      const json = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--json'], 'curl https://shop.example.com/orders -d @/etc/passwd');
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'local-files-refused', message: expect.stringContaining('/etc/passwd') } });
      expect({ requests: await requestFiles(), files: await readdir(join(project, 'files')).catch(() => []) }).toEqual(before);
    },
  );

  it(
    'imports without the flag what reads no file into the project: --data-urlencode name@file and -T are ignored, a file inside the project is named there',
    SLOW,
    async () => {
      const filesBefore = await readdir(join(project, 'files')).catch(() => []);
      const urlencode = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Urlencoded'], 'curl https://shop.example.com/q --data-urlencode name@/etc/passwd');
      expect(urlencode.code, urlencode.stderr).toBe(0);
      expect(urlencode.stdout).toMatch(/Ignored\s+--data-urlencode name@\/etc\/passwd \(reads a file\)/);
      const upload = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Uploaded'], 'curl -T /etc/passwd https://shop.example.com/up');
      expect(upload.code, upload.stderr).toBe(0);
      expect(upload.stdout).toMatch(/Ignored\s+-T\n/);
      expect(await readdir(join(project, 'files')).catch(() => [])).toEqual(filesBefore);
      await mkdir(join(project, 'files'), { recursive: true });
      await writeFile(join(project, 'files', 'inside.json'), '{"in":1}');
      const inside = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Inside'], 'curl https://shop.example.com/orders --data-binary @project/files/inside.json');
      expect(inside.code, inside.stderr).toBe(0);
      expect(inside.stdout).not.toContain('Copied');
      const saved = parseYaml(await readFile(join(project, 'apis', 'shop', 'requests', 'Inside.request.yaml'), 'utf8'));
      expect(saved.body).toMatchObject({ kind: 'binary', binary: { file: 'files/inside.json' } });
    },
  );

  it(
    'with --allow-local-files brings a file the command sends (--data-binary @file, -F part=@file) into the project, from where curl would read it, and names each copy',
    SLOW,
    async () => {
      await writeFile(join(work, 'payload.json'), '{"qty":3}');
      await writeFile(join(work, 'photo.png'), 'png-bytes');
      const binary = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Upload payload', '--allow-local-files'], `curl -X POST https://shop.example.com/orders --data-binary @payload.json\n`);
      expect(binary.code).toBe(0);
      expect(binary.stdout).toContain(`  Copied    ${join(work, 'payload.json')} -> files/payload.json\n`);
      expect(binary.stdout).toContain('  Body      binary file files/payload.json\n');
      const multipart = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Upload photo', '--allow-local-files', '--json'], `curl https://shop.example.com/photos -F 'photo=@photo.png'\n`);
      expect(multipart.code).toBe(0);
      expect(JSON.parse(multipart.stdout).copied).toEqual([{ from: join(work, 'photo.png'), to: 'files/photo.png' }]);
      const missing = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Upload gone'], `curl https://shop.example.com/orders --data-binary @gone.json\n`);
      expect(missing.code).toBe(0);
      expect(missing.stdout).toContain('gone.json was not found in');
      expect(await readFile(join(project, 'files', 'payload.json'), 'utf8')).toBe('{"qty":3}');
      expect(await readFile(join(project, 'files', 'photo.png'), 'utf8')).toBe('png-bytes');
      const saved = async (name: string) => parseYaml(await readFile(join(project, 'apis', 'shop', 'requests', `${name}.request.yaml`), 'utf8'));
      expect((await saved('Upload payload')).body).toMatchObject({ kind: 'binary', binary: { file: 'files/payload.json' } });
      expect((await saved('Upload photo')).body.multipart).toMatchObject([{ kind: 'file', name: 'photo', file: 'files/photo.png' }]);
      // Each goes at the end of its target, in the order imported (issue 28), not by name ("gone" < "payload" < "photo").
      const orders = await Promise.all(['Upload payload', 'Upload photo', 'Upload gone'].map(async (name) => (await saved(name)).order as string));
      expect(orders).toEqual([...orders].sort());
      expect(new Set(orders).size).toBe(3);
    },
  );

  it(
    'reads standard input and prints one JSON object',
    SLOW,
    async () => {
      const run = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--name', 'Search', '--json'], `curl -G https://shop.example.com/search -d q=socks -b 'sid=1' -L\n`);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out).toMatchObject({
        into: 'Shop API',
        request: { name: 'Search' },
        preview: { method: 'GET', url: 'https://shop.example.com/search?q=socks', headerNames: [], bodyKind: 'none', auth: 'Inherit from the API' },
        ignored: ['-b (cookies are dropped on import: the cookie jar sends them)', '-L'],
      });
      expect(out.request.file).toMatch(/Search\.request\.yaml$/);
    },
  );

  it(
    'refuses what it cannot import with a clear message and exit 2, writing nothing',
    SLOW,
    async () => {
      const before = await requestFiles();
      const cases: [string[], string | undefined, RegExp][] = [
        [['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Nope'], 'curl https://x', /has no API named Nope\. Its APIs: Shop API\./],
        [['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API'], 'wget https://x', /This is not a curl command/],
        [['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API'], 'curl --frobnicate https://x', /could not be read: option --frobnicate: is unknown/],
        [['import', '--format', 'curl', '-', '--project', 'project'], 'curl https://x', /say which API the request goes in with --api <name>/],
        [['import', '--format', 'curl', 'https://example.com/cmd', '--project', 'project', '--api', 'Shop API'], undefined, /read from a file or standard input/],
        [['import', '--format', 'curl', '-', '--new-project', 'other', '--api', 'Shop API'], 'curl https://x', /into an API of an existing project/],
        [['import', 'x.yaml', '--project', 'project', '--api', 'Shop API'], undefined, /--api and --folder go with --format curl/],
      ];
      for (const [args, stdin, message] of cases) {
        const run = await parley(args, stdin);
        expect({ args, code: run.code }).toEqual({ args, code: 2 });
        expect(run.stderr).toMatch(message);
      }
      expect(await requestFiles()).toEqual(before);
    },
  );

  it.skipIf(noKeyring !== null)(
    'keeps a -u password in the keychain: the report names the user, no file holds the password',
    SLOW,
    async () => {
      const password = 'pw_77e1c0ffee';
      const run = await parley(['import', '--format', 'curl', '-', '--project', 'project', '--api', 'Shop API', '--json'], `curl -u clerk:${password} https://shop.example.com/admin`);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain(password);
      expect(JSON.parse(run.stdout).preview).toMatchObject({ basicUser: 'clerk', auth: 'Basic', headerNames: ['Authorization'] });
      for (const dir of [project, home]) {
        for (const f of await readdir(dir, { recursive: true, withFileTypes: true })) {
          if (f.isFile()) expect(await readFile(join(f.parentPath, f.name), 'utf8')).not.toContain(password);
        }
      }
    },
  );
});
