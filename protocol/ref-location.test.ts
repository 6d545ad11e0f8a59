/**
 * The one `$ref` rule, as a table: every odd form the importer, the checker and the mock host
 * met gives `ref-unreadable` with the reference, the document and why; ordinary references
 * resolve as RFC 3986 says. Every refused reference would also be safe to hand a file reader:
 * no result of this function makes `fileURLToPath` throw.
 */
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REF_LENGTH, resolveRefLocation } from './ref-location.js';

const FILE = 'file:///home/me/api/spec/openapi.yaml';
const HTTP = 'https://api.example.com/v1/openapi.yaml';
const CACHE = 'cache:/definition/spec/openapi.yaml';
const inCache = { within: { folder: 'cache:/definition/', name: "the API's cached definition" } };

describe('resolveRefLocation: references that resolve', () => {
  const cases: [string, string, string, string, Parameters<typeof resolveRefLocation>[2]?][] = [
    ['a fragment only', '#/components/schemas/Pet', FILE, FILE],
    ['a sibling file', 'Pet.yaml#/Pet', FILE, 'file:///home/me/api/spec/Pet.yaml'],
    ['a parent folder (the import policy decides whether it may be read)', '../common/Error.yaml', FILE, 'file:///home/me/api/common/Error.yaml'],
    ['percent-encoded dots, read as the dots they are', '%2e%2e/common/Error.yaml', FILE, 'file:///home/me/api/common/Error.yaml'],
    ['a full http address from a local file', 'https://schemas.example.com/pet.json', FILE, 'https://schemas.example.com/pet.json'],
    ['an absolute path on the document\'s own server', '/schemas/pet.json', HTTP, 'https://api.example.com/schemas/pet.json'],
    ['a network-path reference from a network document', '//cdn.example.com/pet.json', HTTP, 'https://cdn.example.com/pet.json'],
    ['a relative reference in the cache', '../common/Error.yaml#/E', CACHE, 'cache:/definition/common/Error.yaml', inCache],
    ['a urn (JSON Schema $id style)', 'urn:example:pet#/defs/a', 'urn:example:root', 'urn:example:pet'],
  ];
  for (const [name, ref, base, url, scope] of cases) {
    it(name, () => {
      const r = resolveRefLocation(ref, base, scope);
      expect(r.ok ? r.url : r.error.message).toBe(url);
    });
  }

  it('decodes the fragment once, and keeps it as written in href', () => {
    const r = resolveRefLocation('#/components/schemas/A%20B', FILE);
    expect(r).toEqual({ ok: true, url: FILE, fragment: '/components/schemas/A B', href: `${FILE}#/components/schemas/A%20B` });
  });
});

describe('resolveRefLocation: odd forms are ref-unreadable, with what, where and why', () => {
  const cases: [string, string, string, RegExp, Parameters<typeof resolveRefLocation>[2]?][] = [
    ['percent-encoded ../ (ERR_INVALID_FILE_URL_PATH before)', '%2e%2e%2foutside%2fsecret.json', FILE, /percent-encoded "\/"/],
    ['an encoded backslash', 'a%5c..%5csecret.json', FILE, /%5C/],
    ['an encoded NUL', 'pet.json%00.yaml', FILE, /NUL/],
    ['a network path from a local file (ERR_INVALID_FILE_URL_HOST before)', '//169.254.169.254/latest/x.json', FILE, /names another machine/],
    ['a network path from the cache', '//169.254.169.254/latest/x.json', CACHE, /names another machine/, inCache],
    ['a file: address with a host', 'file://server/share/x.json', HTTP, /file: address/],
    ['a file: address', 'file:///etc/passwd.json', FILE, /file: address/],
    ['an absolute path from a local file', '/etc/secrets.json', FILE, /absolute path/],
    ['a Windows drive', 'C:\\Users\\me\\x.json', FILE, /separator|Windows drive/],
    ['a Windows drive with /', 'C:/Users/me/x.json', FILE, /Windows drive/],
    ['a drive behind a slash', '/D:/x.json', HTTP, /Windows drive/],
    ['backslash separators', '..\\..\\secret\\x.json', FILE, /"\\" as a separator/],
    ['a NUL byte', 'pet\u0000.json', FILE, /control character/],
    ['a line break', 'pet.json\n#/x', FILE, /control character/],
    ['a very long reference', `${'a/'.repeat(MAX_REF_LENGTH)}x.json`, FILE, new RegExp(`longer than ${MAX_REF_LENGTH}`)],
    ['leaving the cached definition', '../../outside.json', CACHE, /leads outside the API's cached definition/, inCache],
    ['leaving the cached definition by encoded dots', '%2e%2e/%2e%2e/outside.json', CACHE, /leads outside/, inCache],
    ['an http address from the cache', 'https://example.com/x.json', CACHE, /leads outside/, inCache],
    ['a fragment that is not valid percent-encoding', '#/a%zz', FILE, /#fragment is not valid percent-encoding/],
    ['a path that is not valid percent-encoding', 'a%zz.json', FILE, /path is not valid percent-encoding/],
    ['a base that is no address', 'x.json', 'not a url', /no address/],
  ];
  for (const [name, ref, base, why, scope] of cases) {
    it(name, () => {
      const r = resolveRefLocation(ref, base, { documentName: 'spec/openapi.yaml', ...scope });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('ref-unreadable');
      expect(r.error.reason).toMatch(why);
      expect(r.error.message).toContain('in spec/openapi.yaml cannot be read: ');
      expect(r.error.message).toContain(JSON.stringify(r.error.ref));
      expect(r.error.message).not.toMatch(/ERR_/);
      expect(r.error.ref.length).toBeLessThanOrEqual(201);
    });
  }
});

describe('resolveRefLocation: whatever the reference, a file: result is a path this machine can read', () => {
  it('never gives a file: address that fileURLToPath refuses', () => {
    const pieces = ['..', '.', '/', '//', '\\', '%2f', '%2F', '%5c', '%00', '%2e', 'C:', 'file:', 'a', 'x.json', '#', '?', '%', '169.254.169.254', 'localhost', ' '];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), fc.string({ maxLength: 4 }), (parts, tail) => {
        const r = resolveRefLocation(parts.join('') + tail, FILE);
        if (!r.ok || !r.url.startsWith('file:')) return;
        expect(() => fileURLToPath(r.url)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });
});
