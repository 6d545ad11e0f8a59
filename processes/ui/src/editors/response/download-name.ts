/** The file name a saved response body gets: the server's (Content-Disposition), else the URL's last segment with an extension for its type. */
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import { header } from './body-view.js';

const EXTENSIONS = new Map([
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['text/html', 'html'],
  ['text/plain', 'txt'],
  ['text/csv', 'csv'],
  ['application/pdf', 'pdf'],
  ['image/png', 'png'],
  ['image/jpeg', 'jpg'],
  ['image/gif', 'gif'],
  ['image/svg+xml', 'svg'],
  ['image/webp', 'webp'],
  ['application/zip', 'zip'],
]);

/** The file extension for a media type: `png` for image/png, `bin` for one Parley has none for. */
export function extensionFor(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return EXTENSIONS.get(type) ?? (/\+json$/.test(type) ? 'json' : /\+xml$/.test(type) ? 'xml' : 'bin');
}

export function downloadName(result: SendResult): string {
  const fromServer = dispositionName(header(result, 'content-disposition'));
  if (fromServer) return fromServer;
  const extension = extensionFor(header(result, 'content-type') ?? '');
  let base = 'response';
  try {
    const last = new URL(result.url).pathname.split('/').filter(Boolean).pop();
    if (last) base = safeName(decodeURIComponent(last));
  } catch {
    // A URL that does not parse keeps the default name.
  }
  return /\.[a-z0-9]{1,5}$/i.test(base) ? base : `${base}.${extension}`;
}

/** `attachment; filename="a.pdf"` or RFC 5987's `filename*=UTF-8''a%20b.pdf`; only the last path part, no separators. */
function dispositionName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(value);
  if (star) {
    try {
      return safeName(decodeURIComponent(star[1]!.trim()));
    } catch {
      // Fall through to the plain form.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(value);
  const name = plain?.[2] ?? plain?.[1]?.trim();
  return name ? safeName(name) : undefined;
}

function safeName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const cleaned = last.replace(/[\u0000-\u001f<>:"|?*]/g, '_').replace(/^\.+/, '').slice(0, 120);
  return cleaned || 'response';
}
