/**
 * Binary media types: which media types are bytes rather than text, how the common ones begin
 * (their file signature, to tell a PNG from a PDF or from the word `string`), and a real smallest
 * file of each type New Mock can answer with. Pure, for every process and the page: a mock's
 * binary body travels as base64 text (`MockResponse.body.text`), decoded only where bytes are
 * written (the mock folder, the wire).
 */
import { essence, isJsonMediaType, isXmlMediaType } from './media-type.js';

/** `image/svg+xml` is XML; every other image, audio, video and font type is bytes. */
const BINARY_TOP_TYPES = new Set(['image', 'audio', 'video', 'font']);

/** `application/` subtypes that are bytes (the rest of `application/` is text: JSON, XML, YAML, forms, scripts...). */
const BINARY_APPLICATION = new Set([
  'octet-stream',
  'pdf',
  'zip',
  'gzip',
  'x-gzip',
  'x-tar',
  'x-7z-compressed',
  'x-bzip2',
  'java-archive',
  'wasm',
  'msword',
  'vnd.ms-excel',
  'vnd.ms-powerpoint',
  'protobuf',
  'x-protobuf',
  'vnd.google.protobuf',
  'cbor',
  'msgpack',
  'x-msgpack',
  'vnd.apache.avro+binary',
  'x-font-ttf',
  'font-woff',
]);

/** Whether a body of this media type is bytes: nothing a text editor can show or a JSON check can read. */
export function isBinaryMediaType(mediaType: string): boolean {
  const e = essence(mediaType);
  if (isJsonMediaType(e) || isXmlMediaType(e)) return false;
  const [type, subtype = ''] = e.split('/', 2) as [string, string?];
  if (BINARY_TOP_TYPES.has(type)) return true;
  if (type !== 'application') return false;
  return BINARY_APPLICATION.has(subtype) || subtype.startsWith('vnd.openxmlformats-officedocument.') || subtype.endsWith('+zip') || subtype.endsWith('+gzip');
}

interface Signature {
  /** What a user calls such a file: `a PNG image`. */
  name: string;
  test(bytes: Uint8Array): boolean;
}

const at = (bytes: Uint8Array, offset: number, ascii: string) => ascii.split('').every((c, i) => bytes[offset + i] === c.charCodeAt(0));
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

const PNG: Signature = { name: 'a PNG image', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) };
const JPEG: Signature = { name: 'a JPEG image', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) };
const GIF: Signature = { name: 'a GIF image', test: (b) => at(b, 0, 'GIF87a') || at(b, 0, 'GIF89a') };
const WEBP: Signature = { name: 'a WebP image', test: (b) => at(b, 0, 'RIFF') && at(b, 8, 'WEBP') };
const BMP: Signature = { name: 'a BMP image', test: (b) => at(b, 0, 'BM') };
const TIFF: Signature = { name: 'a TIFF image', test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) };
const ICO: Signature = { name: 'an icon', test: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) };
const AVIF: Signature = { name: 'an AVIF image', test: (b) => at(b, 4, 'ftypavif') || at(b, 4, 'ftypavis') };
const PDF: Signature = { name: 'a PDF document', test: (b) => at(b, 0, '%PDF-') };
// An empty archive is only its end record; any other begins with a local file header.
const ZIP: Signature = { name: 'a ZIP archive', test: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06]) };
const GZIP: Signature = { name: 'gzip data', test: (b) => startsWith(b, [0x1f, 0x8b]) };
const MP3: Signature = { name: 'MP3 audio', test: (b) => at(b, 0, 'ID3') || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) };
const MP4: Signature = { name: 'an MP4 file', test: (b) => at(b, 4, 'ftyp') };
const OGG: Signature = { name: 'an Ogg file', test: (b) => at(b, 0, 'OggS') };
const WAV: Signature = { name: 'WAV audio', test: (b) => at(b, 0, 'RIFF') && at(b, 8, 'WAVE') };
const WEBM: Signature = { name: 'a WebM file', test: (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]) };
const WOFF: Signature = { name: 'a WOFF font', test: (b) => at(b, 0, 'wOFF') };
const WOFF2: Signature = { name: 'a WOFF2 font', test: (b) => at(b, 0, 'wOF2') };
const WASM: Signature = { name: 'a WebAssembly module', test: (b) => startsWith(b, [0x00, 0x61, 0x73, 0x6d]) };

const SIGNATURES = new Map<string, Signature>([
  ['image/png', PNG],
  ['image/apng', PNG],
  ['image/jpeg', JPEG],
  ['image/pjpeg', JPEG],
  ['image/gif', GIF],
  ['image/webp', WEBP],
  ['image/bmp', BMP],
  ['image/tiff', TIFF],
  ['image/x-icon', ICO],
  ['image/vnd.microsoft.icon', ICO],
  ['image/avif', AVIF],
  ['application/pdf', PDF],
  ['application/zip', ZIP],
  ['application/java-archive', ZIP],
  ['application/gzip', GZIP],
  ['application/x-gzip', GZIP],
  ['audio/mpeg', MP3],
  ['audio/mp4', MP4],
  ['video/mp4', MP4],
  ['audio/ogg', OGG],
  ['video/ogg', OGG],
  ['audio/wav', WAV],
  ['audio/x-wav', WAV],
  ['audio/webm', WEBM],
  ['video/webm', WEBM],
  ['font/woff', WOFF],
  ['font/woff2', WOFF2],
  ['application/wasm', WASM],
]);

/** Office Open XML documents are ZIP archives. */
function signatureOf(mediaType: string): Signature | undefined {
  const e = essence(mediaType);
  return SIGNATURES.get(e) ?? (e.startsWith('application/vnd.openxmlformats-officedocument.') || e.endsWith('+zip') ? ZIP : undefined);
}

/** What a user calls a file of this media type (`a PNG image`); undefined when Parley does not know its signature. */
export function mediaTypeName(mediaType: string): string | undefined {
  return signatureOf(mediaType)?.name;
}

/** What these bytes look like, by the signatures Parley knows: `a PDF document`; undefined when none fits. */
export function recogniseBytes(bytes: Uint8Array): string | undefined {
  for (const signature of new Set(SIGNATURES.values())) if (signature.test(bytes)) return signature.name;
  return undefined;
}

/**
 * Whether `bytes` can be a body of `mediaType`: `false` when Parley knows how such a file begins
 * and these bytes do not (no bytes at all included); `undefined` when it cannot tell
 * (`application/octet-stream` is any bytes).
 */
export function bytesFitMediaType(bytes: Uint8Array, mediaType: string): boolean | undefined {
  const signature = signatureOf(mediaType);
  return signature ? bytes.length > 0 && signature.test(bytes) : undefined;
}

/** A smallest valid PDF: one empty 1x1 inch page, its cross-reference offsets counted as it is built. */
function minimalPdf(): string {
  const objects = ['<</Type/Catalog/Pages 2 0 R>>', '<</Type/Pages/Kids[3 0 R]/Count 1>>', '<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>'];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return btoa(text);
}

/**
 * The file New Mock answers with for a binary media type, as base64: a 1x1 PNG, JPEG, GIF or WebP
 * (each decodes in a browser: test/e2e/mock-binary.test.ts), a one-page PDF, an empty ZIP
 * archive, gzip of nothing, or no bytes for `application/octet-stream` (any bytes are one).
 * Undefined for a type with no sample: its Default is empty, which `mock check` flags when the
 * type's signature is known.
 */
export function sampleBody(mediaType: string): string | undefined {
  const e = essence(mediaType);
  if (e === 'application/octet-stream') return '';
  const signature = signatureOf(e);
  if (signature === PNG) return 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  if (signature === JPEG)
    return '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAAD//Z';
  if (signature === GIF) return 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
  if (signature === WEBP) return 'UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAfQ//73v/+BiOh/AAA=';
  if (signature === PDF) return minimalPdf();
  if (signature === ZIP) return 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==';
  if (signature === GZIP) return 'H4sIAAAAAAAAAwMAAAAAAAAAAAA=';
  return undefined;
}

/** base64 to bytes, and back, in Node and the page alike. */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export function bytesBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  // In slices, since String.fromCharCode takes its arguments on the stack; a whole number of
  // 3-byte groups each, so the slices' base64 joins with no padding inside.
  const step = 3 * 0x2000;
  for (let i = 0; i < bytes.length; i += step) parts.push(btoa(String.fromCharCode.apply(null, bytes.subarray(i, i + step) as unknown as number[])));
  return parts.join('');
}
