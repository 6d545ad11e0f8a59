/**
 * The peer check of the cURL import: for each command, curl itself sends it and Parley sends the
 * request the import made of it (through the real supervisor and sender process) to the same
 * server on 127.0.0.1, which must see the same method, path, query, headers (User-Agent and
 * connection headers aside) and body. Multipart bodies are compared part by part (the boundary
 * is random); a body's bytes otherwise.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { importCurl } from '../../processes/supervisor/curl/handlers.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';
import { keyringMissing } from '../support/keyring.js';

const CURL = '/usr/bin/curl';
const curlMissing = existsSync(CURL) ? null : `curl is not installed at ${CURL}`;
if (curlMissing && process.env.CI) throw new Error(`${curlMissing}: the peer check cannot be skipped under CI.`);
const noKeyring = await keyringMissing();

/**
 * Headers that belong to the connection or the client, not to the request the user wrote. The
 * framing (content-length, transfer-encoding) follows from the body, which is compared byte for
 * byte: undici frames a POST without a body with `content-length: 0`, curl sends none.
 */
const IGNORED = new Set(['user-agent', 'connection', 'keep-alive', 'expect', 'transfer-encoding', 'te', 'content-length']);

interface Seen {
  method: string;
  path: string;
  query: [string, string][];
  headers: [string, string][];
  body: unknown;
}

/** Commands without a credential: `{{base}}` is the server. Files named here sit in the project folder, curl's working folder. */
export const PEER_COMMANDS = [
  `curl {{base}}/pets`,
  `curl '{{base}}/pets?limit=20&tag=cat'`,
  `curl -X DELETE {{base}}/pets/7`,
  `curl -I {{base}}/health`,
  `curl -X OPTIONS {{base}}/pets -H 'Origin: https://app.example.com'`,
  `curl -X PATCH {{base}}/pets/1 -H 'Content-Type: application/json' -d '{"name":"Rex"}'`,
  `curl {{base}}/pets -H 'Content-Type: application/json' --data-raw '{"name": "O'"'"'Brien", "tags": ["a b", "c"]}'`,
  `curl {{base}}/pets --json '{"name":"Comet"}'`,
  `curl {{base}}/login -d 'user=bob&password=hunter2'`,
  `curl {{base}}/form -d 'name=hello world&x=1'`,
  `curl {{base}}/form --data-urlencode 'q=a b&c' --data-urlencode 'lang=en'`,
  `curl -G {{base}}/search -d 'q=parley' -d 'page=2'`,
  `curl -G '{{base}}/search?x=1' --data-urlencode 'q=hello world'`,
  `curl {{base}}/upload --data-binary @payload.bin -H 'Content-Type: application/octet-stream'`,
  `curl {{base}}/upload --data-binary @body.json -H 'Content-Type: application/json'`,
  `curl -X PUT {{base}}/upload --data-binary @notes.txt`,
  `curl {{base}}/files -F 'title=Holiday' -F 'photo=@pic.png'`,
  `curl {{base}}/files -F 'doc=@report.pdf;type=application/pdf' -F 'note=see attached'`,
  `curl {{base}}/files --form-string 'literal=@not-a-file' -F 'raw=@payload.bin'`,
  `curl {{base}}/events -H 'Accept: text/event-stream'`,
  `curl '{{base}}/a%20b/c' -H 'X-Quote: it'"'"'s "quoted" $HOME \\back'`,
  `curl {{base}}/text -H 'Content-Type: text/plain' --data-raw $'line 1\\nline 2\\ttabbed'`,
  `curl {{base}}/xml -H 'Content-Type: application/xml' -d '<pet><name>Rex</name></pet>'`,
  `curl {{base}}/soap -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: "urn:get"' -d '<Envelope/>'`,
  `curl -X POST {{base}}/empty`,
  `curl {{base}}/odd -d '{"not":"form"}'`,
  `curl {{base}}/headers -H 'X-Empty;' -H 'X-Many: a' -H 'X-Many: b' -e https://ref.example.com/`,
  `curl -g '{{base}}/filter?ids[]=1&ids[]=2'`,
  `curl -X GET {{base}}/get-with-body -H 'Content-Type: application/json' -d '{"query":"x"}'`,
  `curl {{base}}/unicode -H 'Content-Type: application/json' -d '{"name":"Ünïcødé 😀"}'`,
  `curl {{base}}/vendor -H 'Content-Type: application/vnd.api+json' -d '{"data":{}}'`,
  `curl {{base}}/pets --compressed`,
  `curl {{base}}/range -r 0-99 -H 'If-None-Match: "abc"'`,
];

/** Commands with a credential: the import moves it to the keychain, so these need a Secret Service. */
export const PEER_COMMANDS_WITH_CREDENTIALS = [
  `curl -u bob:s3cret {{base}}/private`,
  `curl -u 'alice:p@ss word:with colon' {{base}}/private -X POST -d 'x=1'`,
  `curl {{base}}/me -H 'Authorization: Bearer eyJhbGciOi.eyJzdWIi.sig'`,
  `curl {{base}}/me --oauth2-bearer abc123`,
  `curl {{base}}/data -H 'X-Api-Key: k-123' -H 'Accept: application/json'`,
];

describe.skipIf(curlMissing !== null)('curl and Parley send the same request', () => {
  let sup: Supervisor;
  let call: UiCall;
  let server: Server;
  let base: string;
  let projectDir: string;
  let apiId: string;
  let seen: Seen[] = [];

  beforeAll(async () => {
    const home = await mkdtemp(join(tmpdir(), 'parley-curl-peer-'));
    projectDir = join(home, 'project');
    sup = await Supervisor.start({ dataDir: home, log: () => {} });
    call = handlerCaller(uiHandlers(sup));
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        seen.push(await view(req.method!, req.url!, req.rawHeaders, Buffer.concat(chunks)));
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await sup.openProject(projectDir, { create: true });
    apiId = (await call('api.create', { project: projectDir, name: 'Echo', baseUrl: base })).id;
    await writeFile(join(projectDir, 'payload.bin'), Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256)));
    await writeFile(join(projectDir, 'body.json'), '{\n  "from": "a file",\n  "n": 1\n}\n');
    await writeFile(join(projectDir, 'notes.txt'), 'first line\r\nsecond line\n');
    await writeFile(join(projectDir, 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    await writeFile(join(projectDir, 'report.pdf'), '%PDF-1.4\n%test\n');
  });
  afterAll(async () => {
    await sup?.shutdown();
    await new Promise((r) => server?.close(r));
  });

  async function bySending(run: () => Promise<unknown>): Promise<Seen> {
    seen = [];
    await run();
    expect(seen).toHaveLength(1);
    return seen[0]!;
  }

  async function check(template: string): Promise<void> {
    const command = template.replaceAll('{{base}}', base);
    const byCurl = await bySending(
      () =>
        new Promise<void>((resolve, reject) =>
          execFile('bash', ['-c', `${command} -s -o /dev/null`], { cwd: projectDir, timeout: 20_000 }, (err, _out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve())),
        ),
    );
    const { request, report } = await importCurl(sup, { project: projectDir, parent: apiId, command });
    const byParley = await bySending(() => call('request.send', { project: projectDir, request }));
    const compressed = /--compressed/.test(command);
    const comparable = (s: Seen): Seen => ({
      ...s,
      // curl offers the codings its build decodes (zstd too); Parley the ones its sender decodes.
      headers: compressed ? s.headers.filter(([n]) => n !== 'accept-encoding') : s.headers,
    });
    expect({ command, ignored: report.ignored, seen: comparable(byParley) }).toEqual({ command, ignored: [], seen: comparable(byCurl) });
    if (compressed) {
      const codings = (s: Seen) => (s.headers.find(([n]) => n === 'accept-encoding')?.[1] ?? '').split(/,\s*/);
      expect(codings(byCurl)).toEqual(expect.arrayContaining(codings(byParley)));
    }
  }

  it('has at least 30 commands', () => expect(PEER_COMMANDS.length + PEER_COMMANDS_WITH_CREDENTIALS.length).toBeGreaterThanOrEqual(30));
  it.each(PEER_COMMANDS)('%s', check);
  describe.skipIf(noKeyring !== null)('with credentials (kept in the keychain)', () => {
    it.each(PEER_COMMANDS_WITH_CREDENTIALS)('%s', check);
  });
});

/** What the server saw, in a form two clients can be compared by. */
async function view(method: string, target: string, raw: string[], body: Buffer): Promise<Seen> {
  const q = target.indexOf('?');
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  const type = headers.find(([n]) => n === 'content-type')?.[1] ?? '';
  const multipart = /^multipart\/form-data/i.test(type);
  const kept = headers
    .filter(([n]) => !IGNORED.has(n))
    .map(([n, v]): [string, string] => (multipart && n === 'content-type' ? [n, 'multipart/form-data'] : [n, v]))
    .sort((a, b) => (a[0] === b[0] ? 0 : a[0] < b[0] ? -1 : 1));
  let content: unknown = body.toString('base64');
  if (multipart) {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
    content = await Promise.all(
      [...form].map(async ([name, value]) => (typeof value === 'string' ? [name, value] : [name, { filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()).toString('base64') }])),
    );
  }
  return {
    method,
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? [] : [...new URLSearchParams(target.slice(q + 1))],
    headers: kept,
    body: content,
  };
}
