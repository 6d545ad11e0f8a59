/** The supervisor's import rules that need no process: the importer's heap cap and environment names. */
import { describe, expect, it } from 'vitest';
import { memoryForBytes, unusedName } from './import-service.js';

describe('importer memory cap', () => {
  it.each([
    [0, 256],
    [1024 * 1024, 256],
    [10 * 1024 * 1024, 352],
    [50 * 1024 * 1024, 992],
    [100 * 1024 * 1024, 1792],
    [1024 * 1024 * 1024, 4096],
  ])('a %i-byte source gets %i MB', (bytes, mb) => {
    expect(memoryForBytes(bytes)).toBe(mb);
  });
});

describe('a taken environment name gets a numeric suffix, case-insensitively', () => {
  it.each([
    ['Staging', [], 'Staging'],
    ['Staging', ['staging'], 'Staging 2'],
    ['Staging', ['STAGING', 'staging 2'], 'Staging 3'],
    ['Prod', ['staging'], 'Prod'],
    ['__proto__', ['__proto__'], '__proto__ 2'],
  ])('%s with %j taken is %s', (name, taken, expected) => {
    expect(unusedName(name, new Set(taken))).toBe(expected);
  });
});
