/**
 * Which names can be a file or folder name, and how a user's name becomes one that works on
 * Windows, macOS and Linux alike (projects travel between them through git). In a module of its
 * own, so code that checks a name before reading anything (`parley mock serve`'s early look for a
 * dispatch.ts) does not load the YAML and schema code of the project formats. docs/project-files.md.
 */

/** Characters no OS allows in a name, or that would leave the folder. */
export const UNPORTABLE = /[/\\:*?"<>|\p{Cc}]/u;
const UNPORTABLE_ALL = new RegExp(UNPORTABLE.source, 'gu');
/** Half of a UTF-16 pair on its own: no file system can store it. */
const LONE_SURROGATE = /\p{Cs}/gu;
const utf8 = new TextEncoder();

/**
 * The most UTF-8 bytes of a name Parley makes. File systems allow 255 bytes (Windows 255 UTF-16
 * units); this leaves room for the longest suffix (`.response.yaml`), a numeric suffix and the
 * `.<name>.<16 hex>.tmp` a save writes beside each file.
 */
export const MAX_NAME_BYTES = 120;

/** Windows device names: `CON`, `con.txt` and `Con .yaml` all open the device, on every Windows. */
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/**
 * True when a name read from disk can be used as one file or folder name without leaving its
 * folder. Lenient on purpose: an existing project made on one OS keeps loading on it. New names
 * are made with `portableFileName`, and checked with `isPortableFileName`.
 */
export function isSafeFileName(name: string): boolean {
  return name.length > 0 && name.length <= 120 && !UNPORTABLE.test(name) && !name.startsWith('.') && !/[ .]$/.test(name);
}

/**
 * A file or folder name for `name` that works on every OS: NFC, characters Windows refuses (and
 * control characters) replaced by `fill`, white space collapsed, no leading or trailing dots or
 * spaces (Windows drops trailing ones; leading dots hide a file), no device name (`CON` becomes
 * `CON_`), at most MAX_NAME_BYTES. Never `.` or `..`; `fallback` when nothing is left. The same
 * name always maps to the same file name, and a file name maps to itself.
 */
export function portableFileName(name: string, options: { fallback?: string; fill?: string } = {}): string {
  const fill = options.fill ?? '-';
  let out = name.replace(LONE_SURROGATE, fill).normalize('NFC').replace(UNPORTABLE_ALL, fill).replace(/\s+/gu, ' ');
  out = trimEnds(truncateUtf8(trimEnds(out), MAX_NAME_BYTES));
  const stem = /^[^.]*?(?= *(\.|$))/u.exec(out)?.[0] ?? '';
  if (DEVICE.test(stem)) out = trimEnds(truncateUtf8(`${stem}_${out.slice(stem.length)}`, MAX_NAME_BYTES));
  return out || (options.fallback ?? 'item');
}

/** True when `name` is already a portable file name (`portableFileName` keeps it as it is). */
export function isPortableFileName(name: string): boolean {
  return name !== '' && portableFileName(name, { fallback: '' }) === name;
}

/**
 * The key under which two names are one file on a case-insensitive or normalising file system
 * (Windows, macOS): compatibility-normalised, case-folded (`ß` and `SS` count as one, erring
 * towards a clash), trailing dots and spaces dropped as Windows does.
 */
export function fileNameKey(name: string): string {
  return name.replace(LONE_SURROGATE, '\uFFFD').normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(/[ .]+$/u, '');
}

/** `name` with a number that keeps it apart from a clashing one: `Pets 2`, still within MAX_NAME_BYTES. */
export function numberedFileName(name: string, n: number): string {
  const tail = ` ${n}`;
  return `${trimEnds(truncateUtf8(name, MAX_NAME_BYTES - tail.length))}${tail}`;
}

function trimEnds(text: string): string {
  return text.replace(/^[. ]+|[. ]+$/gu, '');
}

/** The longest start of `text` (whole code points) of at most `bytes` UTF-8 bytes. */
function truncateUtf8(text: string, bytes: number): string {
  if (utf8.encode(text).length <= bytes) return text;
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const size = utf8.encode(ch).length;
    if (used + size > bytes) break;
    used += size;
    end += ch.length;
  }
  return text.slice(0, end);
}
