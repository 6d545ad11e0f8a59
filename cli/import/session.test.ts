import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ParleyError } from '../../protocol/errors.js';
import { CliSession } from './session.js';

const sessions: CliSession[] = [];
const session = () => {
  const s = new CliSession();
  sessions.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const died = (signal: string | null) => new ParleyError('child-died', `The importer process could not start (stopped by ${signal}).`, { exit: { code: null, signal } });

describe('a run interrupted by a signal its child died of first', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('a child stopped by %s interrupts the run, with that exit code', (signal) => {
    const s = session();
    expect(s.wasInterrupted(died(signal))).toBe(true);
    const stderr = new PassThrough();
    expect(s.cancelled('mock new', stderr)).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(String(stderr.read())).toBe('parley mock new: cancelled.\n');
  });

  it('a child Parley killed (SIGKILL), one that exited, or another error does not', () => {
    const s = session();
    expect(s.wasInterrupted(died('SIGKILL'))).toBe(false);
    expect(s.wasInterrupted(new ParleyError('child-died', 'The importer process exited with code 1.', { exit: { code: 1, signal: null } }))).toBe(false);
    expect(s.wasInterrupted(new ParleyError('child-died', 'gone', { exit: '__proto__' }))).toBe(false);
    expect(s.wasInterrupted(new ParleyError('import-malformed', 'bad', { exit: { signal: 'SIGINT' } }))).toBe(false);
    expect(s.interruptedBy).toBeUndefined();
  });
});
