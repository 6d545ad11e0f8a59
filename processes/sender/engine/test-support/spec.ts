import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SendSpec } from '../../../../protocol/model/exchange.js';

/** A GET with test-friendly defaults; override what the test is about. */
export function sendSpec(url: string, overrides: Partial<SendSpec> = {}): SendSpec {
  return {
    method: 'GET',
    url,
    headers: [],
    body: { type: 'none' },
    timeoutMs: 10_000,
    httpVersion: '1.1',
    followRedirects: true,
    maxRedirects: 10,
    proxy: '',
    caPem: '',
    inlineLimit: 1024 * 1024,
    ...overrides,
  };
}

/** A fresh temp folder and its removal. */
export function tempDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'parley-sender-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
