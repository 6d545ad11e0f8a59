/**
 * What enters the mock's listener on a raw socket: an absolute-form target (`GET http://evil.com/x`
 * with `Host: 127.0.0.1`) and two Host header lines are refused with 400 and a reason, REST and
 * SOAP alike, and logged; a path target is served as before; `OPTIONS *` is answered about the
 * mock as a whole. Before: the first was answered as `GET /x`, the second as the first Host said.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mock, MockLogEntry } from '../../../protocol/model/mock.js';
import { MockServer, type MockServerOptions } from './mock-server.js';
import { MASK } from './mock-log.js';
import { json, mockOf, operation } from './test-support/mocks.js';
import { newSoapMockFromDocuments } from './soap/new-soap-mock.js';
import { loadSoapContract } from './soap/soap-contract-from-wsdl.js';
import { soapRouting } from './soap/soap-endpoint.js';
import { fixtureDocuments } from './test-support/soap-fixtures.js';

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function start(mock: Mock, options: Partial<MockServerOptions> = {}): Promise<{ port: number; logs: MockLogEntry[] }> {
  const logs: MockLogEntry[] = [];
  const server = new MockServer({ mock, ...options, onLog: (e) => logs.push(e) });
  running.push(server);
  const { port } = await server.start();
  return { port, logs };
}

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Writes `text` as it is on a fresh connection to 127.0.0.1 and reads until the server closes it (10 s at most). */
function raw(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('the mock did not close the connection in 10 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const split = all.indexOf('\r\n\r\n');
      const head = split < 0 ? all : all.slice(0, split);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: split < 0 ? '' : all.slice(split + 4) });
    });
    socket.end(text);
  });
}

const restMock = () =>
  mockOf([
    operation({ method: 'GET', path: '/x', responses: [json('Default', { served: 'x' })] }),
    operation({ method: 'POST', path: '/x', responses: [json('Default', { posted: true })] }),
  ]);

describe('the mock listener refuses what a server behind a proxy must (REST)', () => {
  it('answers an absolute-form target 400 with a reason, closes the connection and logs it, its password masked', async () => {
    const { port, logs } = await start(restMock());
    const answer = await raw(port, `GET http://evil.com/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.head).toMatch(/\r\nConnection: close/i);
    const problem = JSON.parse(answer.body) as { code: string; detail: string };
    expect(problem.code).toBe('mock-target-refused');
    expect(problem.detail).toBe('This mock answers request targets that are paths, such as /pets?limit=5; this one is a full URL (absolute form), which only a proxy is sent.');
    expect(answer.body).not.toContain('served');

    await raw(port, `GET http://user:hunter2@evil.com/x?token=abc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    // A password with an @ in it: the user info ends at the authority's last @.
    await raw(port, `GET http://user:hun@ter2@evil.com/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(logs.map((e) => [e.status, e.path, e.operation])).toEqual([
      [400, 'http://evil.com/x', ''],
      [400, `http://user:${encodeURIComponent(MASK)}@evil.com/x?token=${encodeURIComponent(MASK)}`, ''],
      [400, `http://user:${encodeURIComponent(MASK)}@evil.com/x`, ''],
    ]);
    expect(JSON.stringify(logs)).not.toContain('hunter2');
    expect(JSON.stringify(logs)).not.toContain('ter2');
  });

  it('answers a request with two Host lines 400, whichever comes first, even listening on all interfaces', async () => {
    for (const listenAllInterfaces of [false, true]) {
      const { port, logs } = await start(restMock(), { listenAllInterfaces });
      for (const hosts of [`Host: 127.0.0.1:${port}\r\nHost: evil.com`, `host: evil.com\r\nHOST: 127.0.0.1:${port}`]) {
        const answer = await raw(port, `GET /x HTTP/1.1\r\n${hosts}\r\n\r\n`);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'mock-host-repeated', detail: 'The request has 2 Host header lines; a request names its host once (RFC 9112, section 3.2).', hosts: 2 });
      }
      expect(logs.map((e) => e.status)).toEqual([400, 400]);
    }
  });

  it('still serves a path target with one Host', async () => {
    const { port, logs } = await start(restMock());
    const answer = await raw(port, `GET /x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ served: 'x' });
    const posted = await raw(port, `POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect(JSON.parse(posted.body)).toEqual({ posted: true });
    expect(logs.map((e) => [e.status, e.path])).toEqual([
      [200, '/x'],
      [200, '/x'],
    ]);
  });

  it('answers OPTIONS * 204 with the methods the mock answers, and refuses * with any other method', async () => {
    const { port, logs } = await start(restMock());
    const options = await raw(port, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(options.status).toBe(204);
    expect(options.head).toMatch(/\r\nAllow: GET, HEAD, POST\r\n/);
    expect(options.body).toBe('');
    const get = await raw(port, `GET * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(get.status).toBe(400);
    expect(JSON.parse(get.body)).toMatchObject({ code: 'mock-target-refused', detail: expect.stringContaining('this one is *, which only OPTIONS may send') });
    // The Host rule holds for it as for any request.
    const elsewhere = await raw(port, `OPTIONS * HTTP/1.1\r\nHost: evil.com\r\n\r\n`);
    expect(elsewhere.status).toBe(421);
    expect(logs.map((e) => [e.method, e.path, e.status])).toEqual([
      ['OPTIONS', '*', 204],
      ['GET', '*', 400],
      ['OPTIONS', '*', 421],
    ]);
  });
});

describe('the same refusals on a SOAP mock', () => {
  it('are SOAP faults with status 400 naming the code, and a SOAP request is still served', async () => {
    const wsdl = [...fixtureDocuments('test1')].map(([path, text]) => ({ path, text }));
    const documents = [...wsdl.filter((d) => d.path === 'TestService.wsdl'), ...wsdl.filter((d) => d.path !== 'TestService.wsdl')];
    let ids = 0;
    const mock = await newSoapMockFromDocuments({ wsdl: documents }, { name: 'soap', api: 'api-soap', newId: () => `s${++ids}` });
    const soap = await loadSoapContract(documents, mock.binding);
    const { port, logs } = await start(mock, { soap: soapRouting(soap) });
    const absolute = await raw(port, `POST http://evil.com/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\n\r\n`);
    expect(absolute.status).toBe(400);
    expect(absolute.body).toContain('mock-target-refused');
    expect(absolute.body).toMatch(/<(\w+:)?Fault>/);
    const twice = await raw(port, `GET /?wsdl HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.com\r\n\r\n`);
    expect(twice.status).toBe(400);
    expect(twice.body).toContain('mock-host-repeated');
    expect(twice.body).not.toContain('evil.com');
    const wsdlAnswer = await raw(port, `GET /?wsdl HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(wsdlAnswer.status).toBe(200);
    expect(wsdlAnswer.body).toContain(`127.0.0.1:${port}`);
    expect(logs.map((e) => e.status)).toEqual([400, 400, 200]);
    const options = await raw(port, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(options.head).toMatch(/\r\nAllow: GET, HEAD, POST\r\n/);
  });
});
