import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { apiFolderScope, cachedDocumentPath, cachedDocumentUri } from './cached-definition-uri.js';
import { resolveRefLocation } from './ref-location.js';

describe('cachedDocumentUri', () => {
  it.each(['definition/openapi.yaml', 'definition/my pets.yaml', 'definition/50%.yaml', 'definition/a#b?.yaml', 'definition/é.json'])(
    'writes %j as pathToFileURL writes the same path below /api/, and reads back to it',
    (rel) => {
      const uri = cachedDocumentUri(rel);
      expect(uri).toBe(pathToFileURL(`/api/${rel}`).href);
      expect(cachedDocumentPath(uri)).toBe(rel);
    },
  );

  it('resolves a relative $ref between cached documents to the other document\'s uri', () => {
    const from = cachedDocumentUri('definition/spec/openapi.yaml');
    const to = resolveRefLocation('../common/my pet.yaml#/Pet', from, { within: apiFolderScope(from) });
    expect(to).toMatchObject({ ok: true, url: cachedDocumentUri('definition/common/my pet.yaml'), fragment: '/Pet' });
    expect(resolveRefLocation('../../../x.yaml', from, { within: apiFolderScope(from) })).toMatchObject({ ok: false, error: { reason: "it leads outside the API's folder" } });
  });

  it.each(['../outside.yaml', '/etc/passwd', ''])('refuses %j, which is no file inside the API folder', (rel) => {
    expect(() => cachedDocumentUri(rel)).toThrow(expect.objectContaining({ code: 'path-escape' }));
  });

  it('scopes only a cached definition to the API folder', () => {
    expect(apiFolderScope('file:///api/definition/openapi.yaml')).toEqual({ folder: 'file:///api/', name: "the API's folder" });
    expect(apiFolderScope('file:///home/me/openapi.yaml')).toBeUndefined();
    expect(apiFolderScope('https://example.com/openapi.yaml')).toBeUndefined();
  });
});
