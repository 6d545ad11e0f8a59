// What the Query tab's XPath over an XML body costs (processes/checker/engine/run-query.ts), as
// the checker's query thread runs it: the first query over a body (the scan, slimdom building the
// tree, fontoxpath), the next query over the same bytes (the tree kept by digest), next to the
// same data as JSON queried with XPath 3.1 maps and arrays in the same run. SOAP-like envelopes
// of 1, 4 and 10 MB (records of a few elements and an attribute each, as a list operation returns
// them). No DESIGN.md target: the figures say which body sizes fit the 3 s budget. Asserts nothing.
// Usage: node bench/xml-query.mjs [runs=3]
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleNode, cleanup, machine, median, ms } from './fixtures/harness.mjs';

const runs = Number(process.argv[2] ?? 3);
// Beside the repository's node_modules: the engines are loaded with require() from the bundle's own place.
const work = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results', `bench-xml-query-${process.pid}`);
await mkdir(work, { recursive: true });
try {
  const files = await bundleNode({ 'run-query': 'processes/checker/engine/run-query.ts' }, work);
  const { runQuery } = await import(pathToFileURL(files['run-query']).href);
  console.log(machine());

  /** An envelope of `n` records and the same records as JSON. */
  const bodies = (n) => {
    const records = [];
    const json = [];
    for (let i = 0; i < n; i++) {
      records.push(`<m:Store id="${i}"><m:Name>Store ${i}</m:Name><m:City>City ${i % 97}</m:City><m:Open>${i % 2 === 0}</m:Open></m:Store>`);
      json.push({ id: i, name: `Store ${i}`, city: `City ${i % 97}`, open: i % 2 === 0 });
    }
    const xml = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><m:ListStoresResponse xmlns:m="urn:stores">${records.join('')}</m:ListStoresResponse></soapenv:Body></soapenv:Envelope>`;
    return { xml: new TextEncoder().encode(xml), json: new TextEncoder().encode(JSON.stringify({ stores: json })) };
  };

  const time = (job) => {
    const started = performance.now();
    const outcome = runQuery(job);
    const took = performance.now() - started;
    if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
    return took;
  };

  for (const mb of [1, 4, 10]) {
    // About 105 bytes a record.
    const { xml, json } = bodies(Math.round((mb * 1024 * 1024) / 105));
    const first = [];
    const next = [];
    const overJson = [];
    for (let r = 0; r < runs; r++) {
      // A body whose bytes differ in one digit, so the first query of each run builds its tree.
      const fresh = xml.slice();
      fresh[xml.indexOf(0x30)] = 0x31 + r;
      first.push(time({ language: 'xpath', expression: 'count(//m:Store[m:Open = "true"])', source: { kind: 'body', bytes: fresh, syntax: 'xml' } }));
      next.push(time({ language: 'xpath', expression: '//m:Store[@id = "4242"]/m:Name/string()', source: { kind: 'body', bytes: fresh, syntax: 'xml' } }));
      overJson.push(time({ language: 'xpath', expression: 'count(?stores?*[?open])', source: { kind: 'body', bytes: json } }));
    }
    console.log(
      `${(xml.length / 1024 / 1024).toFixed(1)} MB XML: first query ${ms(median(first), 0)} (tree built), next query ${ms(median(next), 0)} (tree kept); ` +
        `the same as ${(json.length / 1024 / 1024).toFixed(1)} MB JSON: ${ms(median(overJson), 0)}; medians of ${runs}`,
    );
  }
} finally {
  await cleanup(work);
}
