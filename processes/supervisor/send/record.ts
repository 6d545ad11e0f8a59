/**
 * What History records of a send, redacted before anything is written: secret values become
 * their `${secret:name}` references, and by SPEC's credential-name rule the values of
 * Authorization, Cookie, Set-Cookie and every credential-named header, query parameter, form
 * field, multipart text part, JSON key and XML element or attribute are masked, in the request
 * and in the response alike.
 */
import type { SendResult, SendSpec } from '../../../protocol/model/exchange.js';
import type { HistoryEntry, RecordedResponse } from '../../../protocol/model/history.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { StreamRecord, StreamRow } from '../../../protocol/model/stream.js';
import { maskText, recordRequest, recordResponse as recordReceived, type RecordedSend } from '../../../protocol/history-record.js';
import { Slicer } from '../store/slicer.js';
import { redactSecrets } from './expand.js';

export { PREVIEW_LIMIT, type RecordedSend } from '../../../protocol/history-record.js';

/** The request as History records it (protocol/history-record.ts), secret values first turned into their references. */
export function recordSent(spec: SendSpec, secrets: Map<string, string>): RecordedSend {
  return recordRequest(spec, (text) => redactSecrets(text, secrets));
}

export function recordResponse(r: SendResult, secrets: Map<string, string>): { response: RecordedResponse; masked: boolean } {
  return recordReceived(r, (text) => redactSecrets(text, secrets));
}

export function historyEntry(input: { id: string; at: string; requestId: string; sent: RecordedSend; response: SendResult; verdict: Verdict | undefined; secrets: Map<string, string> }): HistoryEntry {
  const recorded = recordResponse(input.response, input.secrets);
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
 * (JSON or XML data by the credential-name rule; every secret value the send used), in slices
 * between which the supervisor's loop runs (32 MB of rows take a while).
 */
export async function recordStream(record: StreamRecord, secrets: Map<string, string>): Promise<{ stream: StreamRecord; masked: boolean }> {
  const slicer = new Slicer();
  let masked = 0;
  const rows: StreamRow[] = [];
  for (const row of record.rows) {
    if (slicer.due()) await slicer.turn();
    const text = maskText(redactSecrets(row.data, secrets), undefined);
    const id = row.id === undefined ? undefined : redactSecrets(row.id, secrets);
    masked += text.masked + (text.text !== row.data || id !== row.id ? 1 : 0);
    rows.push(text.text === row.data && id === row.id ? row : { ...row, data: text.text, ...(id === undefined ? {} : { id }) });
  }
  return { stream: { ...record, rows }, masked: masked > 0 };
}
