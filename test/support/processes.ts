/** Looking at real processes from tests (Linux /proc): a command's children, and whether a pid lives. */
import { readFile, readdir } from 'node:fs/promises';

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

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
