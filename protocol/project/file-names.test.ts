import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, fileNameKey, isPortableFileName, numberedFileName, portableFileName } from './file-names.js';

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('portableFileName', () => {
  const cases: [string, string][] = [
    ['Get pets', 'Get pets'],
    // Windows device names, alone, with an extension, any case, with a space before the dot
    ['CON', 'CON_'],
    ['con', 'con_'],
    ['NUL', 'NUL_'],
    ['AUX', 'AUX_'],
    ['PRN', 'PRN_'],
    ['COM1', 'COM1_'],
    ['com0', 'com0_'],
    ['LPT9', 'LPT9_'],
    ['COM¹', 'COM¹_'],
    ['CONIN$', 'CONIN$_'],
    ['con.txt', 'con_.txt'],
    ['Nul.request', 'Nul_.request'],
    ['aux .v2', 'aux_ .v2'],
    ['CONSOLE', 'CONSOLE'],
    ['COM10', 'COM10'],
    ['my CON', 'my CON'],
    ['x.con', 'x.con'],
    // characters Windows refuses, control characters
    ['a<b>c:d"e/f\\g|h?i*j', 'a-b-c-d-e-f-g-h-i-j'],
    ['tab\there\nnewline', 'tab-here-newline'],
    ['del\u007fc1\u0085', 'del-c1-'],
    ['lone \ud800 half', 'lone - half'],
    // dots and spaces at the ends; dot names
    ['trailing dot.', 'trailing dot'],
    ['trailing space ', 'trailing space'],
    ['both. . ', 'both'],
    ['.hidden', 'hidden'],
    ['. x', 'x'],
    ['.', 'item'],
    ['..', 'item'],
    ['   ', 'item'],
    ['', 'item'],
    ['many   inner    spaces', 'many inner spaces'],
    // decomposed (macOS) input is stored composed
    ['Cafe\u0301', 'Café'],
  ];
  it.each(cases)('%j becomes %j', (name, file) => {
    expect(portableFileName(name)).toBe(file);
    expect(isPortableFileName(file)).toBe(true);
  });

  it('cuts a long name to MAX_NAME_BYTES at a whole character', () => {
    const cut = portableFileName('日本語'.repeat(100));
    expect(bytes(cut)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(cut).toBe('日本語'.repeat(13) + '日');
    expect(portableFileName('🐶'.repeat(100))).toBe('🐶'.repeat(MAX_NAME_BYTES / 4));
    expect(portableFileName(`${'a'.repeat(MAX_NAME_BYTES - 1)}. b`)).toBe('a'.repeat(MAX_NAME_BYTES - 1));
  });

  it('is portable, short enough and stable for any name', () => {
    const portable = (name: string) => {
      const file = portableFileName(name);
      return isPortableFileName(file) && portableFileName(file) === file && bytes(file) <= MAX_NAME_BYTES && !/[<>:"/\\|?*\u0000-\u001f]|^[. ]|[. ]$/.test(file);
    };
    for (const names of [fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: fc.constantFrom('CON', 'nul', '.', ' ', 'x', 'é', '\u0301', ':'), maxLength: 40 })]) {
      fc.assert(fc.property(names, portable), { numRuns: 1000 });
    }
  });

  it('keeps a numbered name within the limit', () => {
    const long = portableFileName('x'.repeat(500));
    expect(numberedFileName(long, 12)).toBe(`${'x'.repeat(MAX_NAME_BYTES - 3)} 12`);
    expect(numberedFileName('Pets', 2)).toBe('Pets 2');
  });
});

describe('fileNameKey', () => {
  const same: [string, string][] = [
    ['Pets', 'pets'],
    ['PETS.request.yaml', 'pets.request.yaml'],
    ['Café', 'Cafe\u0301'],
    ['straße', 'STRASSE'],
    ['ﬁle', 'file'],
    ['name.', 'name'],
  ];
  it.each(same)('%j and %j are one file on a case-insensitive disk', (a, b) => expect(fileNameKey(a)).toBe(fileNameKey(b)));
  it('tells different names apart', () => {
    expect(fileNameKey('Pets')).not.toBe(fileNameKey('Pet'));
    expect(fileNameKey('Pets 2')).not.toBe(fileNameKey('pets'));
  });
});

describe('isPortableFileName', () => {
  it.each(['CON', 'con.txt', 'a:b', 'end.', 'end ', '.start', '', 'Cafe\u0301', 'x'.repeat(MAX_NAME_BYTES + 1)])('refuses %j', (name) => {
    expect(isPortableFileName(name)).toBe(false);
  });
});
