/**
 * Writes a HAR 1.2 capture of a given size for tests and benches, without ever holding it in
 * memory: browser-like entries (a few origins, JSON APIs with query strings, request and
 * response headers, JSON bodies full of escaped quotes, some static assets and preflights),
 * each about `entryBytes` long, until the file reaches `bytes`.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface HarShape {
  /** Size of the file to write, in bytes (within one entry). */
  bytes: number;
  /** About how long one entry is (its response body grows to fit). */
  entryBytes?: number;
  /** How many different paths the API calls use (each path is one request after grouping). */
  paths?: number;
  /** Hosts the calls go to. */
  hosts?: string[];
}

export async function writeHar(file: string, shape: HarShape): Promise<{ entries: number; bytes: number }> {
  const entryBytes = shape.entryBytes ?? 3200;
  const paths = shape.paths ?? 200;
  const hosts = shape.hosts ?? ['api.example.test', 'cdn.example.test', 'auth.example.test:8443'];
  const out = createWriteStream(file);
  let written = 0;
  const write = async (text: string) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"log":{"version":"1.2","creator":{"name":"parley-test-generator","version":"1"},"pages":[{"id":"page_1","title":"t","startedDateTime":"2026-11-01T10:00:00.000Z","pageTimings":{}}],"entries":[\n');
  const start = Date.parse('2026-11-01T10:00:00.000Z');
  let i = 0;
  while (written < shape.bytes - entryBytes) {
    const entry = entryAt(i, { start, entryBytes, paths, hosts });
    await write(`${i === 0 ? '' : ',\n'}${JSON.stringify(entry)}`);
    i++;
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'close');
  return { entries: i, bytes: written };
}

function entryAt(i: number, o: { start: number; entryBytes: number; paths: number; hosts: string[] }): Record<string, unknown> {
  const host = o.hosts[i % o.hosts.length]!;
  const kind = i % 50 === 7 ? 'asset' : i % 50 === 13 ? 'preflight' : 'api';
  const path = kind === 'asset' ? `/static/app.${i % 5}.js` : `/v1/items/${i % o.paths}/detail`;
  const url = `https://${host}${path}${kind === 'api' ? `?page=${i % 7}&q=term${i}` : ''}`;
  const method = kind === 'preflight' ? 'OPTIONS' : i % 4 === 1 ? 'POST' : 'GET';
  const headers = [
    { name: 'Accept', value: 'application/json' },
    { name: 'User-Agent', value: 'Mozilla/5.0 (X11; Linux x86_64) parley-test' },
    { name: 'Authorization', value: 'Bearer secret-token-value' },
    ...(kind === 'preflight' ? [{ name: 'Access-Control-Request-Method', value: 'POST' }] : []),
  ];
  const body = { id: i, name: `item ${i}`, tags: ['a', 'b', 'c'], note: '' as string, nested: { quote: 'say "hi"', n: i } };
  const bare = JSON.stringify(body).length;
  body.note = 'x'.repeat(Math.max(0, o.entryBytes - 1100 - bare));
  const text = JSON.stringify(body);
  return {
    startedDateTime: new Date(o.start + i * 10).toISOString(),
    time: 12.5,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers,
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: method === 'POST' ? 17 : 0,
      ...(method === 'POST' ? { postData: { mimeType: 'application/json', text: `{"password":"p${i}"}` } } : {}),
    },
    response: {
      status: kind === 'preflight' ? 204 : i % 9 === 0 ? 404 : 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: kind === 'asset' ? 'application/javascript' : 'application/json' }],
      cookies: [],
      content: { size: text.length, mimeType: kind === 'asset' ? 'application/javascript' : 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 1, wait: 10, receive: 1.5 },
  };
}
