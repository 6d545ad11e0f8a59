import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../../protocol/errors.js';
import { repoRoot } from '../../../supervisor/paths.js';
import { parseText } from './parse-text.js';

/** Every YAML definition among the importer's fixtures (real documents from the corpus). */
function fixtureYaml(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) out.push(path);
    }
  };
  walk(join(repoRoot(), 'test/fixtures/importers/openapi'));
  return out;
}

describe('reading a big YAML definition by the value-only fast path', () => {
  const files = fixtureYaml();

  it('reads every fixture definition to the same value, and finds the same lines, as the document path does', () => {
    let fast = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      let slow: ReturnType<typeof parseText>;
      try {
        slow = parseText(text, file, { fastYamlFrom: Infinity });
      } catch {
        continue; // a fixture that is meant not to parse
      }
      const quick = parseText(text, file, { fastYamlFrom: 0 });
      expect(quick.value, file).toStrictEqual(slow.value);
      for (const pointer of ['/info', '/paths', '/components/schemas', '/openapi']) expect(quick.locate(pointer), `${file} ${pointer}`).toBe(slow.locate(pointer));
      if (text.includes("'#/")) fast++;
    }
    // Not vacuous: many fixtures quote their references, which the project-file fast path leaves to yaml.
    expect(files.length).toBeGreaterThan(20);
    expect(fast).toBeGreaterThan(5);
  });

  it('still names the line of a YAML error, and still merges merge keys', () => {
    let error: unknown;
    try {
      parseText('openapi: 3.0.3\npaths:\n  /a: [unclosed\n', 'bad.yaml', { fastYamlFrom: 0 });
    } catch (err) {
      error = err;
    }
    expect(hasCode(error, 'import-malformed')).toBe(true);
    expect((error as Error).message).toMatch(/^bad\.yaml is not valid YAML \(line \d+\)/);
    expect(parseText('base: &b {x: 1}\nthing:\n  <<: *b\n  y: 2\n', 'merge.yaml', { fastYamlFrom: 0 }).value).toEqual({ base: { x: 1 }, thing: { x: 1, y: 2 } });
  });
});
