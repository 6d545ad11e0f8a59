/**
 * What History records of a send, redacted before anything is written: secret values become
 * their `${secret:name}` references, and by SPEC's credential-name rule the values of
 * Authorization, Cookie, Set-Cookie and every credential-named header, query parameter, form
 * field, multipart text part, JSON key and XML element or attribute are masked, in the request
 * and in the response alike. The response also loses, by value, the credential values the
 * exchange carried in its headers (its cookies, its Authorization), wherever it reflects them.
 */
import type { SendResult, SendSpec } from '../../../protocol/model/exchange.js';
import type { HistoryEntry, RecordedResponse } from '../../../protocol/model/history.js';
import type { LoggedHop } from '../../../protocol/model/http-log.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { StreamRecord, StreamRow } from '../../../protocol/model/stream.js';
import { maskText, recordRequest, recordResponse as recordReceived, recordWire, type RecordableWire, type RecordedSend } from '../../../protocol/history-record.js';
import { Slicer } from '../store/slicer.js';
import { redactionPairs, redactSecrets } from './expand.js';
import { replaceSecretValues } from '../../../protocol/credentials/index.js';

export { PREVIEW_LIMIT, type RecordedSend } from '../../../protocol/history-record.js';

/**
 * The request as History records it (protocol/history-record.ts), secret values first turned into
 * their references and `masked` values (credentials captured from earlier responses) masked.
 */
export function recordSent(spec: SendSpec, secrets: Map<string, string>, masked: readonly string[] = []): RecordedSend {
  let changed = false;
  const sent = recordRequest(spec, (text) => {
    const out = redactSecrets(text, secrets, masked);
    changed ||= masked.length > 0 && out !== text;
    return out;
  });
  return changed ? { ...sent, masked: true } : sent;
}

/**
 * The response as History and the HTTP Log record it: secret values turned into their references
 * and the credential values the exchange carried (`carried`, protocol/credentials/carried.ts)
 * masked wherever the response reflects them, then credentials masked by name.
 */
export function recordResponse(r: SendResult, secrets: Map<string, string>, carried: readonly string[] = []): { response: RecordedResponse; masked: boolean } {
  let changed = false;
  const pairs = redactionPairs(secrets, carried);
  const recorded = recordReceived(r, (text) => {
    const out = pairs.length === 0 ? text : replaceSecretValues(text, pairs);
    changed ||= out !== text;
    return out;
  });
  return { response: recorded.response, masked: recorded.masked || changed };
}

/**
 * Every hop of the send as the HTTP Log keeps it for HAR export (protocol/history-record.ts
 * `recordWire`), with the same redaction as the response: secret values to their references,
 * carried values masked, then credentials by name. Undefined for a response Parley did not send.
 */
export function recordHops(r: RecordableWire, secrets: Map<string, string>, carried: readonly string[] = []): { hops: LoggedHop[]; masked: boolean } | undefined {
  let changed = false;
  const pairs = redactionPairs(secrets, carried);
  const recorded = recordWire(r, (text) => {
    const out = pairs.length === 0 ? text : replaceSecretValues(text, pairs);
    changed ||= out !== text;
    return out;
  });
  return recorded && { hops: recorded.hops, masked: recorded.masked || changed };
}

export function historyEntry(input: { id: string; at: string; requestId: string; sent: RecordedSend; response: SendResult; verdict: Verdict | undefined; secrets: Map<string, string>; carried: readonly string[] }): HistoryEntry {
  const recorded = recordResponse(input.response, input.secrets, input.carried);
  return {
    id: input.id,
    at: input.at,
    requestId: input.requestId,
    request: input.sent.request,
    response: recorded.response,
    ...(input.verdict ? { verdict: input.verdict } : {}),
    redacted: input.sent.masked || recorded.masked || input.secrets.size > 0,
  };
}

/**
 * A stream as History and the HTTP Log keep it: each row's data masked as a body of its own
 * (JSON or XML data by the credential-name rule; every secret value the send used and every
 * credential value it carried), in slices between which the supervisor's loop runs (32 MB of
 * rows take a while).
 */
export async function recordStream(record: StreamRecord, secrets: Map<string, string>, carried: readonly string[] = []): Promise<{ stream: StreamRecord; masked: boolean }> {
  const slicer = new Slicer();
  let masked = 0;
  const rows: StreamRow[] = [];
  const pairs = redactionPairs(secrets, carried);
  const redact = (text: string) => (pairs.length === 0 ? text : replaceSecretValues(text, pairs));
  for (const row of record.rows) {
    if (slicer.due()) await slicer.turn();
    const text = maskText(redact(row.data), undefined);
    const id = row.id === undefined ? undefined : redact(row.id);
    masked += text.masked + (text.text !== row.data || id !== row.id ? 1 : 0);
    rows.push(text.text === row.data && id === row.id ? row : { ...row, data: text.text, ...(id === undefined ? {} : { id }) });
  }
  return { stream: { ...record, rows }, masked: masked > 0 };
}
