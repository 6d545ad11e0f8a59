import { describe, expect, it } from 'vitest';
import { gunzipSync, inflateSync } from 'node:zlib';
import { base64Bytes, bytesBase64, bytesFitMediaType, isBinaryMediaType, mediaTypeName, recogniseBytes, sampleBody } from './binary-media.js';

describe('binary media types', () => {
  it.each([
    ['image/png', true],
    ['IMAGE/PNG; q=1', true],
    ['image/svg+xml', false],
    ['audio/mpeg', true],
    ['video/mp4', true],
    ['font/woff2', true],
    ['application/pdf', true],
    ['application/octet-stream', true],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', true],
    ['application/epub+zip', true],
    ['application/json', false],
    ['application/problem+json', false],
    ['application/xml', false],
    ['application/x-www-form-urlencoded', false],
    ['application/javascript', false],
    ['text/plain', false],
    ['text/csv', false],
  ])('%s is bytes: %s', (type, binary) => {
    expect(isBinaryMediaType(type)).toBe(binary);
  });

  it('tells a PNG from a PDF and from the text a schema sample gives', () => {
    const png = base64Bytes(sampleBody('image/png')!);
    const pdf = base64Bytes(sampleBody('application/pdf')!);
    const text = new TextEncoder().encode('string');
    expect(recogniseBytes(png)).toBe('a PNG image');
    expect(recogniseBytes(pdf)).toBe('a PDF document');
    expect(recogniseBytes(text)).toBeUndefined();
    expect(bytesFitMediaType(png, 'image/png')).toBe(true);
    expect(bytesFitMediaType(pdf, 'image/png')).toBe(false);
    expect(bytesFitMediaType(text, 'image/png')).toBe(false);
    expect(bytesFitMediaType(new Uint8Array(0), 'image/png')).toBe(false);
    // Any bytes are an octet stream; a type without a known signature cannot be told.
    expect(bytesFitMediaType(text, 'application/octet-stream')).toBeUndefined();
    expect(bytesFitMediaType(text, 'image/x-unknown')).toBeUndefined();
    expect(mediaTypeName('image/jpeg; charset=binary')).toBe('a JPEG image');
  });

  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'application/zip', 'application/gzip', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'])(
    'the sample body for %s is a file of that type',
    (type) => {
      const bytes = base64Bytes(sampleBody(type)!);
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytesFitMediaType(bytes, type)).toBe(true);
    },
  );

  it('the sample PNG is a 1x1 image whose pixel data inflates', () => {
    const png = Buffer.from(base64Bytes(sampleBody('image/png')!));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1, 1]);
    const idat = png.indexOf('IDAT', 0, 'latin1');
    const length = png.readUInt32BE(idat - 4);
    // One filter byte and 4 bytes of RGBA for the single pixel.
    expect(inflateSync(png.subarray(idat + 4, idat + 4 + length)).length).toBe(5);
    expect(png.subarray(-8, -4).toString('latin1')).toBe('IEND');
  });

  it('the sample PDF has a cross-reference table whose offsets point at its objects', () => {
    const pdf = Buffer.from(base64Bytes(sampleBody('application/pdf')!)).toString('latin1');
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(3);
    offsets.forEach((offset, i) => expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj\n`)).toBe(true));
  });

  it('the sample gzip is gzip of nothing, and an octet stream starts empty', () => {
    expect(gunzipSync(base64Bytes(sampleBody('application/gzip')!)).length).toBe(0);
    expect(sampleBody('application/octet-stream')).toBe('');
    expect(sampleBody('image/x-unknown')).toBeUndefined();
  });

  it('base64 round-trips every byte value, past the slice String.fromCharCode is given', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7919) % 256);
    const text = bytesBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64Bytes(text)).toEqual(bytes);
  });
});
