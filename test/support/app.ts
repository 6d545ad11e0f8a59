/**
 * Starts the real `parley ui` (built CLI, real supervisor and children) with a throwaway
 * workspace, and reads the URL it prints. Used by integration and browser tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../processes/supervisor/paths.js';

export interface RunningApp {
  url: string;
  demoUrl: string | null;
  home: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export async function startApp(args: string[] = ['--demo'], env: Record<string, string> = {}): Promise<RunningApp> {
  const home = env.PARLEY_HOME ?? (await mkdtemp(join(tmpdir(), 'parley-home-')));
  const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), 'ui', '--no-open', ...args], {
    env: { ...process.env, PARLEY_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`parley ui did not print its URL in 20 s:\n${out}`)), 20_000);
    const check = () => {
      const match = /Parley is running at (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`parley ui exited with ${code}:\n${out}`));
    });
  });
  const demoUrl = /Demo API: (\S+)/.exec(out)?.[1] ?? null;
  return {
    url,
    demoUrl,
    home,
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
