/**
 * The environment files beside a picked .http file (SPEC ".http import rules"): read by the
 * import, and counted by auto-detect so the dialog can offer "Also import N environments found
 * beside the file".
 */
import type { ReportItem } from '../../../../protocol/model/import.js';
import { BodyFiles, textOf } from './body-files.js';
import { PRIVATE_ENV_FILE, PUBLIC_ENV_FILE, readEnvironmentFiles, type EnvFileText } from './environments.js';
import { HttpPlaceholders } from './placeholders.js';

/** http-client.env.json and its private partner in `files`' folder, those there; `warnings` hears of one that is there but unreadable. */
export async function environmentFilesBeside(files: BodyFiles, warnings: ReportItem[]): Promise<EnvFileText[]> {
  const out: EnvFileText[] = [];
  for (const [name, isPrivate] of [[PUBLIC_ENV_FILE, false], [PRIVATE_ENV_FILE, true]] as const) {
    let bytes: Uint8Array;
    try {
      bytes = await files.read(name);
    } catch (err) {
      // Not there is the usual case; one that is there but cannot be read is said.
      if (!/was not found/.test((err as Error).message)) warnings.push({ message: `${name} beside the file was not read: ${(err as Error).message}` });
      continue;
    }
    const text = textOf(bytes);
    if (text === null) warnings.push({ message: `${name} beside the file is not UTF-8 text and was not read.` });
    else out.push({ name, text, private: isPrivate });
  }
  return out;
}

/** How many environments the files beside a .http file in `dir` hold; 0 when there are none or they do not read. */
export async function countEnvironmentsBeside(dir: string): Promise<number> {
  try {
    const files = await environmentFilesBeside(new BodyFiles(dir), []);
    return files.length === 0 ? 0 : readEnvironmentFiles(files, new HttpPlaceholders()).environments.length;
  } catch {
    return 0;
  }
}
