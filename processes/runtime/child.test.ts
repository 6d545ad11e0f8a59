/** The link's limits a child reads from the environment its supervisor gave it (ChildSpec.maxMessage / maxFrame). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FRAME, LARGE_MESSAGE_LIMIT } from '../../protocol/framing.js';
import { busMaxFrame, busMaxMessage } from './child.js';

describe('a child\'s bus limits', () => {
  it('are one frame unless the supervisor set more, and never past LARGE_MESSAGE_LIMIT', () => {
    expect(busMaxMessage(undefined)).toBe(DEFAULT_MAX_FRAME);
    expect(busMaxMessage(String(LARGE_MESSAGE_LIMIT))).toBe(LARGE_MESSAGE_LIMIT);
    expect(busMaxMessage(String(LARGE_MESSAGE_LIMIT * 4))).toBe(LARGE_MESSAGE_LIMIT);
    expect(busMaxMessage('1024')).toBe(DEFAULT_MAX_FRAME);
    for (const junk of ['', '-5', '1e9', '0x100', ' 1024', '9'.repeat(30)]) expect(busMaxMessage(junk), junk).toBe(DEFAULT_MAX_FRAME);
  });

  it('take a smaller frame (a test\'s) down to 4 KB, never a larger one', () => {
    expect(busMaxFrame(undefined)).toBe(DEFAULT_MAX_FRAME);
    expect(busMaxFrame(String(16 * 1024))).toBe(16 * 1024);
    expect(busMaxFrame('10')).toBe(4096);
    expect(busMaxFrame(String(DEFAULT_MAX_FRAME * 2))).toBe(DEFAULT_MAX_FRAME);
  });
});
