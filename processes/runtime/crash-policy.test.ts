import { describe, expect, it } from 'vitest';
import { crashHandler, currentMessageType, messageScope } from './crash-policy.js';

function policy() {
  const log: string[] = [];
  const exits: number[] = [];
  const handle = crashHandler({ role: 'tester', log: (line) => log.push(line), exit: (code) => exits.push(code) });
  return { handle, log, exits };
}

describe('crash policy', () => {
  it('keeps the process for a failure a message left behind, naming the message and the stack', async () => {
    const { handle, log, exits } = policy();
    // What a handler starts carries its message: here a timer set while handling it.
    const decision = await messageScope('request.send', () => new Promise((resolve) => setTimeout(() => resolve(handle(new TypeError('boom'), 'uncaughtException')), 1)));
    expect(decision).toBe('kept');
    expect(exits).toEqual([]);
    expect(log[0]).toMatch(/^\[tester\] uncaught exception while handling request\.send; the process goes on: TypeError: boom\n\s+at /);
  });

  it('exits with code 1 for a failure no message caused, logging it first', () => {
    const { handle, log, exits } = policy();
    expect(currentMessageType()).toBeUndefined();
    expect(handle('not an Error', 'unhandledRejection')).toBe('exited');
    expect(exits).toEqual([1]);
    expect(log).toEqual(['[tester] unhandled rejection, not caused by a bus message; exiting: not an Error']);
  });
});
