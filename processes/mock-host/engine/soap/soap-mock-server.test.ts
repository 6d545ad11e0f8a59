import { afterEach, describe, expect, it } from 'vitest';
import type { Mock, MockLogEntry } from '../../../../protocol/model/mock.js';
import { MockServer } from '../mock-server.js';
import { send } from '../test-support/mocks.js';
import { newSoapMockFromDocuments } from './new-soap-mock.js';
import type { WsdlDocument } from '../../../../protocol/model/verdict.js';
import { loadSoapContract } from './soap-contract-from-wsdl.js';
import { SoapContractCheck } from './soap-checker.js';
import { soapRouting } from './soap-endpoint.js';
import { findSoapStubProblems } from './soap-findings.js';
import { envelope11, envelope12, fixtureDocuments, TEST_NS } from '../test-support/soap-fixtures.js';

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

let ids = 0;
const newId = () => `s${++ids}`;

/** A fixture folder's WSDL documents as a SOAP mock is handed them, `entry` first. */
function documents(folder: string, entry: string): { wsdl: WsdlDocument[] } {
  const texts = [...fixtureDocuments(folder)].map(([path, text]) => ({ path, text }));
  return { wsdl: [...texts.filter((d) => d.path === entry), ...texts.filter((d) => d.path !== entry)] };
}

async function start(docs: { wsdl: WsdlDocument[] }, edit: (mock: Mock) => void = () => {}, binding?: string, maxBodyBytes?: number) {
  const mock = await newSoapMockFromDocuments(docs, { name: 'soap', api: 'api-soap', newId, ...(binding ? { binding } : {}) });
  edit(mock);
  const soap = await loadSoapContract(docs.wsdl, mock.binding);
  const logs: MockLogEntry[] = [];
  const server = new MockServer({ mock, soap: soapRouting(soap), checker: new SoapContractCheck(soap).contractChecker(), onLog: (e) => logs.push(e), ...(maxBodyBytes ? { maxBodyBytes } : {}) });
  running.push(server);
  const { port } = await server.start();
  return { mock, port, logs, server };
}

const GET_PAGE = `<v1:GetPage><v1:pageLink><v1:ID>1</v1:ID><v1:WorkID>2</v1:WorkID><v1:LoadRawPageData>true</v1:LoadRawPageData></v1:pageLink></v1:GetPage>`;
const post = (port: number, body: string, headers: Record<string, string> = { 'Content-Type': 'text/xml; charset=utf-8' }, path = '/') => send(port, { method: 'POST', path, headers, body });

describe('New Mock of a SOAP interface', () => {
  it('has one operation per binding operation, each Default a sample of its output, sent with 200; one-way gets 202 and no body', async () => {
    const mock = await newSoapMockFromDocuments(documents('testonewayop', 'TestService.wsdl'), { name: 'm', api: 'a', newId });
    expect(mock).toMatchObject({ kind: 'soap', binding: 'TestServiceSoap', path: '/', contractCheck: 'log' });
    expect(mock.operations.map((o) => [o.name, o.method, o.path, o.operationId])).toEqual([
      ['GetDefaultPageData', 'POST', '/', 'GetDefaultPageData'],
      ['GetPage', 'POST', '/', 'GetPage'],
    ]);
    const [oneWay, reply] = mock.operations.map((o) => o.responses[0]!);
    expect(oneWay).toMatchObject({ name: 'Default', status: 202, body: { kind: 'none' } });
    expect(reply).toMatchObject({ name: 'Default', status: 200, headers: [{ name: 'Content-Type', value: 'text/xml; charset=utf-8' }], body: { kind: 'xml' } });
    expect(reply!.body.text).toContain('GetPageResponse');
  });

  it('of one binding of a WSDL with several: SOAP 1.2 Content-Type and envelope', async () => {
    const mock = await newSoapMockFromDocuments(documents('addPets', 'soap.wsdl'), { name: 'm', api: 'a', newId, binding: 'Service1Soap12' });
    expect(mock.binding).toBe('Service1Soap12');
    const reply = mock.operations[0]!.responses[0]!;
    expect(reply.headers).toEqual([{ name: 'Content-Type', value: 'application/soap+xml; charset=utf-8' }]);
    expect(reply.body.text).toContain('http://www.w3.org/2003/05/soap-envelope');
  });

  it('its default responses pass the stub checks', async () => {
    const docs = documents('test1', 'TestService.wsdl');
    const mock = await newSoapMockFromDocuments(docs, { name: 'm', api: 'a', newId });
    const check = new SoapContractCheck(await loadSoapContract(docs.wsdl, mock.binding));
    expect(findSoapStubProblems(mock, check)).toEqual([]);
  });
});

describe('a running SOAP mock', () => {
  it('serves ?wsdl with every address rewritten to the mock, and the included schemas under it', async () => {
    const { port } = await start(documents('test1', 'TestService.wsdl'), (m) => (m.path = '/svc'));
    const wsdl = await send(port, { path: '/svc?wsdl' });
    expect(wsdl.status).toBe(200);
    expect(wsdl.headers['content-type']).toMatch(/^text\/xml/);
    expect(wsdl.text).toContain(`location="http://127.0.0.1:${port}/svc"`);
    expect(wsdl.text).not.toContain('www.eviware.com/webservices');
    expect(wsdl.text).toContain(`schemaLocation="http://127.0.0.1:${port}/svc?wsdl=testservice1.xsd"`);
    const xsd = await send(port, { path: '/svc?wsdl=testservice1.xsd' });
    expect(xsd.text).toContain(`schemaLocation="http://127.0.0.1:${port}/svc?wsdl=testservice2.xsd"`);
    expect((await send(port, { path: '/svc?wsdl=..%2F..%2Fetc%2Fpasswd' })).status).toBe(404);
  });

  it('routes by SOAPAction, then by the Body element, and answers the Default reply', async () => {
    const { port, logs } = await start(documents('test1', 'TestService.wsdl'));
    const byAction = await post(port, envelope11(GET_PAGE), { 'Content-Type': 'text/xml', SOAPAction: `"${TEST_NS}GetPage"` });
    expect(byAction.status).toBe(200);
    expect(byAction.text).toContain('GetPageResponse');
    const byElement = await post(port, envelope11('<v1:Ping/>'));
    expect(byElement.text).toContain('PingResponse');
    expect(logs.map((l) => [l.operation, l.status, l.problems])).toEqual([
      ['GetPage', 200, []],
      ['Ping', 200, []],
    ]);
  });

  it('answers a SOAP fault when no operation matches', async () => {
    const { port } = await start(documents('test1', 'TestService.wsdl'));
    const answer = await post(port, envelope11('<v1:Nothing/>'));
    expect(answer.status).toBe(500);
    expect(answer.text).toContain('<faultcode>soap:Client</faultcode>');
    expect(answer.text).toContain('mock-no-route');
  });

  it("answers its own errors as SOAP faults, not JSON: a body over the limit, an operation with no response, a dispatch script that fails", async () => {
    const { port } = await start(
      documents('test1', 'TestService.wsdl'),
      (m) => {
        const ping = m.operations.find((op) => op.name === 'Ping')!;
        ping.responses = [];
        const getPage = m.operations.find((op) => op.name === 'GetPage')!;
        getPage.dispatch = 'script';
        getPage.script = 'export default function dispatch() { throw new Error("no"); }';
      },
      undefined,
      4096,
    );
    const tooLarge = await post(port, envelope11(`<v1:Ping>${'x'.repeat(5000)}</v1:Ping>`), { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}Ping` });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers['content-type']).toMatch(/^text\/xml/);
    expect(tooLarge.text).toContain('<faultcode>soap:Client</faultcode>');
    expect(tooLarge.text).toContain('<p:code>mock-body-too-large</p:code>');
    const none = await post(port, envelope11('<v1:Ping/>'), { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}Ping` });
    expect(none.status).toBe(500);
    expect(none.text).toContain('<faultcode>soap:Server</faultcode>');
    expect(none.text).toContain('<p:code>mock-no-response</p:code>');
    const script = await post(port, envelope11(GET_PAGE), { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}GetPage` });
    expect(script.status).toBe(500);
    expect(script.text).toContain('<faultcode>soap:Server</faultcode>');
    expect(script.text).toContain('<p:code>mock-script-failed</p:code>');
  });

  it('refuse mode answers a broken request with a SOAP fault naming the XSD problem', async () => {
    const { port, logs } = await start(documents('test1', 'TestService.wsdl'), (m) => (m.contractCheck = 'refuse'));
    const broken = await post(port, envelope11('<v1:GetPage><v1:pageLink><v1:ID>one</v1:ID></v1:pageLink></v1:GetPage>'), { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}GetPage` });
    expect(broken.status).toBe(500);
    expect(broken.text).toContain('<faultcode>soap:Client</faultcode>');
    expect(broken.text).toContain('mock-contract-refused');
    expect(broken.text).toMatch(/ID.*not a valid value/);
    expect(logs[0]!.problems.length).toBeGreaterThan(0);
    const fine = await post(port, envelope11(GET_PAGE), { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}GetPage` });
    expect(fine.status).toBe(200);
  });

  it('rpc/literal: the parts inside the wrapper are checked against their types; rpc/encoded gets the envelope checks only', async () => {
    const CALC = 'urn:parley:calc';
    const { port, logs } = await start(documents('rpc', 'calc-rpc.wsdl'), (m) => (m.contractCheck = 'refuse'));
    const rpc = (op: string, parts: string) => post(port, envelope11(`<c:${op} xmlns:c="${CALC}">${parts}</c:${op}>`), { 'Content-Type': 'text/xml', SOAPAction: `${CALC}#${op}` });
    expect((await rpc('Multiply', '<x>6</x><y>7</y>')).status).toBe(200);
    const notInt = await rpc('Multiply', '<x>six</x><y>7</y>');
    expect(notInt.status).toBe(500);
    expect(notInt.text).toContain('mock-contract-refused');
    expect(notInt.text).toMatch(/x.*not a valid value.*int/);
    const missing = await rpc('Multiply', '<x>6</x>');
    expect(missing.status).toBe(500);
    expect(missing.text).toMatch(/Missing child element.*y/);
    // A part typed by the definition's own schema (another namespace) is checked by that type.
    expect((await rpc('Round', '<value>2.5</value><mode>up</mode>')).status).toBe(200);
    const badMode = await rpc('Round', '<value>2.5</value><mode>sideways</mode>');
    expect(badMode.status).toBe(500);
    expect(badMode.text).toMatch(/mode.*not an element of the set/);
    // rpc/encoded: soapenc:Array is in no schema the definition carries.
    expect((await rpc('Sum', '<values>anything</values>')).status).toBe(200);
    expect(logs.at(-1)!.problems).toEqual([]);
    const check = new SoapContractCheck(await loadSoapContract(documents('rpc', 'calc-rpc.wsdl').wsdl, undefined));
    const stub = check.checkMessage(check.operation({ name: 'Multiply' } as never)!, { contentType: 'text/xml', body: envelope11(`<c:MultiplyResponse xmlns:c="${CALC}"><product>x</product></c:MultiplyResponse>`) }, 'output');
    expect(stub.problems.map((p) => p.message).join('\n')).toMatch(/product.*not a valid value/);
  });

  it('log mode dispatches a broken request and logs its problems (wrong Content-Type, wrong version)', async () => {
    const { port, logs } = await start(documents('test1', 'TestService.wsdl'));
    const answer = await post(port, envelope12('<v1:Ping/>'), { 'Content-Type': 'application/soap+xml', SOAPAction: `${TEST_NS}Ping` });
    expect(answer.status).toBe(200);
    const messages = logs[0]!.problems.map((p) => p.message).join('\n');
    expect(messages).toMatch(/does not fit SOAP 1.1/);
    expect(messages).toMatch(/SOAP 1.2, but the binding is SOAP 1.1/);
  });

  it('a hostile request (XXE, billion laughs) is a clear problem and the mock keeps answering', async () => {
    const { port, logs } = await start(documents('test1', 'TestService.wsdl'), (m) => (m.contractCheck = 'refuse'));
    const xxe = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>${envelope11('<v1:Ping>&x;</v1:Ping>')}`;
    const refused = await post(port, xxe, { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}Ping` });
    expect(refused.status).toBe(500);
    expect(refused.text).toMatch(/document type declaration/);
    expect(refused.text).not.toMatch(/root:x:0/);
    const laughs = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>${envelope11('<v1:Ping>&h;</v1:Ping>')}`;
    expect((await post(port, laughs, { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}Ping` })).status).toBe(500);
    const deep = envelope11(`<v1:Ping>${'<x>'.repeat(3000)}${'</x>'.repeat(3000)}</v1:Ping>`);
    expect((await post(port, deep, { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}Ping` })).status).toBe(500);
    expect((await post(port, envelope11('<v1:Ping/>'), { 'Content-Type': 'text/xml' })).status).toBe(200);
    expect(logs).toHaveLength(4);
  });

  it('XPath match conditions read the SOAP body, and templates escape values for XML', async () => {
    const { port } = await start(documents('test1', 'TestService.wsdl'), (m) => {
      const op = m.operations.find((o) => o.name === 'GetPage')!;
      op.dispatch = 'match';
      const base = op.responses[0]!;
      op.responses.unshift({
        ...base,
        id: 'special',
        name: 'Special',
        match: [{ source: { from: 'body', language: 'xpath', expression: '//*:pageLink/*:ID' }, check: 'equals', value: '7' }],
        values: { site: { from: 'body', language: 'xpath', expression: '//*:RemoteSite' } },
        body: { kind: 'xml', text: envelope11('<v1:GetPageResponse><v1:GetPageResult><v1:Property>{{site}}</v1:Property></v1:GetPageResult></v1:GetPageResponse>') },
      });
    });
    const ask = (id: string) =>
      post(port, envelope11(`<v1:GetPage><v1:pageLink><v1:ID>${id}</v1:ID><v1:WorkID>2</v1:WorkID><v1:RemoteSite>&lt;a&amp;b&gt;</v1:RemoteSite><v1:LoadRawPageData>true</v1:LoadRawPageData></v1:pageLink></v1:GetPage>`), { 'Content-Type': 'text/xml', SOAPAction: `${TEST_NS}GetPage` });
    const special = await ask('7');
    expect(special.text).toContain('<v1:Property>&lt;a&amp;b&gt;</v1:Property>');
    const other = await ask('8');
    expect(other.text).not.toContain('<v1:Property>');
  });

  it('SOAP 1.2: routes by the Content-Type action, answers in 1.2, refuses a 1.1 envelope with a 400 Sender fault, and says the XSD check gave up when the schema does not compile', async () => {
    const { port, logs } = await start(documents('addPets', 'soap.wsdl'), (m) => (m.contractCheck = 'refuse'), 'Service1Soap12');
    const body12 = '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:t="http://tempuri.org/"><env:Body><t:addPets/></env:Body></env:Envelope>';
    const ok = await post(port, body12, { 'Content-Type': 'application/soap+xml; charset=utf-8; action="http://tempuri.org/addPets"' });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(ok.text).toContain('http://www.w3.org/2003/05/soap-envelope');
    expect(logs[0]!.notes.join()).toMatch(/gave up .*do not compile/);
    const wrong = await post(port, '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="http://tempuri.org/"><s:Body><t:addPets/></s:Body></s:Envelope>', {
      'Content-Type': 'text/xml',
      SOAPAction: 'http://tempuri.org/addPets',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('<env:Value>env:Sender</env:Value>');
    expect(wrong.text).toMatch(/does not fit SOAP 1.2/);
  });
});
