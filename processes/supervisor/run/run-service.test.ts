import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userPath } from './run-service.js';

describe('userPath', () => {
  it('reads a path as typed: absolute as it is, relative (or after ~/) in the home folder', () => {
    expect(userPath('/tmp/report.xml', 'report file')).toBe('/tmp/report.xml');
    expect(userPath('report.xml', 'report file')).toBe(join(homedir(), 'report.xml'));
    expect(userPath('~/reports/run.json', 'report file')).toBe(join(homedir(), 'reports', 'run.json'));
    expect(userPath('~', 'report file')).toBe(homedir());
  });

  it('refuses a path longer than any file system takes, quoting only its start', () => {
    expect(() => userPath('x'.repeat(5000), 'report file')).toThrow(/The report file "x{20,}.*\(5,000 characters\) is longer than any path can be/);
  });
});
