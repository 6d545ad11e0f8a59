/**
 * Multipart bodies for tests, written by Node's own FormData encoder (undici's), never by hand:
 * a field is text, or `{ file }` for a file part with that content.
 */
export type Field = readonly [name: string, value: string | { file: string; filename?: string; type?: string }];

export async function multipartBody(fields: readonly Field[]): Promise<{ contentType: string; body: Buffer }> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.file], { type: value.type ?? 'application/octet-stream' }), value.filename ?? 'file.bin');
  }
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { contentType: request.headers.get('content-type')!, body: Buffer.from(await request.arrayBuffer()) };
}
