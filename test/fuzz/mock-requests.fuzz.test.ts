/**
 * Fuzzing the mock request path (issue 26 item 16, RELIABILITY.md): raw HTTP written to a running
 * mock over TCP, made of real requests to the demo API's mock with their method, target, headers
 * and body damaged (prototype names, escapes, `../`, absolute forms, repeated and conflicting
 * framing headers, broken chunks, JSON bodies cut and stuffed). Each case is answered with a
 * status line or closed within its deadline; the mock host never restarts, and a plain request
 * after each case is answered 200.
 */
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Peer } from '../../protocol/peer.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { ensureDemoProject } from '../../demo/project.js';
import { PROTOTYPE_NAMES } from '../support/prototype-names.js';
import { FUZZ, mutated, fuzzTimeout } from './fuzz-support.js';

const CASE_DEADLINE_MS = 5_000;

/** Writes `raw` and reads until the mock closes or the deadline: the status line, or '' for a close without one. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let got = '';
    socket.setTimeout(CASE_DEADLINE_MS, () => {
      socket.destroy();
      reject(new Error(`the mock neither answered nor closed within ${CASE_DEADLINE_MS} ms: ${JSON.stringify(raw.slice(0, 200))}`));
    });
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      // One answer is enough: the rest of the case's bytes may keep the connection open.
      if (/^HTTP\/1\.[01] \d{3}[^\r\n]*\r\n/.test(got)) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(/^HTTP\/1\.[01] \d{3}/.exec(got)?.[0] ?? ''));
    socket.end(raw, 'latin1');
  });
}

const token = fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'CONNECT', 'get', 'PRI'), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 12 }));
const target = fc.oneof(
  fc.constantFrom('/pets', '/pets/1', '/pets?limit=2', '/pets/abc', '*', 'http://127.0.0.1/pets', '//pets', '/pets/../../etc/passwd', '/%2e%2e/%2e%2e/x', '/pets/%00', '/pets/%ZZ', `/${'a'.repeat(70_000)}`),
  fc.constantFrom(...PROTOTYPE_NAMES).map((n) => `/pets/${n}`),
  mutated('/pets/1?limit=10&tags=a,b'),
);
const header = fc.oneof(
  fc.constantFrom(
    'Content-Type: application/json', 'Content-Type: text/plain; charset=x', 'Content-Type: multipart/form-data; boundary=', 'Accept: */*', 'Accept: application/xml',
    'Content-Length: 5', 'Content-Length: -1', 'Content-Length: 5, 6', 'Content-Length: 99999999999', 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked',
    'Content-Encoding: gzip', 'Host: 127.0.0.1', 'Host: evil.example', 'Expect: 100-continue', 'Connection: upgrade', 'Upgrade: websocket', `X-Big: ${'b'.repeat(20_000)}`,
  ),
  fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 16 })).map(([n, v]) => `${n}: ${v}`),
  fc.string({ maxLength: 40 }),
);
const body = fc.oneof(fc.constant(''), mutated('{"id": 1, "name": "Rex", "tag": "dog"}'), fc.constant('5\r\nhello\r\nZ\r\n'), fc.constant('0\r\n\r\n'), fc.string({ maxLength: 256 }));

describe('a running mock under hostile requests', () => {
  let home = '';
  let sup: Supervisor;
  let project = '';
  let port = 0;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'parley-fuzz-mock-'));
    project = join(home, 'project');
    await ensureDemoProject(project, 'http://127.0.0.1:9');
    sup = await Supervisor.start({ dataDir: home, log: () => {} });
    sup.attachUi({ emit: () => {}, onClose: () => () => {}, close: () => {} } as unknown as Peer);
    const store = await sup.openProject(project);
    await sup.mocks.create(project, store.listApis()[0]!.id, 'Pets');
    port = (await sup.mocks.start(project, 'm:Pets')).running!.port;
  }, fuzzTimeout(60_000));
  afterAll(async () => {
    await sup?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  it('answers or closes every case, and keeps serving from the same process', async () => {
    const pid = sup.mocks.processId(project, 'm:Pets');
    await fc.assert(
      fc.asyncProperty(token, target, fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', ''), fc.array(header, { maxLength: 6 }), body, async (method, path, version, headers, content) => {
        const status = await exchange(port, `${method} ${path} ${version}\r\nHost: 127.0.0.1:${port}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${content}`);
        expect(status === '' || /^HTTP\/1\.[01] [1-5]\d\d/.test(status), `status line ${JSON.stringify(status)}`).toBe(true);
        const after = await request(`http://127.0.0.1:${port}/pets/1`);
        await after.body.text();
        expect(after.statusCode).toBe(200);
      }),
      FUZZ,
    );
    expect(sup.mocks.processId(project, 'm:Pets')).toBe(pid);
  }, fuzzTimeout(600_000));
});
