/**
 * Form bodies read for the mock's contract check: multipart by undici's own reader (reached by its
 * file, so these hold it to what undici's public Response.formData() reads from the same bytes),
 * urlencoded by URLSearchParams; field names that are Object.prototype's are names like any other;
 * a malformed multipart body is a message naming what was wrong, never a throw or a hang.
 */
import { describe, expect, it } from 'vitest';
import { Response } from 'undici';
import { formKind, readForm, type FormValue } from './form-body.js';
import { multipartBody, type Field } from './test-support/multipart.js';

/** What undici's public API reads from the bytes, in readForm's shape. */
async function viaResponse(contentType: string, body: Buffer): Promise<Map<string, FormValue[]>> {
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  const out = new Map<string, FormValue[]>();
  for (const [name, value] of form) {
    const v: FormValue = typeof value === 'string' ? value : { filename: value.name, type: value.type, size: value.size };
    out.set(name, [...(out.get(name) ?? []), v]);
  }
  return out;
}

describe('a multipart body', () => {
  it.each<[string, Field[]]>([
    ['text fields, one repeated', [['name', 'Tom'], ['tag', '1'], ['tag', '2']]],
    ['a file part with its type and name', [['photo', { file: 'PNG', type: 'image/png', filename: 'tom.png' }], ['name', 'Tom']]],
    ['names of Object.prototype', [['__proto__', '1'], ['constructor', '2'], ['toString', '3'], ['hasOwnProperty', { file: 'x' }]]],
    ['non-ASCII names and values, an empty value', [['名前', 'トム'], ['note', ''], ['emoji', '🐈']]],
  ])('reads %s as Response.formData() does', async (_, fields) => {
    const { contentType, body } = await multipartBody(fields);
    const read = readForm('multipart', contentType, body);
    expect(read).toEqual({ ok: true, kind: 'multipart', fields: await viaResponse(contentType, body) });
    if (read.ok) expect(read.fields.size).toBe(new Set(fields.map(([name]) => name)).size);
  });

  it('keeps a field named __proto__ as an entry of its own, without touching any prototype', async () => {
    const { contentType, body } = await multipartBody([['__proto__', '{"polluted":true}']]);
    const read = readForm('multipart', contentType, body);
    expect(read.ok && read.fields.get('__proto__')).toEqual(['{"polluted":true}']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, (ct: string, body: Buffer) => [string, Buffer], RegExp]>([
    ['no boundary in the Content-Type', (_, body) => ['multipart/form-data', body], /: missing boundary in content-type header\.$/],
    ['a boundary the body does not have', (_, body) => ['multipart/form-data; boundary=something-else-entirely', body], /: no boundary found in multipart body\.$/],
    ['truncated inside a part', (ct, body) => [ct, body.subarray(0, body.length - 30)], /: expected boundary after body\.$/],
    ['truncated in its closing delimiter', (ct, body) => [ct, body.subarray(0, body.lastIndexOf('--\r\n'))], /: expected CRLF\.$/],
    ['a part header line without a colon', (ct, body) => [ct, Buffer.from(body.toString('latin1').replace('Content-Disposition: form-data; name="photo"', 'xx\r\nContent-Disposition: form-data; name="photo"'), 'latin1')], /: expected :\.$/],
    ['a part without a name', (ct, body) => [ct, Buffer.from(body.toString('latin1').replace('name="name"', 'x="name"'), 'latin1')], /: name attribute is required in content-disposition header\.$/],
    ['a Content-Type that is not a media type', (_, body) => ['multipart/', body], /: Content-Type multipart\/ is not multipart\/form-data with a boundary\.$/],
  ])('%s is a message naming what was wrong', async (_, spoil, message) => {
    const good = await multipartBody([['name', 'Tom'], ['photo', { file: 'PNG' }]]);
    const [contentType, body] = spoil(good.contentType, good.body);
    const read = readForm('multipart', contentType, body);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.message).toMatch(/^The multipart\/form-data body could not be read: /);
    expect(!read.ok && read.message).toMatch(message);
    // undici's public reader refuses the same bytes.
    if (contentType !== 'multipart/') await expect(new Response(body, { headers: { 'content-type': contentType } }).formData()).rejects.toThrow();
  });

  it('reads a 1 MiB body of many small parts, or of one unterminated part, in bounded time', async () => {
    const many = await multipartBody(Array.from({ length: 20_000 }, (_, i): Field => [`f${i}`, 'x'.repeat(20)]));
    expect(many.body.byteLength).toBeGreaterThan(1_000_000);
    let started = performance.now();
    const read = readForm('multipart', many.contentType, many.body);
    const manyMs = performance.now() - started;
    expect(read.ok && read.fields.size).toBe(20_000);
    // A header that never ends: the reader stops at the end of the bytes.
    const open = Buffer.concat([many.body.subarray(0, many.body.indexOf('\r\n') + 2), Buffer.from('Content-Disposition: form-data; name="a'), Buffer.alloc(1_000_000, 0x61)]);
    started = performance.now();
    expect(readForm('multipart', many.contentType, open).ok).toBe(false);
    const openMs = performance.now() - started;
    // Generous for a loaded machine; a quadratic reader would take minutes here.
    expect(manyMs + openMs).toBeLessThan(5_000);
  });
});

describe('a urlencoded body and the form kinds', () => {
  it('reads urlencoded fields in order, repeated names together, from text or bytes', () => {
    const fields = new Map<string, FormValue[]>([
      ['a', ['1', '3']],
      ['__proto__', ['x y']],
    ]);
    expect(readForm('urlencoded', 'application/x-www-form-urlencoded', 'a=1&__proto__=x+y&a=3')).toEqual({ ok: true, kind: 'urlencoded', fields });
    expect(readForm('urlencoded', '', Buffer.from('a=1&__proto__=x%20y&a=3'))).toEqual({ ok: true, kind: 'urlencoded', fields });
  });

  it.each([
    ['multipart/form-data; boundary=x', 'multipart'],
    ['Multipart/Form-Data', 'multipart'],
    ['application/x-www-form-urlencoded; charset=utf-8', 'urlencoded'],
    ['application/json', undefined],
    ['', undefined],
  ])('%s is %s', (contentType, kind) => {
    expect(formKind(contentType)).toBe(kind);
  });
});
