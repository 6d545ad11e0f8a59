/** The registry and the format list the dialog and the CLI show agree; picking refuses what is not built. */
import { describe, expect, it } from 'vitest';
import { builtFormats, IMPORT_FORMATS } from '../../../protocol/import-formats.js';
import { createImporterRegistry } from './registry.js';

describe('importer registry', () => {
  it('holds exactly the formats protocol/import-formats.ts marks built, in its order', () => {
    expect(createImporterRegistry().ids()).toEqual(builtFormats().map((f) => f.id));
  });

  it('refuses a format SPEC lists that this build has not', () => {
    const registry = createImporterRegistry();
    for (const format of IMPORT_FORMATS.filter((f) => !f.built)) {
      expect(() => registry.pick(format.id, { text: '{}' }), format.id).toThrow(expect.objectContaining({ code: 'import-unknown-format' }));
    }
  });

  it('says nothing is recognised rather than guessing', () => {
    expect(() => createImporterRegistry().pick('auto', { text: '{"hello": 1}' })).toThrow(expect.objectContaining({ code: 'import-unrecognised' }));
  });
});
