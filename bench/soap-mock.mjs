// SOAP mock hosting, side by side in one run (issue 18's benchmark): one WSDL operation (GetPage of
// test/fixtures/wsdl/mock/test1, a schema split over two xsd:includes) answered by
//   - `parley mock serve` of a project's SOAP mock with the request check off,
//   - the same mock with the check on (`refuse`: envelope structure plus XSD validation by libxml2),
//   - the `soap` package's own server (soap.listen on node:http) answering the same operation from
//     the same WSDL with the same reply.
// Every client sends the same valid request envelope (POST, SOAPAction, text/xml). autocannon runs
// in its own process; the servers stay up side by side and are measured in interleaved rounds
// (off, on, soap, off, ...), the median of the rounds kept, so a change in the machine's load moves
// all of them rather than one ratio. Prints JSON lines, then the targets with "met" or "MISSED";
// asserts nothing.
// Targets: check on costs under 30% (on >= 70% of off); Parley's mock faster than the soap server.
// Usage: node bench/soap-mock.mjs [seconds=5] [connections=20] [rounds=3]   (run `npm run build` first)
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 20);
const rounds = Number(process.argv[4] ?? 3);
const requireFromRoot = createRequire(join(root, 'package.json'));
const soap = requireFromRoot('soap');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error('bench/soap-mock: build first (npm run build).');
  process.exit(2);
}

const work = await mkdtemp(join(tmpdir(), 'parley-bench-soap-'));
const env = { ...process.env, PARLEY_HOME: join(work, 'home') };
const fixture = join(root, 'test', 'fixtures', 'wsdl', 'mock', 'test1');
const wsdlFile = join(fixture, 'TestService.wsdl');
const TNS = 'http://schemas.eviware.com/TestService/v1/';
const requestBody =
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:v1="${TNS}"><soapenv:Header/><soapenv:Body>` +
  `<v1:GetPage><v1:pageLink><v1:ID>1</v1:ID><v1:WorkID>2</v1:WorkID><v1:RemoteSite>bench</v1:RemoteSite><v1:LoadRawPageData>true</v1:LoadRawPageData></v1:pageLink></v1:GetPage>` +
  `</soapenv:Body></soapenv:Envelope>`;
const headers = ['-H', 'Content-Type=text/xml; charset=utf-8', '-H', `SOAPAction="${TNS}GetPage"`];

function run(args) {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [cli, ...args], { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => (err ? reject(new Error(`${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout))),
  );
}

// --- a project with the WSDL imported and two mocks of its binding -------------------------------
const project = join(work, 'project');
await run(['import', wsdlFile, '--new-project', project]);
for (const [name, check] of [
  ['off', 'off'],
  ['on', 'refuse'],
]) {
  await run(['mock', 'new', project, '--api', 'TestServiceSoap', '--name', name]);
  const file = join(project, 'mocks', name, 'mock.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(/^contractCheck: .*$/m, `contractCheck: ${check}`));
}
// Both mocks and the soap server send the mock's Default reply of GetPage.
const replyXml = await readFile(join(project, 'mocks', 'off', 'operations', 'GetPage', 'Default.body.xml'), 'utf8');

function serveMock(name) {
  const child = spawn(process.execPath, [cli, 'mock', 'serve', project, '--mock', name, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock ${name} did not start:\n${out}`)), 30_000);
    child.stdout.on('data', () => {
      const m = /is serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `${m[1]}/` });
      }
    });
  });
}

// --- the soap package's own server, same WSDL, same reply -----------------------------------------
async function soapServer() {
  const server = http.createServer((req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  // node-soap answers with an object it serializes itself; the reply's body element, read back by a
  // soap client of the mock, gives the same content.
  const client = await soap.createClientAsync(wsdlFile);
  const [pageResult] = await new Promise((resolve, reject) => {
    const fake = http.createServer((req, res) => {
      res.setHeader('Content-Type', 'text/xml; charset=utf-8');
      res.end(replyXml);
    });
    fake.listen(0, '127.0.0.1', async () => {
      try {
        client.setEndpoint(`http://127.0.0.1:${fake.address().port}/`);
        resolve(await client.GetPageAsync({ pageLink: { ID: 1, WorkID: 2, LoadRawPageData: true } }));
      } catch (err) {
        reject(err);
      } finally {
        fake.close();
      }
    });
  });
  const service = { TestService: { TestServiceSoap: { GetPage: () => pageResult } } };
  soap.listen(server, { path: '/', services: service, xml: await readFile(wsdlFile, 'utf8'), uri: wsdlFile });
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

/**
 * CPU time (ms) of a process tree (the CLI and its mock-host child; the bench process itself for
 * the soap server, which runs in it, so that figure includes the bench's own small share). On a
 * shared machine whose load moves requests/s between rounds, CPU per request still says what a
 * request costs.
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux
async function cpuMs(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const children = await readFile(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').catch(() => '');
    pids.push(...children.split(' ').filter(Boolean).map(Number));
  }
  let ticks = 0;
  for (const p of pids) {
    const stat = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * TICK_MS;
}

function autocannon(url) {
  const bin = requireFromRoot.resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [bin, '--json', '-c', String(connections), '-d', String(seconds), '-m', 'POST', ...headers, '-b', requestBody, url], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout)),
    ),
  );
}

async function check(url, name) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${TNS}GetPage"` }, body: requestBody });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('GetPageResponse')) throw new Error(`${name} did not answer GetPage (${res.status}): ${text.slice(0, 300)}`);
}

const off = await serveMock('off');
const on = await serveMock('on');
const peer = await soapServer();
const servers = { 'parley check off': off.url, 'parley check on (XSD)': on.url, 'soap package server': peer.url };
const pids = { 'parley check off': off.child.pid, 'parley check on (XSD)': on.child.pid, 'soap package server': process.pid };
try {
  // soap.listen reads the WSDL before it attaches its handler: until then the server answers 404.
  for (const [name, url] of Object.entries(servers)) {
    for (let attempt = 1; ; attempt++) {
      try {
        await check(url, name);
        break;
      } catch (err) {
        if (attempt >= 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  const results = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, url] of Object.entries(servers)) {
      const before = await cpuMs(pids[name]);
      const r = await autocannon(url);
      const cpu = (await cpuMs(pids[name])) - before;
      results[name].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.errors + r.non2xx, cpuUs: (cpu * 1000) / (r.requests.total || 1) });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const summary = {};
  for (const [name, rs] of Object.entries(results)) {
    summary[name] = { 'req/s': Math.round(median(rs.map((r) => r.rps))), 'p50 ms': median(rs.map((r) => r.p50)), 'p99 ms': median(rs.map((r) => r.p99)), 'non-2xx+errors': rs.reduce((a, r) => a + r.bad, 0), 'CPU µs/request': Math.round(median(rs.map((r) => r.cpuUs))), rounds: rs.map((r) => Math.round(r.rps)) };
    console.log(JSON.stringify({ server: name, ...summary[name] }));
  }
  const rps = (k) => summary[k]['req/s'];
  const onOff = rps('parley check on (XSD)') / rps('parley check off');
  const vsSoapOn = rps('parley check on (XSD)') / rps('soap package server');
  const vsSoapOff = rps('parley check off') / rps('soap package server');
  console.log(JSON.stringify({ machine: { cpus: cpus().length, loadavg: loadavg().map((l) => Math.round(l * 100) / 100) }, seconds, connections, rounds }));
  const cpu = (k) => summary[k]['CPU µs/request'];
  console.log(`check on / check off: ${onOff.toFixed(2)} (target >= 0.70: ${onOff >= 0.7 ? 'met' : 'MISSED'}); CPU per request off/on: ${(cpu('parley check off') / cpu('parley check on (XSD)')).toFixed(2)}`);
  console.log(`parley check on / soap server: ${vsSoapOn.toFixed(2)} (target > 1: ${vsSoapOn > 1 ? 'met' : 'MISSED'}); CPU per request soap/on: ${(cpu('soap package server') / cpu('parley check on (XSD)')).toFixed(2)}`);
  console.log(`parley check off / soap server: ${vsSoapOff.toFixed(2)} (target > 1: ${vsSoapOff > 1 ? 'met' : 'MISSED'})`);
} finally {
  off.child.kill('SIGINT');
  on.child.kill('SIGINT');
  peer.server.close();
  await rm(work, { recursive: true, force: true }).catch(() => {});
}
