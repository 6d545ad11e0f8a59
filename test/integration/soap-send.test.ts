/**
 * Envelopes Parley generates are accepted by real SOAP servers built by the `soap` package from
 * the same WSDL (SOAP 1.1 and 1.2; document/literal, rpc/literal, rpc/encoded): each WSDL is
 * imported through the real supervisor and importer child, and every imported request is sent
 * through the real sender process; the server's handler must have received that operation with
 * the arguments the envelope carries. A fault comes back as a 500 with a SOAP Fault.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import type { Handlers } from '../../protocol/peer.js';
import type { Request } from '../../protocol/model/request.js';
import { readWsdl } from '../../protocol/wsdl/index.js';
import { startCalcServer, type CalcServer } from '../support/soap-server.js';

class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  get = async (name: string) => this.values.get(name) ?? null;
  set = async (name: string, value: string) => void this.values.set(name, value);
  delete = async (name: string) => void this.values.delete(name);
  unavailableReason = async () => null;
}

const FIXTURES = resolve(import.meta.dirname, '../fixtures/wsdl');

let sup: Supervisor;
const secrets = new MemorySecrets();
let handlers: Handlers;
let home: string;
let calc: CalcServer;

async function call<M extends keyof Handlers>(method: M, payload: Parameters<NonNullable<Handlers[M]>>[0]): Promise<Awaited<ReturnType<NonNullable<Handlers[M]>>>> {
  const handler = handlers[method] as (p: unknown, ctx: unknown) => unknown;
  return (await handler(payload, { signal: new AbortController().signal, chunk: () => {} })) as never;
}

/** Imports `path` into a new project and returns every imported request. */
async function importWsdl(path: string): Promise<{ project: string; requests: Request[] }> {
  const project = await mkdtemp(join(home, 'project-'));
  const result = await sup.imports.run({ source: { kind: 'file', path }, format: 'auto', options: {}, into: { kind: 'new', path: join(project, 'p') } }, { signal: new AbortController().signal, chunk: () => {} });
  expect(result.detection?.format).toBe('wsdl');
  const dir = result.project!;
  const requests: Request[] = [];
  const tree = await call('project.tree', { project: dir });
  for (const item of tree.items) if (item.kind === 'request') requests.push((await call('request.get', { project: dir, id: item.id })) as Request);
  return { project: dir, requests };
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-soap-send-'));
  sup = await Supervisor.start({ dataDir: home, log: () => {}, secrets });
  handlers = uiHandlers(sup);
  calc = await startCalcServer();
}, 60_000);

afterAll(async () => {
  await sup?.shutdown();
  await calc?.close();
});

describe('calc.wsdl against its soap server', () => {
  it('every operation of the SOAP 1.1, SOAP 1.2 and rpc bindings reaches its handler with its arguments', async () => {
    const { project, requests } = await importWsdl(calc.wsdlPath);
    expect(requests.map((r) => `${r.soap?.binding}/${r.name}`).sort()).toEqual(['CalcRpc/Multiply', 'CalcSoap11/Add', 'CalcSoap11/Divide', 'CalcSoap12/Add', 'CalcSoap12/Divide']);
    for (const request of requests) {
      const before = calc.calls.length;
      const exchange = await call('request.send', { project, request });
      const got = calc.calls.slice(before);
      expect(got.map((c) => c.operation), request.name).toEqual([request.soap!.operation]);
      const port = { CalcSoap11: 'CalcSoap11Port', CalcSoap12: 'CalcSoap12Port', CalcRpc: 'CalcRpcPort' }[request.soap!.binding];
      expect(got[0]!.port).toBe(port);
      const text = new TextDecoder().decode(exchange.response.body.bytes);
      if (request.name === 'Divide') {
        // The sample divides by zero: the server answers a fault, in the binding's SOAP version.
        expect(exchange.response.status).toBe(500);
        expect(text).toMatch(request.soap!.soapVersion === '1.2' ? /<soap:Reason>[^]*Division by zero/ : /<faultstring>Division by zero/);
        expect(got[0]!.args).toEqual({ dividend: 0, divisor: 0, rounding: 'down' });
      } else {
        expect(exchange.response.status).toBe(200);
        expect(Object.keys(got[0]!.args).sort()).toEqual(request.name === 'Add' ? ['a', 'b'] : ['x', 'y']);
      }
      const ct = exchange.response.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
      expect(ct).toContain(request.soap!.soapVersion === '1.2' ? 'application/soap+xml' : 'text/xml');
    }
  });
});

describe('calc.wsdl by URL with Basic definition credentials, used for requests too', () => {
  it('each binding API records the source credentials and Basic auth as its own keychain reference; no password in a file', async () => {
    const seenAuth: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seenAuth.push(req.headers.authorization);
      if (req.headers.authorization !== `Basic ${Buffer.from('ws:pw-calc-77').toString('base64')}`) return void res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'text/xml' }).end(calc.wsdlText);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/calc?wsdl`;
      const project = join(await mkdtemp(join(home, 'url-')), 'p');
      const result = await sup.imports.run(
        { source: { kind: 'url', url, credentials: { type: 'basic', username: 'ws', password: 'pw-calc-77' } }, format: 'auto', options: { useCredentialsForRequests: true }, into: { kind: 'new', path: project } },
        { signal: new AbortController().signal, chunk: () => {} },
      );
      expect(result.apis.map((a) => a.name).sort()).toEqual(['CalcRpc', 'CalcSoap11', 'CalcSoap12']);
      for (const { id } of result.apis) {
        const api = await call('api.get', { project, id });
        const ref = `\${secret:api.${id}.definition}`;
        expect(api.definition?.source).toEqual({ kind: 'url', location: url, credentials: { type: 'basic', username: 'ws', secret: ref } });
        expect(api.auth).toEqual({ type: 'basic', username: 'ws', password: ref });
        expect(secrets.values.get(`api.${id}.definition`)).toBe('pw-calc-77');
      }
      const texts: string[] = [];
      for (const e of await readdir(project, { withFileTypes: true, recursive: true })) if (e.isFile()) texts.push(await readFile(join(e.parentPath, e.name), 'utf8'));
      expect(texts.join('\n')).not.toContain('pw-calc-77');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

/**
 * Fixtures from the corpus with no imports: a `soap` server from the WSDL text whose every
 * operation records its call; requests go to this server at the port address's path.
 */
describe.each([
  ['soapui-tutorials/sample-service.wsdl'],
  ['bruno-fixtures/wsdl.xml'],
  ['node-soap/rpcexample.wsdl'],
  ['node-soap/default_namespace.wsdl'],
  ['node-soap/builtin_types.wsdl'],
])('%s against a soap server built from it', (rel) => {
  let server: Server;
  let origin = '';
  const calls: string[] = [];

  beforeAll(async () => {
    const text = await readFile(join(FIXTURES, rel), 'utf8');
    const def = await readWsdl({ location: rel, text }, async () => {
      throw new Error('no imports here');
    });
    const services: Record<string, Record<string, Record<string, (args: unknown) => unknown>>> = {};
    for (const service of def.services) {
      const ports: Record<string, Record<string, (args: unknown) => unknown>> = (services[service.name] = {});
      for (const port of service.ports) {
        const binding = def.bindings.find((b) => b.name === port.binding.local);
        const ops: Record<string, (args: unknown) => unknown> = (ports[port.name] = {});
        for (const op of binding?.operations ?? []) {
          ops[op.name] = () => {
            calls.push(`${port.name}/${op.name}`);
            return {};
          };
        }
      }
    }
    server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    soap.listen(server, { path: /.*/ as unknown as string, services, xml: text });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('every imported operation reaches its handler', async () => {
    const { project, requests } = await importWsdl(join(FIXTURES, rel));
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      const before = calls.length;
      const address = new URL(request.url || 'http://x/');
      const sent = { ...request, url: `${origin}${address.pathname}` };
      const exchange = await call('request.send', { project, request: sent });
      const text = new TextDecoder().decode(exchange.response.body.bytes);
      expect(calls.slice(before).map((c) => c.split('/')[1]), `${request.name}: ${exchange.response.status} ${text.slice(0, 300)}`).toEqual([request.soap!.operation]);
    }
  });
});
