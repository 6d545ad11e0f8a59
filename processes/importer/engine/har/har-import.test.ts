/**
 * The HAR importer: real captures from browsers and tools, and every rule of SPEC "HAR
 * grouping" and "Credentials in imported captures" (rules 1 to 3) as a table of small captures.
 * Every result is schema-valid, has unique ids, and two runs give the same output.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ImportResult, type ImportOptions } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { MASK } from '../../../../protocol/credentials/index.js';
import { checkAll } from '../../../../protocol/validate-node.js';
import { queryRows } from '../../../../protocol/request-url.js';
import { createDocumentLoader } from '../load/loader.js';
import { createImporterRegistry } from '../registry.js';
import { FIXED_CLOCK, counterIds, runHttpImportJob, type HttpImportResult, httpOnly } from '../test-support.js';
import { queryNames } from './convert.js';
import { harImporter } from './importer.js';
import type { HarExchange } from './entry.js';

const fixtures = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'importers', 'har');

async function run(text: string, options: ImportOptions = {}, name?: string): Promise<HttpImportResult> {
  const loader = createDocumentLoader({ offline: true });
  try {
    const bytes = new TextEncoder().encode(text);
    const input = {
      ...(name ? { name } : {}),
      text,
      async *stream() {
        // Small chunks, so entries cross chunk boundaries.
        for (let i = 0; i < bytes.length; i += 1000) yield bytes.slice(i, i + 1000);
      },
    };
    const result = httpOnly(await harImporter.convert(input, { newId: counterIds(), now: FIXED_CLOCK, loader, options }));
    expect(checkAll(ImportResult, result)).toEqual([]);
    const ids = [...result.apis.map((a) => a.api.id), ...result.apis.flatMap((a) => a.requests.map((r) => r.request.id)), ...(result.history ?? []).map((h) => h.id)];
    expect(new Set(ids).size).toBe(ids.length);
    return result;
  } finally {
    await loader.close();
  }
}

const requests = (result: HttpImportResult): Request[] => result.apis.flatMap((a) => a.requests.map((r) => r.request));
const one = (result: HttpImportResult): Request => {
  expect(requests(result)).toHaveLength(1);
  return requests(result)[0]!;
};
const messages = (result: HttpImportResult) => result.report.warnings.map((w) => w.message).join('\n');

interface E {
  method?: string;
  url?: string;
  headers?: [string, string][];
  postData?: Record<string, unknown>;
  status?: number;
  responseHeaders?: [string, string][];
  text?: string;
  mimeType?: string;
  started?: string | null;
  resourceType?: string;
}

function entry(e: E): Record<string, unknown> {
  return {
    ...(e.started === null ? {} : { startedDateTime: e.started ?? '2026-11-01T10:00:00.000Z' }),
    time: 5,
    ...(e.resourceType ? { _resourceType: e.resourceType } : {}),
    request: { method: e.method ?? 'GET', url: e.url ?? 'https://api.test/items', httpVersion: 'HTTP/1.1', headers: (e.headers ?? []).map(([name, value]) => ({ name, value })), queryString: [], cookies: [], ...(e.postData ? { postData: e.postData } : {}) },
    response: {
      status: e.status ?? 200,
      statusText: 'OK',
      headers: (e.responseHeaders ?? [['Content-Type', e.mimeType ?? 'application/json']]).map(([name, value]) => ({ name, value })),
      content: { size: (e.text ?? '').length, mimeType: e.mimeType ?? 'application/json', ...(e.text !== undefined ? { text: e.text } : {}) },
    },
  };
}
const har = (...entries: E[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: entries.map(entry) } }, null, 1);

describe('real captures', () => {
  it.each([
    ['chrome.har', 1, ['mitmproxy.org']],
    ['firefox.har', 1, ['mitmproxy.org']],
    ['with-bom.har', 1, ['signal-metrics-collector-beta.s-onetag.com']],
    ['postdata.har', 1, ['signal-metrics-collector-beta.s-onetag.com']],
    ['insomnia.har', 1, ['mitm.it']],
    ['successful_log.har', 2, ['example.com', 'httpbin.org']],
    ['harviewer-multiple-pages.har', 1, ['legoas']],
  ])('%s imports %i request(s) into one API per origin, deterministically', async (file, min, hosts) => {
    const text = await readFile(join(fixtures, file), 'utf8');
    const first = await run(text, {}, file);
    expect(first.apis.map((a) => a.api.name)).toEqual(expect.arrayContaining(hosts));
    for (const api of first.apis) expect(api.api.baseUrl).toMatch(/^https?:\/\/[^/]+$/);
    expect(requests(first).length).toBeGreaterThanOrEqual(min);
    expect(first.report.requestCount).toBe(requests(first).length);
    expect(await run(text, {}, file)).toEqual(first);
    // No cookie and no credential survives: cookies are dropped and Authorization only sets the auth type.
    for (const r of requests(first)) expect(r.headers.filter((h) => /^(cookie|authorization)$/i.test(h.name))).toEqual([]);
  });

  it('firefox.har: the page and its API call are requests; its images, scripts and styles are skipped and counted', async () => {
    const result = await run(await readFile(join(fixtures, 'firefox.har'), 'utf8'), {}, 'firefox.har');
    expect(result.report.notes?.map((n) => n.message).join('\n')).toMatch(/Skipped \d+ static assets? \(images, scripts, styles, fonts: tick Include static assets to import them\)/);
    const all = await run(await readFile(join(fixtures, 'firefox.har'), 'utf8'), { includeStaticAssets: true }, 'firefox.har');
    expect(requests(all).length).toBeGreaterThan(requests(result).length);
  });

  it('HAR 1.1 (Firebug) reads as 1.1', async () => {
    const result = await run(await readFile(join(fixtures, 'harviewer-multiple-pages.har'), 'utf8'), {}, 'multiple-pages.har');
    expect(result.report.declaredVersion).toBe('har-1.1');
    expect(result.report.notes?.map((n) => n.message).join('\n')).toMatch(/recorded by Firebug/);
  });

  it('a capture whose log has no entries, or that is not JSON, is refused with what is wrong', async () => {
    await expect(run(await readFile(join(fixtures, 'harviewer-not-valid.har'), 'utf8'), {}, 'not-valid.har')).rejects.toMatchObject({ code: 'import-malformed', message: 'not-valid.har is not a readable HAR capture: it has no log.entries.' });
    await expect(run(await readFile(join(fixtures, 'brokenfile.har'), 'utf8'), {}, 'brokenfile.har')).rejects.toMatchObject({ code: 'import-malformed', message: expect.stringMatching(/^brokenfile.har is not a readable HAR capture: /) });
  });

  it('is recognised by a .har name, or by content, with the version on the badge', async () => {
    const registry = createImporterRegistry();
    const text = await readFile(join(fixtures, 'chrome.har'), 'utf8');
    expect(registry.detectFormat({ name: 'capture.HAR', text: 'not json at all' })).toMatchObject({ format: 'har', settledBy: 'file-name', label: 'HAR' });
    expect(registry.detectFormat({ text })).toMatchObject({ format: 'har', settledBy: 'content', label: 'HAR 1.2', version: 'har-1.2' });
    expect(registry.detectFormat({ name: 'openapi.json', text })).toMatchObject({ format: 'openapi' });
    expect(registry.detectFormat({ text: '{"logs": {}}' })).toBeNull();
  });
});

describe('HAR grouping (SPEC)', () => {
  it.each<[string, E[], (r: HttpImportResult) => void]>([
    ['one API per origin, named after its host, with the origin as base URL', [{ url: 'https://api.test/a' }, { url: 'https://api.test:8443/a' }, { url: 'http://api.test/a' }, { url: 'https://other.test/a' }], (r) => {
      expect(r.apis.map((a) => [a.api.name, a.api.baseUrl])).toEqual([['api.test', 'https://api.test'], ['api.test:8443', 'https://api.test:8443'], ['api.test (http)', 'http://api.test'], ['other.test', 'https://other.test']]);
    }],
    ['same method, path and query names is one request; the first recording supplies headers, query and body', [
      { url: 'https://api.test/items?page=1&q=a', headers: [['X-First', '1']] },
      { url: 'https://api.test/items?q=b&page=2', headers: [['X-Second', '2']] },
      { method: 'POST', url: 'https://api.test/items?page=1&q=a' },
      { url: 'https://api.test/items?page=1' },
    ], (r) => {
      expect(requests(r).map((q) => q.name)).toEqual(['GET /items', 'POST /items', 'GET /items?page']);
      const first = requests(r)[0]!;
      expect([first.url, first.query, first.headers]).toEqual(['/items?page=1&q=a', [], [{ name: 'X-First', value: '1', enabled: true }]]);
    }],
    ['CORS preflights, static assets and non-http(s) URLs are skipped and counted', [
      { method: 'OPTIONS', url: 'https://api.test/items', headers: [['Access-Control-Request-Method', 'POST']] },
      { method: 'OPTIONS', url: 'https://api.test/any' },
      { url: 'https://api.test/logo.png', mimeType: 'image/png' },
      { url: 'https://api.test/app', mimeType: 'application/javascript' },
      { url: 'https://api.test/s', resourceType: 'stylesheet', mimeType: 'text/plain' },
      { url: 'data:text/plain,hi' },
      { url: 'wss://api.test/socket' },
      { url: 'chrome-extension://abc/x.js' },
      { url: 'https://api.test/page', mimeType: 'text/html' },
    ], (r) => {
      expect(requests(r).map((q) => q.name)).toEqual(['OPTIONS /any', 'GET /page']);
      expect(r.report.notes?.[0]?.message).toBe('Skipped 1 CORS preflight request, 3 static assets (images, scripts, styles, fonts: tick Include static assets to import them) and 3 entries whose URL is not http: or https:.');
    }],
    ['a request made from a request body keeps its kind: JSON raw, form rows, multipart parts', [
      { method: 'POST', url: 'https://api.test/json', headers: [['Content-Type', 'application/json']], postData: { mimeType: 'application/json', text: '{"name": "x",\n  "n": 1}' } },
      { method: 'POST', url: 'https://api.test/form', postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a', value: '1' }, { name: 'b', value: 'two words' }] } },
      { method: 'POST', url: 'https://api.test/upload', headers: [['Content-Type', 'multipart/form-data; boundary=x']], postData: { mimeType: 'multipart/form-data; boundary=x', params: [{ name: 'title', value: 't' }, { name: 'file', fileName: 'a.png', contentType: 'image/png' }] } },
      { method: 'PUT', url: 'https://api.test/xml', postData: { mimeType: 'application/soap+xml', text: '<a>1</a>' } },
    ], (r) => {
      const [json, form, upload, xml] = requests(r);
      expect(json!.body.kind).toBe('raw');
      expect(json!.body.raw).toEqual({ language: 'json', text: '{"name": "x",\n  "n": 1}' });
      expect(json!.headers).toEqual([]);
      expect(form!.body.form).toEqual([{ name: 'a', value: '1', enabled: true }, { name: 'b', value: 'two words', enabled: true }]);
      expect(upload!.body.multipart).toEqual([{ kind: 'text', name: 'title', value: 't', enabled: true }, { kind: 'file', name: 'file', file: '', contentType: 'image/png', enabled: true }]);
      expect(upload!.headers).toEqual([]);
      expect(messages(r)).toMatch(/POST \/upload: the capture does not hold the file sent as file: choose it on the Body tab/);
      expect(xml!.body.raw.language).toBe('xml');
      expect(xml!.headers).toEqual([{ name: 'Content-Type', value: 'application/soap+xml', enabled: true }]);
    }],
    ['HTTP/2 pseudo-headers, Host and Content-Length are left to the sender', [{ headers: [[':authority', 'api.test'], ['Host', 'api.test'], ['Content-Length', '0'], ['Accept', '*/*']] }], (r) => {
      expect(one(r).headers).toEqual([{ name: 'Accept', value: '*/*', enabled: true }]);
    }],
  ])('%s', async (_, entries, check) => check(await run(har(...entries))));

  it('a capture with no HTTP requests left after skips is refused; so is one with no entries', async () => {
    await expect(run(har({ method: 'OPTIONS', headers: [['Access-Control-Request-Method', 'GET']] }, { url: 'data:,x' }), {}, 'x.har')).rejects.toMatchObject({
      code: 'import-refused',
      message: 'x.har holds no HTTP requests to import (2 entries read; skipped 1 CORS preflight request and 1 entry whose URL is not http: or https:): nothing was imported.',
    });
    await expect(run(har())).rejects.toMatchObject({ code: 'import-refused', message: 'The pasted text holds no HTTP requests to import (0 entries read): nothing was imported.' });
  });

  it.each([
    ['an entry that is not an object', '{"log":{"entries":[{"request":{}}, "x"]}}', /log.entries\[1\] is a string, not an object/],
    ['a request without a URL', '{"log":{"entries":[{"request":{"method":"GET"},"response":{"status":200}}]}}', /log.entries\[0\].request.url is missing/],
    ['headers of the wrong type', '{"log":{"entries":[{"request":{"method":"GET","url":"https://a.test/","headers":"Accept: */*"}}]}}', /log.entries\[0\].request.headers is a string, not an array/],
    ['a status that is not a number', '{"log":{"entries":[{"request":{"method":"GET","url":"https://a.test/"},"response":{"status":"200"}}]}}', /log.entries\[0\].response.status is a string, not a number/],
    ['truncated JSON', har({}).slice(0, -40), /ends before its JSON is complete/],
    ['50,000-deep nesting', `{"log":{"entries":[{"request":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}}`, /log.entries\[0\] is nested more than 512 levels deep/],
  ])('refuses a capture with %s, naming what is wrong', async (_, text, message) => {
    await expect(run(text, {}, 'bad.har')).rejects.toMatchObject({ code: 'import-malformed', message: expect.stringMatching(message) });
  });
});

describe('query names (what groups calls into one request)', () => {
  it('are the names URLSearchParams reads, sorted, each once, whatever the query', () => {
    const query = fc.array(fc.constantFrom('a', 'b', 'B', 'é', '=', '&', '&', '%', '%41', '+', ' ', '?', '#x', '.', '[]'), { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(query, (q) => {
        const url = new URL(`https://h.test/p?${q}`);
        expect(queryNames(url)).toEqual([...new Set(url.searchParams.keys())].sort());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('Credentials in imported captures, rule 1 (and 3: cookies)', () => {
  it.each<[string, E, (r: Request, warnings: string) => void]>([
    ['Bearer sets the auth type with no token, and a warning asks for it', { headers: [['Authorization', 'Bearer abc.def']] }, (r, w) => {
      expect(r.auth).toEqual({ type: 'bearer', token: '' });
      expect(w).toMatch(/GET \/items: the recorded Bearer token was not imported: the request uses Bearer auth; set its token on the Auth tab/);
    }],
    ['Basic keeps the user name only', { headers: [['Authorization', `Basic ${btoa('ann:s3cret')}`]] }, (r, w) => {
      expect(r.auth).toEqual({ type: 'basic', username: 'ann', password: '' });
      expect(w).toMatch(/Basic password was not imported: the request uses Basic auth as ann/);
    }],
    ['another scheme imports as auth none with a warning', { headers: [['Authorization', 'Digest username="x", response="y"']] }, (r, w) => {
      expect(r.auth).toEqual({ type: 'none' });
      expect(w).toMatch(/Authorization header used the Digest scheme, which Parley does not import/);
    }],
    ['an unreadable Authorization imports as auth none with a warning', { headers: [['Authorization', 'Basic !!!']] }, (r, w) => {
      expect(r.auth).toEqual({ type: 'none' });
      expect(w).toMatch(/Authorization header used a value Parley could not read/);
    }],
    ['X-Api-Key without Authorization makes an API key header auth with no value', { headers: [['X-API-Key', 'k123']] }, (r, w) => {
      expect(r.auth).toEqual({ type: 'apikey', in: 'header', name: 'X-API-Key', value: '' });
      expect(w).toMatch(/X-API-Key header's key was not imported/);
    }],
    ['other credential-named headers are dropped with a warning; Cookie is dropped', { headers: [['Authorization', 'Bearer t'], ['X-Api-Key', 'k'], ['X-CSRF-Token', 'c'], ['Cookie', 'sid=1'], ['Accept', 'application/json']] }, (r, w) => {
      expect(r.headers).toEqual([{ name: 'Accept', value: 'application/json', enabled: true }]);
      expect(w).toMatch(/the headers X-CSRF-Token, X-Api-Key looked like credentials and were not imported/);
    }],
    ['credential-named query parameters arrive empty', { url: 'https://api.test/items?api_key=k1&page=2&sig=zz' }, (r, w) => {
      expect(queryRows(r.url)).toEqual([{ name: 'api_key', value: '', enabled: true }, { name: 'page', value: '2', enabled: true }, { name: 'sig', value: '', enabled: true }]);
      expect(w).toMatch(/credential-looking values were imported empty \(2 query parameters\)/);
    }],
    ['JSON keys at any depth are blanked, keeping the formatting, even when the JSON does not parse', { method: 'POST', postData: { mimeType: 'application/json', text: '{\n  "user": "ann",\n  "nested": {"password": "p", "list": [{"refresh_token": "r"}]},\n  "broken": ' } }, (r, w) => {
      expect(r.body.raw.text).toBe('{\n  "user": "ann",\n  "nested": {"password": "", "list": [{"refresh_token": ""}]},\n  "broken": ');
      expect(w).toMatch(/2 values in the JSON body/);
    }],
    ['XML elements and attributes are blanked', { method: 'POST', postData: { mimeType: 'text/xml', text: '<login token="t1"><user>ann</user><password>p</password></login>' } }, (r) => {
      expect(r.body.raw.text).toBe('<login token=""><user>ann</user><password></password></login>');
    }],
    ['form fields and multipart text parts are blanked', { method: 'POST', postData: { mimeType: 'application/x-www-form-urlencoded', text: 'user=ann&password=p&csrf_token=c' } }, (r, w) => {
      expect(r.body.form).toEqual([{ name: 'user', value: 'ann', enabled: true }, { name: 'password', value: '', enabled: true }, { name: 'csrf_token', value: '', enabled: true }]);
      expect(w).toMatch(/2 form fields/);
    }],
    ['multipart text parts are blanked', { method: 'POST', postData: { mimeType: 'multipart/form-data; boundary=b', params: [{ name: 'session_id', value: 's' }, { name: 'name', value: 'n' }] } }, (r) => {
      expect(r.body.multipart).toEqual([{ kind: 'text', name: 'session_id', value: '', enabled: true }, { kind: 'text', name: 'name', value: 'n', enabled: true }]);
    }],
    ['values made only of {{variables}} or ${...} references are kept', { url: 'https://api.test/items?token={{token}}', headers: [['Authorization', 'Bearer {{token}}'], ['X-Session', '${session}']], method: 'POST', postData: { mimeType: 'application/json', text: '{"password": "{{password}}"}' } }, (r) => {
      expect(r.auth).toEqual({ type: 'bearer', token: '{{token}}' });
      expect(r.headers).toEqual([{ name: 'X-Session', value: '${session}', enabled: true }]);
      expect(queryRows(r.url)).toEqual([{ name: 'token', value: '{{token}}', enabled: true }]);
      expect(r.body.raw.text).toBe('{"password": "{{password}}"}');
    }],
  ])('%s', async (_, e, check) => {
    const result = await run(har(e));
    check(one(result), messages(result));
    // No recorded secret anywhere in what the import made.
    expect(JSON.stringify(result)).not.toMatch(/abc\.def|s3cret|k123|sid=1|"k1"|=zz|"p"|>p<|r"}|password=p/);
  });

  it('cookies dropped are noted, not warned', async () => {
    const result = await run(har({ headers: [['Cookie', 'a=1']] }));
    expect(result.report.notes?.map((n) => n.message)).toContain('Cookies were dropped from 1 request: the cookie jar sends cookies at send time.');
    expect(result.report.warnings).toEqual([]);
  });

  it('one warning names every request it applies to', async () => {
    const entries = Array.from({ length: 12 }, (_, i) => ({ url: `https://api.test/r${i}`, headers: [['Authorization', 'Bearer x']] as [string, string][] }));
    const result = await run(har(...entries));
    expect(result.report.warnings).toHaveLength(1);
    expect(messages(result)).toMatch(/^12 requests \(api.test GET \/r0, .*api.test GET \/r7 and 4 more\): the recorded Bearer token was not imported/);
  });
});

describe('Recorded responses', () => {
  const capture = har(
    { url: 'https://api.test/items?token=t1', started: '2026-11-01T10:00:01.000Z', text: '{"id": 1, "access_token": "AT"}', responseHeaders: [['Content-Type', 'application/json'], ['Set-Cookie', 'sid=S; Path=/']] },
    { url: 'https://api.test/items?token=t2', started: '2026-11-01T10:00:02.000Z', status: 404, text: '{"error": "none"}' },
    { url: 'https://api.test/items?token=t3', started: 'yesterday', text: '{}' },
    { url: 'https://api.test/items?token=t4', started: null, status: 500, text: '{}' },
    { url: 'https://api.test/items?token=t5', started: '2026-11-01T10:00:03.000Z', text: '{"id": 3}' },
  );

  it("Don't keep (the default) keeps none", async () => {
    const result = await run(capture);
    expect([result.history, result.examples]).toEqual([undefined, undefined]);
  });

  it('Record into History writes each exchange at its recorded time, redacted; exchanges with no valid time are counted in one warning', async () => {
    const result = await run(capture, { recordedResponses: 'history' });
    const id = one(result).id;
    expect(result.history!.map((h) => [h.at, h.requestId, h.response?.status])).toEqual([
      ['2026-11-01T10:00:01.000Z', id, 200],
      ['2026-11-01T10:00:02.000Z', id, 404],
      ['2026-11-01T10:00:03.000Z', id, 200],
    ]);
    const first = result.history![0]!;
    expect(first.request.url).toBe(`https://api.test/items?token=${encodeURIComponent(MASK)}`);
    expect(first.response!.body).toBe(`{"id": 1, "access_token": "${MASK}"}`);
    expect(first.response!.headers).toContainEqual(['Set-Cookie', `sid=${MASK}; Path=/`]);
    expect(first.redacted).toBe(true);
    expect(messages(result)).toMatch(/2 recorded exchanges had no valid time and were not written to History/);
  });

  it('Save as examples keeps one per status, up to 5 per request, masked, and notes which were masked', async () => {
    const statuses = [200, 404, 201, 500, 503, 502, 200];
    const result = await run(har(...statuses.map((status, i) => ({ url: 'https://api.test/x', status, started: `2026-11-01T10:00:0${i}.000Z`, text: `{"n": ${i}, "secret": "s${i}"}`, responseHeaders: [['Content-Type', 'application/json'], ['Set-Cookie', 'a=b'], ['X-Auth-Token', 'tt']] as [string, string][] }))), { recordedResponses: 'examples' });
    const id = one(result).id;
    expect(result.examples!.map((e) => [e.request, e.example.status, new TextDecoder().decode(e.example.body)])).toEqual([
      [id, 200, `{"n": 0, "secret": "${MASK}"}`],
      [id, 201, `{"n": 2, "secret": "${MASK}"}`],
      [id, 404, `{"n": 1, "secret": "${MASK}"}`],
      [id, 500, `{"n": 3, "secret": "${MASK}"}`],
      [id, 503, `{"n": 4, "secret": "${MASK}"}`],
    ]);
    expect(result.examples![0]!.example.headers).toEqual([['Content-Type', 'application/json'], ['X-Auth-Token', MASK]]);
    expect(result.examples![0]!.example.recordedAt).toBe('2026-11-01T10:00:00.000Z');
    expect(result.report.notes?.map((n) => n.message)).toContain('Credential values were masked in 5 examples: api.test GET /x 200, api.test GET /x 201, api.test GET /x 404, api.test GET /x 500, api.test GET /x 503.');
  });
});

describe('a capture whose response reflects the credentials its exchange carried', () => {
  // httpbin's /headers answered a request with a session cookie and a Bearer token: the body echoes both.
  const reflecting = har({
    url: 'https://api.test/headers',
    headers: [['Cookie', 'sid=captured-sid-4471; lang=en'], ['Authorization', 'Bearer captured-tok-9902']],
    responseHeaders: [['Content-Type', 'application/json'], ['X-Echo', 'captured-sid-4471'], ['Set-Cookie', 'next=captured-next-1180; Path=/']],
    text: JSON.stringify({ headers: { Cookie: 'sid=captured-sid-4471; lang=en', Authorization: 'Bearer captured-tok-9902' }, bearer: 'captured-tok-9902', next: 'captured-next-1180', lang: 'en' }),
  });
  const leaked = (text: string) => ['captured-sid-4471', 'captured-tok-9902', 'captured-next-1180'].filter((v) => text.includes(v));

  it('keeps them out of the examples it saves, by value', async () => {
    const result = await run(reflecting, { recordedResponses: 'examples' });
    const example = result.examples![0]!.example;
    expect(JSON.parse(new TextDecoder().decode(example.body))).toEqual({ headers: { Cookie: `sid=${MASK}; lang=en`, Authorization: MASK }, bearer: MASK, next: MASK, lang: 'en' });
    expect(example.headers).toContainEqual(['X-Echo', MASK]);
    expect(leaked(JSON.stringify(result.examples) + new TextDecoder().decode(example.body))).toEqual([]);
  });

  it('and out of the History entries it records', async () => {
    const result = await run(reflecting, { recordedResponses: 'history' });
    const entry = result.history![0]!;
    expect(JSON.parse(entry.response!.body)).toMatchObject({ bearer: MASK, next: MASK, lang: 'en' });
    expect(entry.redacted).toBe(true);
    expect(leaked(JSON.stringify(result.history))).toEqual([]);
  });
});

describe('HAR limits (SPEC "Limits") in a whole job', () => {
  it('pasted text over 50,000,000 characters is refused before it is parsed; a file is read as a stream', async () => {
    const network = { proxy: '', caPem: '' };
    const big = `{"log":{"entries":[${' '.repeat(50_000_000)}]}}`;
    await expect(runHttpImportJob({ source: { kind: 'paste', text: big }, format: 'har', options: {}, network }, { newId: counterIds(), now: FIXED_CLOCK })).rejects.toMatchObject({
      code: 'import-too-large',
      message: expect.stringMatching(/^The pasted text is 50,000,022 characters long, over the 50,000,000 this format takes/),
    });
    const progress: number[] = [];
    const { result, detection } = await runHttpImportJob(
      { source: { kind: 'file', path: join(fixtures, 'successful_log.har') }, format: 'auto', options: {}, network },
      { newId: counterIds(), now: FIXED_CLOCK, onProgress: (p) => p.bytes !== undefined && progress.push(p.bytes) },
    );
    expect(detection).toMatchObject({ format: 'har', settledBy: 'file-name' });
    expect(result.report.requestCount).toBe(2);
    expect(progress.at(-1)).toBe((await readFile(join(fixtures, 'successful_log.har'))).length);
  }, 60_000);
});

describe('what one import hands over is bounded (one bus message)', () => {
  it('History keeps the newest exchanges within its budget and counts the rest; examples the first within theirs', async () => {
    const { HistoryRecorder, ExampleRecorder } = await import('./recorded.js');
    const { harExchange } = await import('./entry.js');
    const exchanges = Array.from({ length: 10 }, (_, i) => harExchange({ index: i, value: entry({ url: `https://api.test/x${i}`, started: `2026-11-01T10:00:0${9 - i}.000Z`, status: 200 + i, text: 'y'.repeat(1000) }) }) as HarExchange);
    const history = new HistoryRecorder(counterIds(), 4000);
    for (const e of exchanges) history.add(e, 'r');
    const kept = history.finish();
    expect(kept.map((h) => h.at)).toEqual(['2026-11-01T10:00:07.000Z', '2026-11-01T10:00:08.000Z', '2026-11-01T10:00:09.000Z']);
    expect(history.leftOut).toBe(7);
    const examples = new ExampleRecorder(FIXED_CLOCK, 2500);
    for (const e of exchanges) examples.add(e, `r${e.index}`);
    expect(examples.finish().examples.map((x) => x.request)).toEqual(['r0', 'r1']);
    expect(examples.leftOut).toBe(8);
  });
});
