/**
 * Which names can be a file or folder name: in a module of its own, so code that checks a name
 * before reading anything (\`parley mock serve\`'s early look for a dispatch.ts) does not load the
 * YAML and schema code of the project formats.
 */

/** Characters no OS allows in a name, or that would leave the folder. */
export const UNPORTABLE = /[/\\:*?"<>|\p{Cc}]/u;

/** True when a name can be used as one file or folder name on every OS, without leaving its folder. */
export function isSafeFileName(name: string): boolean {
  return name.length > 0 && name.length <= 120 && !UNPORTABLE.test(name) && !name.startsWith('.') && !/[ .]$/.test(name);
}
