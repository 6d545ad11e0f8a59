/**
 * Every fixture WSDL reads, and its operations per binding equal the `soap` package's describe()
 * of the same WSDL; every operation has an input and output sample that is well-formed XML.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as soap from 'soap';
import { describe, expect, test } from 'vitest';
import { listOperations, parseXml, readWsdl, sampleEnvelope, type WsdlReader } from './index.js';

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/wsdl');

/** Entry WSDLs: every .wsdl (and the bruno .xml) that is a wsdl:definitions document others do not only import. */
function entries(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) entries(path, out);
    else if (/\.wsdl$/.test(name) || name === 'wsdl.xml') out.push(path);
  }
  return out;
}

export const fileReader: WsdlReader = async (ref, base) => {
  const location = resolve(dirname(base), ref);
  return { location, text: readFileSync(location, 'utf8') };
};

/** Fixtures that are broken as published, with the problem each one is reported for. */
const KNOWN_DEFECTS = new Map<string, string[]>([
  // DummySave is bound but not in the port type (soap drops it too)
  ['node-soap/Dummy.wsdl', ['wsdl-operation-missing']],
  ['node-soap/xsdinclude/xsd_include.wsdl', ['wsdl-operation-missing']],
  // fault and header messages that no document defines
  ['node-soap/complex/registration-common.wsdl', ['wsdl-message-missing']],
  ['node-soap/complex/registration.wsdl', ['wsdl-message-missing']],
  ['node-soap/marketo.wsdl', ['wsdl-message-missing']],
]);

describe('WSDL fixtures', () => {
  const files = entries(FIXTURES);

  test('the fixture set is the representative one SOURCES.md lists', () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  test.each(files.map((f) => [f.slice(FIXTURES.length + 1), f]))('%s: operations per binding equal soap describe(), samples are XML', async (_name, file) => {
    const def = await readWsdl({ location: file, text: readFileSync(file, 'utf8') }, fileReader);
    const problems = def.problems.filter((p) => p.code !== 'wsdl-binding-not-soap').map((p) => p.code);
    expect(problems).toEqual(KNOWN_DEFECTS.get(file.slice(FIXTURES.length + 1)) ?? []);
    // A document that only other WSDLs import (no service) reads; its bindings are compared through its importer.
    if (def.services.length === 0) return;
    expect(def.bindings.length).toBeGreaterThan(0);
    const ours = new Map(listOperations(def).map((b) => [b.binding, [...new Set(b.operations)].sort()]));
    const client = await soap.createClientAsync(file);
    const described = client.describe() as Record<string, Record<string, Record<string, unknown>>>;
    let compared = 0;
    for (const [serviceName, ports] of Object.entries(described)) {
      for (const [portName, ops] of Object.entries(ports)) {
        const port = def.services.find((s) => s.name === serviceName)?.ports.find((p) => p.name === portName);
        expect(port, `${serviceName}/${portName}`).toBeDefined();
        if (!port?.soap) continue;
        expect(ours.get(port.binding.local)).toEqual(Object.keys(ops).sort());
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
    for (const binding of def.bindings) {
      for (const op of binding.operations) {
        for (const direction of ['input', 'output'] as const) {
          const xml = sampleEnvelope(def, binding, op, direction);
          const root = parseXml(xml, 'sample');
          expect(root.local).toBe('Envelope');
        }
      }
    }
  });
});
