/**
 * HAR entries of logged sends: one per hop, the request body only on the hops that carried it
 * (a 307 keeps it, a 303 drops it), and `time` the sum of the known timings for every kind of
 * entry (per hop, a send logged without hops, a send that failed).
 */
import { describe, expect, it } from 'vitest';
import type { HopTiming } from '../../../protocol/model/exchange.js';
import type { HttpLogEntry, LoggedHop } from '../../../protocol/model/http-log.js';
import { harEntries, harPieces } from './har.js';

const phases = (startedAt: number): HopTiming => ({ startedAt, blocked: 0.5, dns: -1, connect: -1, ssl: -1, send: 0.25, wait: 3, receive: 1.125 });

function hop(patch: Partial<LoggedHop>): LoggedHop {
  return { method: 'POST', url: 'http://api.test/a', requestHeaders: [['host', 'api.test']], requestBodySize: 0, status: 200, statusText: 'OK', headers: [], timing: phases(0), ...patch };
}

function logged(hops: LoggedHop[] | undefined): HttpLogEntry {
  return {
    row: { id: 'x1', at: '2026-01-02T03:04:05.000Z', project: '/p', requestId: 'r', requestName: 'a', method: 'POST', url: 'http://api.test/a', redacted: false },
    request: { method: 'POST', url: 'http://api.test/a', headers: [['Content-Type', 'application/json']], body: '{"n":1}', bodyKind: 'text' },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']], body: '{"ok":true}', size: 11, timeMs: 12 },
    httpVersion: '1.1',
    timing: { dns: 1, connect: 2, tls: 0, send: 0.5, wait: 4, download: 1, total: 12 },
    ...(hops ? { hops } : {}),
  };
}

const sumOf = (t: Record<string, number>) => ['blocked', 'dns', 'connect', 'send', 'wait', 'receive'].reduce((sum, k) => sum + ((t[k] ?? -1) >= 0 ? t[k]! : 0), 0);

describe('HAR entries of a logged send', () => {
  it('keeps the body on the hops that carried it: a 307 sends it again, a 303 turns the request into a GET without it', () => {
    const json: [string, string] = ['Content-Type', 'application/json'];
    const entries = harEntries(
      logged([
        hop({ url: 'http://api.test/a', requestHeaders: [json], requestBodySize: 7, status: 307, statusText: 'Temporary Redirect', headers: [['Location', '/b']] }),
        hop({ url: 'http://api.test/b', requestHeaders: [json], requestBodySize: 7, status: 303, statusText: 'See Other', headers: [['Location', '/c']], timing: phases(5) }),
        hop({ method: 'GET', url: 'http://api.test/c', requestBodySize: 0, headers: [json], timing: phases(9) }),
      ]),
    ) as { startedDateTime: string; request: { method: string; bodySize: number; postData?: { mimeType: string; text: string } }; response: { redirectURL: string; content: { size: number; text?: string } } }[];
    expect(entries.map((e) => [e.request.method, e.request.bodySize, e.request.postData?.text])).toEqual([
      ['POST', 7, '{"n":1}'],
      ['POST', 7, '{"n":1}'],
      ['GET', 0, undefined],
    ]);
    expect(entries[0]!.request.postData?.mimeType).toBe('application/json');
    expect(entries.map((e) => e.response.redirectURL)).toEqual(['/b', '/c', '']);
    expect(entries.map((e) => e.response.content.text)).toEqual([undefined, undefined, '{"ok":true}']);
    expect(entries.map((e) => e.startedDateTime)).toEqual(['2026-01-02T03:04:05.000Z', '2026-01-02T03:04:05.005Z', '2026-01-02T03:04:05.009Z']);
  });

  it('makes `time` the sum of the known timings, whatever the entry', () => {
    const perHop = harEntries(logged([hop({})]));
    const withoutHops = harEntries(logged(undefined));
    const failed = harEntries({ ...logged(undefined), response: undefined, timing: undefined, row: { ...logged(undefined).row, error: { code: 'connection-refused', message: 'refused' } } });
    for (const entry of [...perHop, ...withoutHops, ...failed] as { time: number; timings: Record<string, number> }[]) {
      expect(entry.time).toBeCloseTo(sumOf(entry.timings), 6);
    }
    // A send logged without its hops: HAR's `connect` includes TLS, and a phase that did not happen is -1.
    expect((withoutHops[0] as { timings: Record<string, number> }).timings).toEqual({ blocked: -1, dns: 1, connect: 2, ssl: -1, send: 0.5, wait: 4, receive: 1 });
    expect((failed[0] as { response: { _error: string } }).response._error).toBe('refused');
  });

  it('writes one document whose entries are every hop of every send', () => {
    const text = [...harPieces([logged([hop({ status: 302, headers: [['Location', '/b']] }), hop({ method: 'GET' })]), logged(undefined)], { name: 'Parley', version: '0' })].join('');
    expect((JSON.parse(text) as { log: { entries: unknown[] } }).log.entries).toHaveLength(3);
  });
});
