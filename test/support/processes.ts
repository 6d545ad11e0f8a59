/** Looking at real processes from tests: a command's output and exit, its children (Linux /proc), and whether a pid lives. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { repoRoot } from '../../processes/supervisor/paths.js';

/** How a finished process ended, with everything it printed. */
export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output (its stdout and stderr must be pipes) until it closes. */
export function finished(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** Runs the built CLI (`dist/cli.js`) with its data folder at `home`, `stdin` as its input (none by default). */
export function runParley(args: string[], options: { home: string; stdin?: string }): Promise<Run> {
  const root = repoRoot();
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, PARLEY_HOME: options.home } });
  const done = finished(child);
  child.stdin.end(options.stdin ?? '');
  return done;
}

/** Every file below `dir`, as sorted paths relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(relative(dir, join(e.parentPath, e.name)));
  return out.sort();
}

/** Children of `pid` whose command line names `entry` (e.g. 'importer.js'). */
export async function childrenOf(pid: number, entry: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // The parent pid is the second field after the command name, which may itself hold spaces.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(entry)) found.push(Number(name));
  }
  return found;
}

/** A process's arguments, from Linux's /proc. */
export async function commandLine(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
