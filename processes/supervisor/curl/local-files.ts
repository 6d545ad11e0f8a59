/**
 * The files a curl command sends (`--data-binary @f`, `-d @f`, `--json @f`, `-F part=@f`), found
 * where curl would read them: inside the project (the request names them there), outside it (a
 * file of this machine that importing would copy into the project, which someone else's command
 * must not do unasked: issue 26), or not a file at all. The other ways curl reads a file
 * (`--data-urlencode name@f`, `-F part=<f`, several `-d @f`, `-T f`) are not imported, so never read.
 */
import { realpath, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { quote } from '../../../protocol/errors.js';
import type { CurlLocalFile } from '../../../protocol/model/curl.js';
import type { Body, Request } from '../../../protocol/model/request.js';
import { isInsideFolder } from '../../../protocol/project/safe-path.js';

/** A file the request's body names, as written, and the field that sends it. */
export interface BodyFileRef {
  file: string;
  field: string;
}

export type LocatedFile =
  | (BodyFileRef & { where: 'inside'; path: string })
  | (BodyFileRef & { where: 'outside'; local: CurlLocalFile })
  | (BodyFileRef & { where: 'missing'; full: string });

/** Every file the body sends, in order (a binary body's, then each multipart file part's). */
export function bodyFileRefs(body: Body): BodyFileRef[] {
  if (body.kind === 'binary') return body.binary.file ? [{ file: body.binary.file, field: 'binary body' }] : [];
  if (body.kind === 'multipart') return body.multipart.flatMap((p) => (p.kind === 'file' && p.file ? [{ file: p.file, field: `multipart part ${JSON.stringify(p.name)}` }] : []));
  return [];
}

/** The body with its files, in `bodyFileRefs` order, replaced by `files`. */
export function withBodyFiles(body: Body, files: readonly string[]): Body {
  let at = 0;
  if (body.kind === 'binary' && body.binary.file) return { ...body, binary: { ...body.binary, file: files[at++]! } };
  if (body.kind === 'multipart') return { ...body, multipart: body.multipart.map((p) => (p.kind === 'file' && p.file ? { ...p, file: files[at++]! } : p)) };
  return body;
}

/**
 * Where each file of `request` is, read from `base` (the command line's folder; the dialog, which
 * has none, reads from the project folder). By real path: a link in the project that leads out
 * is a file outside it, as Choose… and Send see it.
 */
export async function locateBodyFiles(root: string, request: Request, base: string): Promise<LocatedFile[]> {
  const realRoot = await realpath(root);
  const located: LocatedFile[] = [];
  for (const ref of bodyFileRefs(request.body)) {
    const full = resolve(base, ref.file);
    const real = await realpath(full).catch(() => null);
    const info = real === null ? null : await stat(real).catch(() => null);
    if (real === null || !info?.isFile()) located.push({ ...ref, where: 'missing', full });
    else if (isInsideFolder(realRoot, real)) located.push({ ...ref, where: 'inside', path: relative(realRoot, real).split(sep).join('/') });
    else located.push({ ...ref, where: 'outside', local: { path: real, size: info.size, field: ref.field } });
  }
  return located;
}

/** The files outside the project among `located`. */
export function localFilesOf(located: readonly LocatedFile[]): CurlLocalFile[] {
  return located.flatMap((l) => (l.where === 'outside' ? [l.local] : []));
}

/** `"/home/ann/key.pem" (1,679 bytes)`. */
export function describeLocalFile(file: CurlLocalFile): string {
  return `${quote(file.path, 300)} (${file.size.toLocaleString('en')} byte${file.size === 1 ? '' : 's'})`;
}
