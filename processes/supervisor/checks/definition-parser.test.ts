import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { hasCode } from '../../../protocol/errors.js';
import { repoRoot } from '../paths.js';
import { DefinitionParser, OFF_LOOP_CHARS } from './definition-parser.js';

// The built worker (the test run builds dist/ first).
const workerFile = join(repoRoot(), 'dist', 'definition-parse-worker.js');

/** A YAML OpenAPI document of about `chars` characters: many small schemas. */
function bigYaml(chars: number): string {
  const lines = ['openapi: 3.0.3', 'info: {title: Big, version: "1"}', 'paths: {}', 'components:', '  schemas:'];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const schema = [`    Thing${i}:`, '      type: object', '      properties:', `        id: {type: string, description: "the id of thing ${i}, read-only"}`, `        next: {$ref: '#/components/schemas/Thing${i + 1}'}`];
    lines.push(...schema);
    length += schema.join('\n').length + 1;
  }
  return lines.join('\n');
}

describe('reading a cached definition off the loop', () => {
  let parser: DefinitionParser | undefined;
  afterEach(async () => {
    await parser?.close();
  });

  it('parses a large YAML text on its thread, the same value, while the loop keeps turning', async () => {
    parser = new DefinitionParser({ workerFile });
    const text = bigYaml(2 * OFF_LOOP_CHARS);
    let turns = 0;
    const ticker = setInterval(() => turns++, 1);
    const value = await parser.parse(text, 'openapi.yaml');
    clearInterval(ticker);
    expect(value).toEqual(parseYaml(text));
    // Parsed in place, the loop could not have turned while `parse` ran.
    expect(turns).toBeGreaterThan(0);
  });

  it('names the file and what is wrong when a large YAML text does not parse', async () => {
    parser = new DefinitionParser({ workerFile });
    const text = `${bigYaml(OFF_LOOP_CHARS + 1000)}\n  bad: [unclosed\n`;
    const error = await parser.parse(text, 'apis/Big/definition/openapi.yaml').catch((err: unknown) => err);
    expect(hasCode(error, 'no-definition')).toBe(true);
    expect((error as Error).message).toMatch(/^The cached definition file apis\/Big\/definition\/openapi\.yaml does not parse: /);
  });

  it('gives a parse up past its budget, and reads the next one', async () => {
    parser = new DefinitionParser({ workerFile, budgetMs: 1 });
    const error = await parser.parse(bigYaml(8 * OFF_LOOP_CHARS), 'huge.yaml').catch((err: unknown) => err);
    expect(hasCode(error, 'no-definition')).toBe(true);
    expect((error as Error).message).toMatch(/huge\.yaml took longer than 0\.001 s to read and was given up/);
    await parser.close();
    parser = new DefinitionParser({ workerFile });
    await expect(parser.parse('openapi: 3.0.3\n', 'small.yaml')).resolves.toEqual({ openapi: '3.0.3' });
  });

  it('parses small texts and JSON in place', async () => {
    parser = new DefinitionParser({ workerFile: join(repoRoot(), 'dist', 'no-such-worker.js') });
    await expect(parser.parse('{"openapi":"3.1.0"}', 'openapi.json')).resolves.toEqual({ openapi: '3.1.0' });
    // No worker built (running from source): even a large text is read, in place.
    const text = bigYaml(OFF_LOOP_CHARS + 10);
    await expect(parser.parse(text, 'openapi.yaml')).resolves.toEqual(parseYaml(text));
  });
});
