/** Small display helpers shared by the History, Compare and Examples views. */
import type { Header } from '../../../../protocol/model/exchange.js';
import { isJsonMediaType, isXmlMediaType } from '../../../../protocol/media-type.js';
import { indentXml } from '../editors/request/format.js';

export function statusClass(status: number): string {
  return status >= 500 ? 's5' : status >= 400 ? 's4' : status >= 300 ? 's3' : 's2';
}

/** `25 Nov 2026, 10:12:05`: when an entry was sent or an example recorded (the year left out when it is this one). */
export function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const year = d.getFullYear() === new Date().getFullYear() ? undefined : 'numeric';
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', ...(year ? { year } : {}), hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
}

export function headerValue(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/** A recorded body as text worth reading: JSON and XML indented, the rest as it was. */
export function readableBody(headers: readonly Header[], body: string): string {
  const type = headerValue(headers, 'content-type') ?? '';
  const start = body.trimStart()[0];
  if (isJsonMediaType(type) || (!type && (start === '{' || start === '['))) {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  }
  if (isXmlMediaType(type)) return indentXml(body);
  return body;
}
