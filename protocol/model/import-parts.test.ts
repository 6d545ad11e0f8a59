import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { hasCode } from '../errors.js';
import { ImportResultPart, ResultParts, sendInParts } from './import-parts.js';
import type { ImportResult } from './import.js';
import { blankRequest } from './request.js';
import type { HistoryEntry } from './history.js';

const placed = (id: string) => ({ folder: 'pets', request: blankRequest({ id, name: `Request ${id}`, method: 'GET', url: `/x/${id}` }) });
const api = (name: string) => ({ id: `a_${name}`, name, baseUrl: 'http://127.0.0.1:9', auth: { type: 'none' as const }, properties: [], version: 1 as const });

function bigResult(): ImportResult {
  return {
    apis: [
      { api: api('one'), folders: [{ path: 'pets', order: 'a0' }], requests: Array.from({ length: 600 }, (_, i) => placed(`r1_${i}`)), documents: [] },
      { api: api('two'), folders: [], requests: [placed('r2_0')], documents: [] },
      { api: api('three'), folders: [], requests: [], documents: [] },
    ],
    webhooks: { collection: 'Webhooks', folder: 'one', requests: Array.from({ length: 3 }, (_, i) => placed(`w_${i}`)) },
    examples: Array.from({ length: 20 }, (_, i) => ({ request: `r1_${i}`, example: { name: `e${i}`, status: 200, headers: [], body: `{"n":${i}}`, savedAt: '2026-11-27T09:00:00.000Z', version: 1 } })) as unknown as ImportResult['examples'],
    report: { format: 'postman', items: [], summary: { requests: 604 } } as unknown as ImportResult['report'],
  };
}

describe('an import result in parts', () => {
  it('comes back whole and in order: requests of each API, Webhooks, examples', () => {
    const result = bigResult();
    const sent: ImportResultPart[] = [];
    const rest = sendInParts(result, (part) => sent.push(structuredClone(part)));
    // The answer carries none of the long lists; the parts carry them in slices.
    expect(rest.apis.map((a) => a.requests.length)).toEqual([0, 0, 0]);
    expect(rest.webhooks?.requests).toEqual([]);
    expect(rest.examples).toEqual([]);
    expect(sent.filter((p) => p.part === 'requests').map((p) => p.items.length)).toEqual([250, 250, 100, 1]);
    expect(sent.filter((p) => p.part === 'examples').map((p) => p.items.length)).toEqual([8, 8, 4]);
    // The input is left as it was.
    expect(result.apis[0]!.requests).toHaveLength(600);
    const parts = new ResultParts();
    for (const part of sent) parts.add(part);
    expect(parts.join(structuredClone(rest))).toEqual(result);
  });

  it('leaves a result without long lists as it is', () => {
    const result: ImportResult = { apis: [], report: bigResult().report };
    const sent: ImportResultPart[] = [];
    const rest = sendInParts(result, (part) => sent.push(part));
    expect(sent).toEqual([]);
    expect(new ResultParts().join(rest)).toEqual(result);
  });

  it('keeps History entries in order across parts', () => {
    const entry = (i: number) => ({ id: `h${i}` }) as unknown as HistoryEntry;
    const result: ImportResult = { apis: [], history: Array.from({ length: 120 }, (_, i) => entry(i)), report: bigResult().report };
    const parts = new ResultParts();
    const rest = sendInParts(result, (part) => parts.add(part));
    expect(parts.join(rest).history?.map((h) => h.id)).toEqual(result.history!.map((h) => h.id));
  });

  it('refuses a part that names an API the answer does not have, or Webhooks it does not have', () => {
    const parts = new ResultParts();
    parts.add({ part: 'requests', api: 5, items: [placed('stray')] });
    let error: unknown;
    try {
      parts.join({ apis: [], report: bigResult().report });
    } catch (err) {
      error = err;
    }
    expect(hasCode(error, 'invalid-payload')).toBe(true);
    expect((error as Error).message).toMatch(/requests for API 6 of an answer that has 0/);

    const hooks = new ResultParts();
    hooks.add({ part: 'webhooks', items: [placed('w')] });
    expect(() => hooks.join({ apis: [], report: bigResult().report })).toThrow(/no Webhooks folder/);
  });

  it('the part schema refuses what is not a part', () => {
    expect(Value.Check(ImportResultPart, { part: 'requests', api: -1, items: [] })).toBe(false);
    expect(Value.Check(ImportResultPart, { part: '__proto__', items: [] })).toBe(false);
    expect(Value.Check(ImportResultPart, { part: 'examples', items: [{}] })).toBe(false);
    expect(Value.Check(ImportResultPart, { part: 'requests', api: 0, items: [placed('ok')] })).toBe(true);
  });
});
