/**
 * `parley mock serve <file>` and a reference it cannot follow (issue 26: every one was "not among
 * the definition's documents"). Each says what was wrong with it: the file is missing, is not a
 * file, lies where a reference may not lead, or lacks the place the reference points at.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mockFromDocument } from './document-mock.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-mock-refs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = join(dir, 'spec');
mkdirSync(join(spec, 'folder.yaml'), { recursive: true });
mkdirSync(join(spec, '.hidden'), { recursive: true });
writeFileSync(join(spec, 'Pet.yaml'), 'Pet:\n  type: object\n');
writeFileSync(join(spec, '.hidden', 'x.yaml'), 'X:\n  type: string\n');

function entryWith(ref: string): string {
  const path = join(spec, `entry-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '${ref}'}\n`);
  return path;
}

async function refusal(ref: string): Promise<{ code: string; message: string }> {
  return mockFromDocument(entryWith(ref), { contractCheck: 'log', port: 0 }).then(
    () => {
      throw new Error(`${ref} was mocked`);
    },
    (err: { code: string; message: string }) => err,
  );
}

describe('parley mock serve <file>: a reference it cannot follow says why', () => {
  it.each([
    ['a missing file', 'Missing.yaml#/Pet', 'definition-not-loaded', /Missing\.yaml was not found\.$/],
    ['a folder, not a file', 'folder.yaml#/Pet', 'definition-not-loaded', /folder\.yaml is not a regular file and was not read\.$/],
    ['a file where references may not lead', '.hidden/x.yaml#/X', 'definition-not-loaded', /x\.yaml was not read: hidden files and folders are never read\.$/],
    ['an absolute path', '/etc/x.yaml#/X', 'definition-not-loaded', /it is an absolute path; references between local files must be relative to the document\.$/],
    ['a pointer to nothing', 'Pet.yaml#/Nope', 'contract-unavailable', /points at \/Nope, which .*\/spec\/Pet\.yaml does not have\.$/],
  ])('%s', async (_what, ref, code, why) => {
    const error = await refusal(ref);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(why);
    expect(error.message).not.toMatch(/not among the definition's documents|Missing \$ref pointer|ENOENT|EISDIR/);
  });
});
