/**
 * A WSDL at the edge of what the importer accepts, in the worst shapes (issue 26 item 8): 10 MiB
 * whose bulk is one text node, one attribute value, text 250 levels deep, a million elements, a
 * thousand elements of a thousand attributes each, or two imported schemas that together reach
 * the definition's limit. Each is imported through the supervisor and a real importer child, with
 * the heap the supervisor gives it for its size: it is imported, or refused with the documented
 * size error (`wsdl-too-large`), never out of memory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import { DEFAULT_XML_LIMITS } from '../../protocol/wsdl/xml.js';

const MAX_CHARS = DEFAULT_XML_LIMITS.maxChars;
const MAX_NODES = DEFAULT_XML_LIMITS.maxNodes;
const MAX_ATTRIBUTES = DEFAULT_XML_LIMITS.maxAttributes;

const secrets: SecretStore = { get: async () => null, set: async () => {}, delete: async () => {}, unavailableReason: async () => null };

let sup: Supervisor;
let work: string;
let projects = 0;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-wsdl-limits-'));
  sup = await Supervisor.start({ dataDir: join(work, 'data'), secrets, services: false, log: () => {} });
}, 30_000);

afterAll(async () => {
  await sup?.shutdown();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A WSDL of one operation with `extra` inside its schema (where a real one has its annotations). */
function wsdl(extra: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions name="W" targetNamespace="urn:w" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:w">
  <wsdl:types><xsd:schema targetNamespace="urn:w" elementFormDefault="qualified">${extra}
    <xsd:element name="Op"><xsd:complexType><xsd:sequence><xsd:element name="a" type="xsd:string"/></xsd:sequence></xsd:complexType></xsd:element>
  </xsd:schema></wsdl:types>
  <wsdl:message name="In"><wsdl:part name="parameters" element="tns:Op"/></wsdl:message>
  <wsdl:portType name="P"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:In"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="Edge" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Op"><soap:operation soapAction="urn:w#Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="Port" binding="tns:Edge"><soap:address location="http://127.0.0.1:9/w"/></wsdl:port></wsdl:service>
</wsdl:definitions>
`;
}

/** `make(n)` with `n` chosen so the document is exactly `chars` long (`make` grows by one character per unit of `n`). */
function sized(chars: number, make: (n: number) => string): string {
  const text = make(chars - make(0).length);
  expect(text.length).toBe(chars);
  return text;
}

const annotation = (inside: string) => `<xsd:annotation><xsd:appinfo>${inside}</xsd:appinfo></xsd:annotation>`;
/** `count` empty elements `<a/>`: with the rest of the document's, just under the node limit. */
const elements = (count: number) => '<a/>'.repeat(count);
/** One element of `count` attributes. */
const wide = (count: number) => `<w${Array.from({ length: count }, (_, i) => ` a${i.toString(36).padStart(4, '0')}=""`).join('')}/>`;

/** Every element and attribute of the document but those `extra` adds (the edge shapes take the limit less these). */
const BASE_NODES = 60;

async function importFile(files: Record<string, string>, entry: string) {
  const dir = await mkdtemp(join(work, 'doc-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return sup.imports.run(
    { source: { kind: 'file', path: join(dir, entry) }, format: 'auto', options: {}, into: { kind: 'new', path: join(work, `p${++projects}`) } },
    { signal: new AbortController().signal, chunk: () => {} },
  );
}

describe('a WSDL at the edge of the limits, in the worst shapes', () => {
  const accepted: [string, () => Record<string, string>][] = [
    ['10 MiB whose bulk is one text node', () => ({ 'e.wsdl': sized(MAX_CHARS, (n) => wsdl(`<xsd:annotation><xsd:documentation>${'x'.repeat(n)}</xsd:documentation></xsd:annotation>`)) })],
    ['10 MiB whose bulk is one attribute value', () => ({ 'e.wsdl': sized(MAX_CHARS, (n) => wsdl(annotation(`<a v="${'x'.repeat(n)}"/>`))) })],
    ['10 MiB of text 250 elements deep', () => ({ 'e.wsdl': sized(MAX_CHARS, (n) => wsdl(annotation(`${'<d>'.repeat(250)}${'x'.repeat(n)}${'</d>'.repeat(250)}`))) })],
    ['10 MiB with just under a million elements', () => ({ 'e.wsdl': sized(MAX_CHARS, (n) => wsdl(annotation(`${elements(MAX_NODES - BASE_NODES - 2)}<t>${'x'.repeat(n)}</t>`))) })],
    [
      '10 MiB of elements with the most attributes each, just under a million in all',
      () => ({ 'e.wsdl': sized(MAX_CHARS, (n) => wsdl(annotation(`${wide(MAX_ATTRIBUTES).repeat(Math.floor((MAX_NODES - BASE_NODES) / (MAX_ATTRIBUTES + 1)) - 2)}<t>${'x'.repeat(n)}</t>`))) }),
    ],
    [
      'two imported schemas of 10 MiB that together are just under the definition’s million elements',
      () => {
        const schema = (i: number) => (n: number) =>
          `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x${i}">${annotation(`${elements(MAX_NODES / 2 - BASE_NODES)}<t>${'x'.repeat(n)}</t>`)}</xsd:schema>`;
        const imports = '<xsd:import namespace="urn:x0" schemaLocation="x0.xsd"/><xsd:import namespace="urn:x1" schemaLocation="x1.xsd"/>';
        return { 'e.wsdl': wsdl(imports), 'x0.xsd': sized(MAX_CHARS, schema(0)), 'x1.xsd': sized(MAX_CHARS, schema(1)) };
      },
    ],
  ];
  for (const [shape, files] of accepted) {
    it(`is imported: ${shape}`, async () => {
      const answer = await importFile(files(), 'e.wsdl');
      expect(answer.apis.map((a) => [a.name, a.requests])).toEqual([['Edge', 1]]);
    }, 240_000);
  }

  const refused: [string, () => Record<string, string>, RegExp][] = [
    ['one character over 10 MiB', () => ({ 'e.wsdl': sized(MAX_CHARS + 1, (n) => wsdl(`<xsd:annotation><xsd:documentation>${'x'.repeat(n)}</xsd:documentation></xsd:annotation>`)) }), /over the limit of 10,485,760/],
    ['10 MiB of empty elements (2.6 million)', () => ({ 'e.wsdl': sized(MAX_CHARS, (n) => wsdl(annotation(`${elements(Math.floor(n / 4))}${'x'.repeat(n % 4)}`))) }), /more than 1,000,000 elements and attributes/],
    ['an element of more attributes than the most', () => ({ 'e.wsdl': wsdl(annotation(wide(MAX_ATTRIBUTES + 1))) }), /more than 1,000 attributes/],
    [
      'imported schemas over the definition’s million elements together',
      () => {
        const schema = (i: number) => `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x${i}">${annotation(elements(MAX_NODES / 2 + 10))}</xsd:schema>`;
        const imports = '<xsd:import namespace="urn:x0" schemaLocation="x0.xsd"/><xsd:import namespace="urn:x1" schemaLocation="x1.xsd"/>';
        return { 'e.wsdl': wsdl(imports), 'x0.xsd': schema(0), 'x1.xsd': schema(1) };
      },
      /with the documents read before it, has more than/,
    ],
  ];
  for (const [shape, files, message] of refused) {
    it(`is refused as too large, never out of memory: ${shape}`, async () => {
      await expect(importFile(files(), 'e.wsdl')).rejects.toMatchObject({ code: 'wsdl-too-large', message: expect.stringMatching(message) });
    }, 240_000);
  }
});
