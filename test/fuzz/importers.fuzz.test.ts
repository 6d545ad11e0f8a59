/**
 * Fuzzing every importer (issue 26 item 16, RELIABILITY.md): real files damaged by fast-check
 * (cuts, inserted parser-breaking fragments, repeats, truncation, noise), imported the way the
 * importer child does. Each case either imports (and its answer passes the bus schema) or is
 * refused with a typed error; a library's TypeError or a crash fails the run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportResult } from '../../protocol/model/import.js';
import { checkAll } from '../../protocol/validate-node.js';
import { convertCurlCommand } from '../../processes/importer/engine/curl/convert-command.js';
import { importSource } from '../../processes/importer/engine/test-support.js';
import { FUZZ, expectTyped, mutated, fuzzTimeout } from './fuzz-support.js';

const fixture = (path: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', path), 'utf8');

/** One real file per importer, small enough for thousands of cases. */
const SEEDS: { format: string; name: string; text: string }[] = [
  { format: 'openapi', name: 'tictactoe.yaml', text: fixture('importers/openapi/learn-openapis/v3.1/tictactoe.yaml') },
  { format: 'openapi', name: 'uber.json', text: fixture('importers/openapi/learn-openapis/v2.0/json/uber.json') },
  { format: 'postman-collection', name: 'nestedEntities.json', text: fixture('importers/postman/v2.1/nestedEntities.json') },
  { format: 'postman-environment', name: 'vampi.postman_environment.json', text: fixture('importers/postman/environments/Vampi Secure.postman_environment.json') },
  { format: 'har', name: 'postdata.har', text: fixture('importers/har/postdata.har') },
  { format: 'wsdl', name: 'calc.wsdl', text: fixture('wsdl/parley/calc.wsdl') },
  { format: 'soapui', name: 'Sample-REST-Project-soapui-project.xml', text: fixture('soapui/soapui-installer/Tutorials/Sample-REST-Project-soapui-project.xml') },
];

const dir = mkdtempSync(join(tmpdir(), 'parley-fuzz-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe('importers under damaged input', () => {
  for (const seed of SEEDS) {
    it(`${seed.format} (${seed.name}): imports or refuses with a typed error`, async () => {
      // The undamaged file imports: the damage, not the seed, is what each case tests.
      const whole = join(dir, `seed-${seed.name}`);
      writeFileSync(whole, seed.text);
      await importSource({ kind: 'file', path: whole }, {}, { offline: true }, seed.format);
      await fc.assert(
        fc.asyncProperty(mutated(seed.text), fc.boolean(), async (text, auto) => {
          const path = join(dir, `${++files}-${seed.name}`);
          writeFileSync(path, text);
          try {
            const { result } = await importSource({ kind: 'file', path }, {}, { offline: true }, auto ? 'auto' : seed.format);
            expect(checkAll(ImportResult, result)).toEqual([]);
          } catch (err) {
            expectTyped(err, `the ${seed.format} import`);
          } finally {
            rmSync(path, { force: true });
          }
        }),
        FUZZ,
      );
    }, fuzzTimeout(600_000));
  }

  it('cURL commands: converts or refuses with a typed error', async () => {
    const seedCommand = `curl -X POST 'https://h.example/p?a=1&b' -H 'Accept: application/json' -H 'Authorization: Bearer t' -b 'sid=1' --data-urlencode 'x=y z' -F 'f=@-' -u user:pass --compressed -k`;
    await fc.assert(
      fc.asyncProperty(mutated(seedCommand), async (command) => {
        try {
          await convertCurlCommand(command, { id: 'r1' });
        } catch (err) {
          expectTyped(err, 'the cURL conversion');
        }
      }),
      FUZZ,
    );
  }, fuzzTimeout(600_000));
});
