/**
 * Redaction by value, through the real supervisor and sender process against a real server on
 * 127.0.0.1 that reflects what it gets: the Authorization header, an API key, a secret in the
 * JSON body and the cookies of the jar, in echo headers and in its JSON body. History on disk,
 * the HTTP Log and its HAR export, and a response saved as an example hold none of those values,
 * and no file written under the workspace or the project holds one; short cookie values (under
 * CARRIED_VALUE_MIN) are left alone.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { MapSecrets } from '../../processes/supervisor/cookies/test-support/map-secrets.js';
import type { Request } from '../../protocol/model/request.js';
import type { Exchange } from '../../protocol/model/history.js';
import { MASK } from '../../protocol/credentials/index.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

/** Keychain secrets the echo request uses. */
const SECRETS = { pw: 'pw-Reflected-4417', apikey: 'ak-9f3e21c7d0b5', tracer: 'tr-51c0ffee77', bodysecret: 'bs-a/b+c=91&d' };
/** Cookie values the server sets (long enough to be looked for), and one it sets on the echo. */
const COOKIES = { sid: 'ck-sid-7a0c91e4b2d5', tok: 'ck%2Ftok%3D80aa1c', rotated: 'ck-rot-3be1907c' };
/** What `tok` reads as once a server decoded it. */
const TOK_DECODED = decodeURIComponent(COOKIES.tok);
const BASIC = Buffer.from(`bob:${SECRETS.pw}`).toString('base64');
/** Every value that must appear nowhere written. */
const FORBIDDEN: Record<string, string> = {
  ...SECRETS,
  ...COOKIES,
  tokDecoded: TOK_DECODED,
  basic: BASIC,
};

let sup: Supervisor;
let call: UiCall;
let handlers: ReturnType<typeof uiHandlers>;
let server: Server;
let base: string;
let home: string;
let projectDir: string;
let apiId: string;
const logs: string[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
  });
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split('; ')) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
  }
  return out;
}

/** Every file under `dir`, as bytes read one character per byte (a binary file is searched too). */
async function everyFile(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, (await readFile(path)).toString('latin1'));
    }
  }
  return files;
}

/** [what, where] for each forbidden value found in `texts` (UTF-8 values compared as their bytes). */
function hits(texts: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [what, value] of Object.entries(FORBIDDEN)) {
    const bytes = Buffer.from(value).toString('latin1');
    for (const [where, text] of texts) if (text.includes(bytes)) found.push(`${what} in ${where}`);
  }
  return found;
}

async function newRequest(name: string, patch: Partial<Request>): Promise<Request> {
  const created = await call('request.create', { project: projectDir, parent: apiId, name, method: 'POST', url: '/' });
  return (await call('request.save', { project: projectDir, request: { ...created, ...patch, settings: { ...created.settings, sendCookies: true } } })) as Request;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-redaction-'));
  projectDir = join(home, 'project');
  const secrets = new MapSecrets();
  for (const [name, value] of Object.entries(SECRETS)) await secrets.set(name, value);
  sup = await Supervisor.start({ dataDir: home, secrets, log: (line) => logs.push(line) });
  handlers = uiHandlers(sup);
  call = handlerCaller(handlers);
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/login') {
        // Two cookies long enough to be looked for, two too short to be (they would mangle "en" and "1").
        res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': [`sid=${COOKIES.sid}; Path=/; Max-Age=3600`, `tok=${COOKIES.tok}; Path=/`, 'lang=en; Path=/', 'v=1; Path=/'] });
        res.end(JSON.stringify({ ok: true }));
        return;
      }
      if (url.pathname === '/events') {
        // An event stream that reflects the cookies in its events' data and ids.
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end(`id: ${parseCookies(req.headers.cookie)['sid'] ?? ''}\ndata: ${JSON.stringify({ cookie: req.headers.cookie ?? '' })}\n\ndata: plain ${req.headers.cookie ?? ''}\n\n`);
        return;
      }
      // httpbin-style: what came in, in headers and in the JSON body; and a cookie set on the way.
      const h = req.headers;
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Set-Cookie': `rot=${COOKIES.rotated}; Path=/`,
        'X-Echo-Authorization': h.authorization ?? '',
        'X-Echo-Key': String(h['x-api-key'] ?? ''),
        'X-Echo-Trace': String(h['x-trace'] ?? ''),
        'X-Echo-Cookie': h.cookie ?? '',
      });
      res.end(
        JSON.stringify({
          headers: h,
          echoA: h.authorization,
          echoK: h['x-api-key'],
          echoT: h['x-trace'],
          echoC: h.cookie,
          cookies: parseCookies(h.cookie),
          received: body,
          value: (JSON.parse(body) as { value: string }).value,
          rotated: COOKIES.rotated,
          note: 'lang en, v 1, true',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Echo', baseUrl: base })).id;
});

afterAll(async () => {
  await sup?.shutdown();
  await new Promise((r) => server.close(r));
});

describe('redaction by value', () => {
  let echo: Request;
  let exchange: Exchange;

  it('a reflected secret, Authorization and jar cookie are masked in History on disk', async () => {
    const login = await newRequest('login', { url: '/login' });
    await call('request.send', { project: projectDir, request: login });
    expect((await call('cookies.list', {})).cookies.map((c) => c.name).sort()).toEqual(['lang', 'sid', 'tok', 'v']);

    echo = await newRequest('echo', {
      url: '/echo',
      auth: { type: 'basic', username: 'bob', password: '${secret:pw}' },
      headers: [
        { name: 'X-Api-Key', value: '${secret:apikey}', enabled: true },
        { name: 'X-Trace', value: '${secret:tracer}', enabled: true },
      ],
      body: { kind: 'raw', raw: { language: 'json', text: '{"value": "${secret:bodysecret}"}' }, form: [], multipart: [], binary: { file: '', contentType: '' } },
    });
    exchange = await call('request.send', { project: projectDir, request: echo });
    // The server did get (and reflect) every value: the live response shows them, as it must.
    const live = JSON.parse(new TextDecoder().decode(exchange.response.body.bytes)) as Record<string, unknown>;
    expect(live).toMatchObject({ echoA: `Basic ${BASIC}`, echoK: SECRETS.apikey, value: SECRETS.bodysecret, cookies: { sid: COOKIES.sid, tok: TOK_DECODED, lang: 'en', v: '1' } });
    expect(exchange.response.jarCookies).toBeUndefined();

    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.redacted).toBe(true);
    const headers = Object.fromEntries(entry.response!.headers.map(([n, v]) => [n.toLowerCase(), v]));
    expect(headers).toMatchObject({
      // A secret the request used becomes its reference; a credential it carried, the mask.
      'x-echo-authorization': MASK,
      'x-echo-key': '${secret:apikey}',
      'x-echo-trace': '${secret:tracer}',
      'x-echo-cookie': `sid=${MASK}; tok=${MASK}; lang=en; v=1`,
      'set-cookie': `rot=${MASK}; Path=/`,
    });
    const body = JSON.parse(entry.response!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      echoA: MASK,
      echoK: '${secret:apikey}',
      echoT: '${secret:tracer}',
      echoC: `sid=${MASK}; tok=${MASK}; lang=en; v=1`,
      cookies: { sid: MASK, tok: MASK, lang: 'en', v: '1' },
      value: '${secret:bodysecret}',
      rotated: MASK,
      // Values under the minimum length are not looked for: "en" and "1" stay everywhere.
      note: 'lang en, v 1, true',
    });
    expect(hits(await everyFile(join(home, 'history')))).toEqual([]);
  });

  it('an event stream that reflects the cookies keeps none in History', async () => {
    const events = await newRequest('events', { url: '/events', method: 'GET' });
    const streamed = await call('request.send', { project: projectDir, request: events });
    expect(streamed.response.stream?.rows.map((r) => r.data)).toEqual([JSON.stringify({ cookie: `sid=${COOKIES.sid}; tok=${COOKIES.tok}; lang=en; v=1; rot=${COOKIES.rotated}` }), `plain sid=${COOKIES.sid}; tok=${COOKIES.tok}; lang=en; v=1; rot=${COOKIES.rotated}`]);
    const entry = await call('history.get', { project: projectDir, id: streamed.id });
    const masked = `sid=${MASK}; tok=${MASK}; lang=en; v=1; rot=${MASK}`;
    expect(entry.response!.stream!.rows.map((r) => [r.id, r.data])).toEqual([
      [MASK, JSON.stringify({ cookie: masked })],
      [undefined, `plain ${masked}`],
    ]);
    expect(hits(await everyFile(join(home, 'history')))).toEqual([]);
  });

  it('the HTTP Log and its HAR export hold no secret and no cookie value', async () => {
    const { rows } = await call('httpLog.list', {});
    expect(rows).toHaveLength(3);
    const entries = new Map<string, string>();
    for (const row of rows) entries.set(`httpLog.get ${row.id}`, Buffer.from(JSON.stringify(await call('httpLog.get', { id: row.id }))).toString('latin1'));
    // Newest first: the event stream, then the echo, redacted as their History entries.
    expect((await call('httpLog.get', { id: rows[0]!.id })).response!.stream!.rows.map((r) => r.data)).toContain(`plain sid=${MASK}; tok=${MASK}; lang=en; v=1; rot=${MASK}`);
    const logged = await call('httpLog.get', { id: rows[1]!.id });
    expect(logged.response!.headers).toContainEqual(['X-Echo-Cookie', `sid=${MASK}; tok=${MASK}; lang=en; v=1`]);
    expect(JSON.parse(logged.response!.body)).toMatchObject({ cookies: { sid: MASK, tok: MASK, lang: 'en', v: '1' }, echoT: '${secret:tracer}' });
    const pieces: string[] = [];
    await handlers['httpLog.har']!({ ids: rows.map((r) => r.id) }, { signal: new AbortController().signal, chunk: (c: { text: string }) => pieces.push(c.text) });
    const har = pieces.join('');
    expect((JSON.parse(har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(3);
    entries.set('HAR', Buffer.from(har).toString('latin1'));
    expect(hits(entries)).toEqual([]);
  });

  it('Save as example writes the response redacted as History recorded it', async () => {
    const r = exchange.response;
    const saved = await call('examples.save', { project: projectDir, requestId: echo.id, exchange: exchange.id, response: { status: r.status, statusText: r.statusText, headers: r.headers, body: r.body.bytes, size: r.body.size } });
    expect(saved.example.masked).toBe(true);
    const files = await everyFile(projectDir);
    const bodyFile = [...files.keys()].find((p) => p.endsWith('.examples/200.body.json'))!;
    const yamlFile = [...files.keys()].find((p) => p.endsWith('.examples/200.example.yaml'))!;
    expect(bodyFile && yamlFile).toBeTruthy();
    const body = JSON.parse(Buffer.from(files.get(bodyFile)!, 'latin1').toString('utf8')) as Record<string, unknown>;
    expect(body).toMatchObject({ echoA: MASK, echoK: '${secret:apikey}', echoT: '${secret:tracer}', value: '${secret:bodysecret}', cookies: { sid: MASK, tok: MASK, lang: 'en', v: '1' }, note: 'lang en, v 1, true' });
    expect(hits(files)).toEqual([]);
  });

  it('refuses to save a response whose exchange it does not know, writing nothing', async () => {
    const r = exchange.response;
    await expect(
      call('examples.save', { project: projectDir, requestId: echo.id, exchange: 'not-an-exchange', response: { status: 201, statusText: 'Created', headers: r.headers, body: r.body.bytes, size: r.body.size } }),
    ).rejects.toMatchObject({ code: 'not-found' });
    expect([...(await everyFile(projectDir)).keys()].some((p) => p.endsWith('201.example.yaml'))).toBe(false);
  });

  it('no file written under the workspace or the project, and no log line, holds a secret or a cookie value', async () => {
    const files = await everyFile(home);
    files.set('supervisor log', Buffer.from(logs.join('\n')).toString('latin1'));
    // The scan reads what it should: the History file, the examples and the sealed jar are there.
    const names = [...files.keys()].join('\n');
    expect(names).toMatch(/history\/[^/]+\.jsonl/);
    expect(names).toMatch(/200\.body\.json/);
    expect(names).toMatch(/cookies\.jar/);
    expect(hits(files)).toEqual([]);
  });
});
