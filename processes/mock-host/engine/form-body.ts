/**
 * A form request body read into its fields, for the mock's contract check: an
 * `application/x-www-form-urlencoded` body by URLSearchParams, a `multipart/form-data` body by
 * undici's own reader (the one its Response.formData() runs; a package already pinned here), never
 * by a parser of ours. It reads synchronously: the check runs on its deadline, inline or in a
 * worker, and has no turn of the event loop to wait for a promise.
 *
 * Fields are kept in a Map (a part named `__proto__` or `constructor` is a name like any other),
 * each name with its values in the order sent. A file part is kept as its name, type and size:
 * the check never reads a file's content.
 *
 * The caller holds the body to the check's size limit (1 MiB) before it gets here; a body that
 * does not parse is a message naming what was wrong, never a throw.
 */
import { parseMIMEType } from 'undici/lib/web/fetch/data-url.js';
import { essence, isFormMediaType } from '../../../protocol/media-type.js';
import { multipartFormDataParser } from 'undici/lib/web/fetch/formdata-parser.js';

export interface FormFile {
  readonly filename: string;
  /** The part's Content-Type (`text/plain` when it gave none, as the reader says). */
  readonly type: string;
  readonly size: number;
}

export type FormValue = string | FormFile;

export type FormKind = 'urlencoded' | 'multipart';

export type FormRead = { ok: true; kind: FormKind; fields: ReadonlyMap<string, FormValue[]> } | { ok: false; kind: FormKind; message: string };

/** The form a Content-Type announces, by its essence; undefined for any other. */
export function formKind(contentType: string): FormKind | undefined {
  if (isFormMediaType(contentType)) return 'urlencoded';
  if (essence(contentType) === 'multipart/form-data') return 'multipart';
  return undefined;
}

export function isFile(value: FormValue): value is FormFile {
  return typeof value !== 'string';
}

/** The fields of a form body of `kind`; `contentType` is the request's (a multipart body's boundary is there). */
export function readForm(kind: FormKind, contentType: string, body: Uint8Array | string): FormRead {
  const fields = new Map<string, FormValue[]>();
  const add = (name: string, value: FormValue) => {
    const list = fields.get(name);
    if (list) list.push(value);
    else fields.set(name, [value]);
  };
  if (kind === 'urlencoded') {
    for (const [name, value] of new URLSearchParams(typeof body === 'string' ? body : decoder.decode(body))) add(name, value);
    return { ok: true, kind, fields };
  }
  const mime = parseMIMEType(contentType);
  if (mime === 'failure' || mime.essence !== 'multipart/form-data') {
    return { ok: false, kind, message: `The multipart/form-data body could not be read: Content-Type ${contentType || '(none)'} is not multipart/form-data with a boundary.` };
  }
  let entries: ReturnType<typeof multipartFormDataParser>;
  try {
    const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    entries = multipartFormDataParser(bytes, mime);
  } catch (err) {
    return { ok: false, kind, message: `The multipart/form-data body could not be read: ${whatWasWrong(err)}.` };
  }
  for (const { name, value } of entries) add(name, typeof value === 'string' ? value : { filename: value.name, type: value.type, size: value.size });
  return { ok: true, kind, fields };
}

const decoder = new TextDecoder();

/** undici says "Failed to parse body as FormData." and puts the reason in `cause`. */
function whatWasWrong(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
  if (cause) return cause;
  // A malformed filename* (RFC 5987) reaches decodeURIComponent, which throws a URIError of its own.
  if (err instanceof URIError) return 'a part\'s filename* is not valid percent-encoded UTF-8';
  return err instanceof Error ? err.message : String(err);
}
