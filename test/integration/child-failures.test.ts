/**
 * A child that fails: what a user (and the log) is told, and what keeps running.
 * - A failure one bus message leaves behind (a throw in a timer it set, a rejection nobody
 *   awaited) is logged with the message's type; the child goes on serving.
 * - A failure no message caused ends the child, and its error is what the supervisor reports.
 * - A child that cannot start (a Parley copied without node_modules: the mock host's native
 *   isolated-vm is missing) is reported with its own error, in the app and by the CLI, not as
 *   `Pipe error: read ECONNRESET`.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildProcessHandle } from '../../processes/supervisor/children/child-process.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { MockService } from '../../processes/supervisor/mocks/mock-service.js';
import { ensureDemoProject } from '../../demo/project.js';
import { finished } from '../support/processes.js';
import { until } from '../support/until.js';
import { quietMockHost } from '../support/new-mock-jobs.js';

let dir: string;
let faultyEntry: string;
/** A Parley install without node_modules beside it: dist/ and package.json only. */
let bareInstall: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-child-failures-'));
  faultyEntry = join(dir, 'faulty-child.mjs');
  await build({
    entryPoints: [join(repoRoot(), 'test/fixtures/bus/faulty-child.ts')],
    outfile: faultyEntry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __faultyRequire } from 'node:module'; const require = __faultyRequire(import.meta.url);" },
  });
  bareInstall = join(dir, 'install');
  await mkdir(bareInstall);
  await cp(join(repoRoot(), 'dist'), join(bareInstall, 'dist'), { recursive: true });
  await cp(join(repoRoot(), 'package.json'), join(bareInstall, 'package.json'));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function faulty(args: string[] = []) {
  const log: string[] = [];
  const handle = new ChildProcessHandle({ name: 'faulty process', entry: faultyEntry, args, restart: false, log: (line) => log.push(line) });
  return { handle, log };
}

describe('a failure one message left behind', () => {
  it('is logged with the message type and its stack, and the child goes on serving', async () => {
    const { handle, log } = faulty();
    await handle.start();
    try {
      const pid = handle.pid;
      await expect(handle.call('mockHost.reset', {})).resolves.toEqual({});
      await until(() => log.some((l) => l.includes('late failure in a timer')), 5_000, () => log.join('\n'));
      await expect(handle.call('mocks.log', { project: 'p', id: 'm' })).resolves.toEqual({ entries: [], more: false });
      await until(() => log.some((l) => l.includes('nobody awaited this')), 5_000, () => log.join('\n'));

      const text = log.join('\n');
      expect(text).toMatch(/\[faulty\] uncaught exception while handling mockHost\.reset; the process goes on: TypeError: late failure in a timer/);
      expect(text).toMatch(/\[faulty\] unhandled rejection while handling mocks\.log; the process goes on: RangeError: nobody awaited this/);
      expect(text).toContain('faulty-child'); // the stack, for whoever fixes it
      await expect(handle.call('sys.ping', { t: 1 })).resolves.toMatchObject({ t: 1, pid });
      expect(handle.state).toBe('running');
    } finally {
      await handle.stop();
    }
  });

  it('one no message caused ends the child, and its error is what the supervisor reports', async () => {
    const { handle, log } = faulty(['--fail-outside']);
    const statuses: (string | undefined)[] = [];
    handle.onStatus((state, message) => statuses.push(`${state}: ${message}`));
    await handle.start();
    const exit = await handle.waitForExit();
    expect(exit).toEqual({ code: 1, signal: null });
    await until(() => handle.state === 'stopped');
    expect(log.join('\n')).toMatch(/uncaught exception, not caused by a bus message; exiting: Error: a bug outside any message/);
    expect(statuses.at(-1)).toMatch(/^stopped: The faulty process exited with code 1: .*Error: a bug outside any message/);
    await expect(handle.call('sys.ping', { t: 1 })).rejects.toMatchObject({ code: 'child-died' });
  });
});

describe('a child that cannot start', () => {
  const missingNative = /could not start \(exit code 1\): Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package 'isolated-vm'/;

  it('is reported by the CLI with the child\'s own error', async () => {
    const serve = spawn(process.execPath, [join(bareInstall, 'dist', 'cli.js'), 'mock', 'serve', join(repoRoot(), 'test/fixtures/mock-cli/library.openapi.yaml'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = await finished(serve);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(missingNative);
    expect(run.stderr).not.toContain('ECONNRESET');
  });

  it('is reported to the app (mocks.start) with the child\'s own error', async () => {
    const project = join(dir, 'project');
    await ensureDemoProject(project, 'http://127.0.0.1:9');
    const store = await ProjectStore.open(project);
    const service = new MockService(quietMockHost(store), { mockHostEntry: join(bareInstall, 'dist', 'mock-host.js') });
    try {
      const view = await service.create(project, store.listApis()[0]!.id, 'Broken host');
      const failure = await service.start(project, view.id).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toMatchObject({ code: 'child-died', message: expect.stringMatching(missingNative) });
      expect((failure as Error).message).not.toContain('ECONNRESET');
    } finally {
      await service.stopAll();
      await store.close();
    }
  });
});
