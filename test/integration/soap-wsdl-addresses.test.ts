/**
 * `?wsdl` of a SOAP mock in every namespace style the corpus WSDLs are written in: the WSDL
 * namespace as the default one (`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">`), a
 * `wsdl:` prefix with the target namespace as the default, SOAP 1.2 addresses under a `SOAP:`
 * prefix, a `wsdlsoap:` prefix, several ports (soap, soap12, http) and several services. Each is
 * imported by `parley import`, mocked by `parley mock new` and hosted by `parley mock serve`; the
 * served document must parse strictly (one `location` on every address, the mock's), and a real
 * SOAP client (the `soap` package) built from it must call the mock, not the WSDL's own host, and
 * get the mock's answer. Fixtures: test/fixtures/wsdl (SOURCES.md). dist/ must be built first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XmlDocument, type XmlElement } from 'libxml2-wasm';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { finished, type Run } from '../support/processes.js';
import { until } from '../support/until.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const fixture = (path: string) => join(root, 'test', 'fixtures', 'wsdl', path);

interface Case {
  style: string;
  file: string;
  /** The API (binding) the mock is made of. */
  api: string;
  /** How the client calls its operation: service, port, operation, arguments. */
  call: [service: string, port: string, operation: string, args: Record<string, unknown>];
  /** The address the WSDL itself gives, where the client must not be sent. */
  original: string;
}

const CASES: Case[] = [
  {
    style: 'WSDL namespace as the default namespace, soap: address (rpc/encoded)',
    file: 'node-soap/hello.wsdl',
    api: 'Hello_Binding',
    call: ['Hello_Service', 'Hello_Port', 'sayHello', { firstName: 'Ada' }],
    original: 'http://localhost:51515/SayHello/',
  },
  {
    style: 'wsdl: prefix with the target namespace as the default namespace',
    file: 'node-soap/default_namespace.wsdl',
    api: 'MyServiceBinding',
    call: ['MyService', 'MyServicePort', 'MyOperation', {}],
    original: 'http://www.example.com/v1',
  },
  {
    style: 'default WSDL namespace, SOAP 1.2 address under a SOAP: prefix',
    file: 'node-soap-samples/execFile__valid_xml_generated_on_request_with_complex_type_element_form_default_qualified/soap.wsdl',
    api: 'FileExecutorBinding',
    call: ['FileExecutorService', 'FileExecutorPortType', 'execFile', { request: { fileName: 'a.txt' } }],
    original: 'http://127.0.0.1/',
  },
  {
    style: 'wsdl: prefix, six ports (soap, soap12, http) in one service',
    file: 'node-soap-samples/getAppointmentNumber__should_be_able_to_parse_response/soap.wsdl',
    api: 'appointmentLocalSOAP11Binding',
    call: ['appointmentLocal', 'SOAP11Endpoint', 'getAppointmentNumber', {}],
    original: 'http://localhost:8080/',
  },
  {
    style: 'default WSDL namespace, two services with three ports (the second service mocked)',
    file: 'node-soap/multi-service.wsdl',
    api: 'Bye_Binding',
    call: ['Bye_Service', 'Bye_Port', 'sayBye', { firstName: 'Ada' }],
    original: 'http://localhost:8001/SayBye/',
  },
  {
    style: 'wsdl: prefix, address under a wsdlsoap: prefix (rpc/encoded)',
    file: 'node-soap/strict/EVacSyncService_SPClient.wsdl',
    api: 'SyncNotifySPSoapBinding',
    call: ['ESyncNotifySPServiceService', 'ESyncNotifySP', 'eOrderRelationUpdateNotify', {}],
    original: 'http://localhost:8007/services/ESyncNotifySP',
  },
];

const ADDRESS_NAMESPACES = ['http://schemas.xmlsoap.org/wsdl/soap/', 'http://schemas.xmlsoap.org/wsdl/soap12/', 'http://schemas.xmlsoap.org/wsdl/http/'];

let home = '';
const started: Array<{ child: ChildProcessWithoutNullStreams; exited: Promise<number | null> }> = [];
const env = () => ({ ...process.env, PARLEY_HOME: join(home, 'data') });
const parley = (args: string[]): Promise<Run> => finished(spawn(process.execPath, [cli, ...args], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] }));

async function serve(project: string, mock: string): Promise<{ url: string; child: ChildProcessWithoutNullStreams; exited: Promise<number | null>; out: () => string }> {
  const child = spawn(process.execPath, [cli, 'mock', 'serve', project, '--mock', mock, '--port', '0'], { cwd: root, env: env(), stdio: 'pipe' });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  started.push({ child, exited });
  const url = await until(() => /is serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 30_000, () => `no URL printed; output so far:\n${out}`);
  return { url, child, exited, out: () => out };
}

/** Every address element (soap, soap12, http) of the served document, found by namespace, not prefix. */
function addresses(doc: XmlDocument): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (element: XmlElement): void => {
    if (element.name === 'address' && ADDRESS_NAMESPACES.includes(element.namespaceUri ?? '')) found.push(element);
    for (const child of element.find('*')) walk(child as XmlElement);
  };
  walk(doc.root);
  return found;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-soap-wsdl-'));
});

afterAll(async () => {
  for (const s of started.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await s.exited;
  }
  if (home) await rm(home, { recursive: true, force: true });
});

describe('?wsdl in every namespace style of the corpus', () => {
  it.each(CASES.map((c, i) => [c.style, c, i] as const))('%s: well-formed, one location per address, and a soap client calls the mock', async (_style, c, i) => {
    // A project each: two of the WSDLs name their bindings alike.
    const project = join(home, `project-${i}`);
    const imported = await parley(['import', fixture(c.file), '--new-project', project]);
    expect(imported.code, imported.stderr + imported.stdout).toBe(0);
    const made = await parley(['mock', 'new', project, '--api', c.api, '--name', 'm']);
    expect(made.code, made.stderr + made.stdout).toBe(0);
    const s = await serve(project, 'm');
    const mockUrl = `${s.url}/`;

    const served = await fetch(`${mockUrl}?wsdl`);
    expect(served.status).toBe(200);
    const text = await served.text();
    // Strict parse: a second `location` on one element is a fatal error ("Attribute location redefined").
    const doc = XmlDocument.fromString(text);
    try {
      const found = addresses(doc);
      expect(found.length).toBeGreaterThan(0);
      for (const address of found) {
        expect(address.attrs.map((a) => a.name)).toEqual(['location']);
        expect(address.attr('location')?.value).toBe(mockUrl);
      }
    } finally {
      doc.dispose();
    }
    expect(text).not.toContain(`location="${c.original}"`);
    // Imported and included documents are the mock's to serve too.
    for (const [, location] of text.matchAll(/<(?:[\w-]+:)?(?:import|include|redefine)\b[^>]*?\b(?:schemaL|l)ocation="([^"]*)"/g)) expect(location).toMatch(new RegExp(`^${mockUrl}\\?wsdl=`));

    const client = await soap.createClientAsync(`${mockUrl}?wsdl`);
    const [service, port, operation, args] = c.call;
    const method = (client as unknown as Record<string, Record<string, Record<string, (a: unknown, cb: (err: unknown, result: unknown, raw: string) => void) => void>>>)[service]![port]![operation]!;
    const raw = await new Promise<string>((resolve, reject) => method(args, (err, _result, rawResponse) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(rawResponse))));
    expect(client.lastEndpoint).toBe(mockUrl);
    expect(raw).toMatch(/Envelope/);
    // The mock's console log: the call was the mock's to answer, with the operation's Default.
    await until(() => new RegExp(`POST / +→ 200 +${operation} › Default`).test(s.out()), 10_000, () => `no log line for ${operation}; output:\n${s.out()}`);

    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  }, 90_000);
});
