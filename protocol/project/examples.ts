/**
 * Examples as files: a request `<name>.request.yaml` keeps its examples in the folder
 * `<name>.examples/` beside it, one `<status>.example.yaml` and one `<status>.body.<ext>` per
 * example (docs/examples.md). Pure: the store does the reading and the single-writer commits.
 *
 * Recording takes known values out first (a live send's secrets and the credential values it
 * carried, by value, as History does), then masks credentials as SPEC "Credentials in imported
 * captures" rule 2 says: every credential-named header masked and Set-Cookie dropped; the
 * credential values of a JSON, form or XML body masked; then the body is cut at 256 KB.
 */
import { EXAMPLE_BODY_LIMIT, type Example, type ExampleFile, type ExampleSource } from '../model/example.js';
import type { Header } from '../model/exchange.js';
import { bodySyntax, isCredentialHeader, maskBody, MASK, replaceSecretValues, replaceSecretValuesInBytes } from '../credentials/index.js';
import { essence, isJsonMediaType, isXmlMediaType } from '../media-type.js';
import { REQUEST_SUFFIX } from './layout.js';

export const EXAMPLES_SUFFIX = '.examples';
export const EXAMPLE_SUFFIX = '.example.yaml';

/** The examples folder of a request file (a path, any separator). */
export function examplesDirOf(requestFile: string): string {
  const base = requestFile.endsWith(REQUEST_SUFFIX) ? requestFile.slice(0, -REQUEST_SUFFIX.length) : requestFile;
  return base + EXAMPLES_SUFFIX;
}

export function exampleFileName(status: number): string {
  return `${status}${EXAMPLE_SUFFIX}`;
}

/** `200.body.json`: the extension from the Content-Type, so the file opens as what it is. */
export function bodyFileName(status: number, headers: readonly Header[]): string {
  const type = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const e = essence(type);
  const ext = isJsonMediaType(type) ? 'json' : isXmlMediaType(type) ? 'xml' : e === 'text/html' ? 'html' : e.startsWith('text/') ? 'txt' : 'bin';
  return `${status}.body.${ext}`;
}

/**
 * A response as an example: known values replaced first (`replacements`, value by replacement: a
 * live send's secret and carried credential values, as History redacts them; in the headers and
 * in the body, text or binary), then credentials masked by name (rule 2), Set-Cookie dropped, the
 * body cut at 256 KB.
 */
export function recordExample(source: ExampleSource, recordedAt: string, replacements: readonly (readonly [string, string])[] = []): Example {
  let masked = false;
  const redact = (text: string) => {
    const out = replacements.length === 0 ? text : replaceSecretValues(text, replacements);
    masked ||= out !== text;
    return out;
  };
  const headers: Header[] = [];
  for (const [name, value] of source.headers) {
    if (name.toLowerCase() === 'set-cookie') {
      masked = true;
      continue;
    }
    if (isCredentialHeader(name)) {
      masked = true;
      headers.push([name, MASK]);
    } else {
      headers.push([name, redact(value)]);
    }
  }
  let body = source.body;
  const contentType = source.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const decoded = isText(body) ? new TextDecoder().decode(body) : null;
  const text = decoded === null ? null : redact(decoded);
  if (text !== null && text !== decoded) body = new TextEncoder().encode(text);
  if (decoded === null && replacements.length > 0) {
    const bytes = replaceSecretValuesInBytes(body, replacements);
    if (bytes !== body) {
      masked = true;
      body = bytes;
    }
  }
  const syntax = text === null ? null : bodySyntax(contentType, text);
  if (text !== null && syntax) {
    const result = maskBody(text, syntax);
    if (result.masked > 0) {
      masked = true;
      body = new TextEncoder().encode(result.text);
    }
  }
  const truncated = source.size > EXAMPLE_BODY_LIMIT || body.byteLength > EXAMPLE_BODY_LIMIT;
  if (body.byteLength > EXAMPLE_BODY_LIMIT) body = cutAt(body, EXAMPLE_BODY_LIMIT, text !== null);
  return { status: source.status, statusText: source.statusText, name: `${source.status} ${source.statusText}`.trim(), recordedAt, headers, body, size: source.size, truncated, masked };
}

/** The files of an example: its YAML (and the body file when there is a body). */
export function exampleFiles(example: Example): { yaml: ExampleFile; bodyFile: string | null } {
  const bodyFile = example.body.byteLength > 0 ? bodyFileName(example.status, example.headers) : null;
  return {
    yaml: {
      version: 1,
      status: example.status,
      statusText: example.statusText,
      name: example.name,
      recordedAt: example.recordedAt,
      headers: example.headers.map(([name, value]) => ({ name, value })),
      ...(bodyFile ? { body: bodyFile } : {}),
      size: example.size,
      ...(example.truncated ? { truncated: true } : {}),
      ...(example.masked ? { masked: true } : {}),
    },
    bodyFile,
  };
}

export function exampleFromFile(file: ExampleFile, body: Uint8Array): Example {
  return {
    status: file.status,
    statusText: file.statusText,
    name: file.name,
    recordedAt: file.recordedAt,
    headers: file.headers.map((h): Header => [h.name, h.value]),
    body,
    size: file.size,
    truncated: file.truncated === true,
    masked: file.masked === true,
  };
}

/** A body is text when it is valid UTF-8 without NUL bytes (looked at in full, so a mask is never cut into binary). */
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The first `limit` bytes; for text, never through the middle of a UTF-8 character. */
function cutAt(bytes: Uint8Array, limit: number, text: boolean): Uint8Array {
  let end = limit;
  // A continuation byte (10xxxxxx) at the cut: step back to the start of its character.
  if (text) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.slice(0, end);
}
