/**
 * A response's Cookies tab: each Set-Cookie of every hop with what the jar made of it (stored,
 * deleted from the jar, or ignored with the reason), its value masked until Show values.
 */
import { useSignal } from '@preact/signals';
import type { CookieOutcome } from '../../../../../protocol/model/cookies.js';
import type { Header, SendResult } from '../../../../../protocol/model/exchange.js';
import { MASK, expiryText, openCookieJar } from './jar-state.js';
import './cookies.css';

interface Row {
  hop: number;
  url: string;
  status: number;
  header: string;
  outcome?: CookieOutcome;
}

function rowsOf(result: SendResult): Row[] {
  const stops: { url: string; status: number; headers: Header[]; cookies?: CookieOutcome[] }[] = [...result.hops, result];
  return stops.flatMap((stop, hop) =>
    stop.headers
      .filter(([name]) => name.toLowerCase() === 'set-cookie')
      .map(([, header], i): Row => ({ hop, url: stop.url, status: stop.status, header, ...(stop.cookies?.[i] ? { outcome: stop.cookies[i] } : {}) })),
  );
}

/** How many Set-Cookie headers the response and its redirects carried, for the tab's label. */
export function setCookieCount(result: SendResult): number {
  return rowsOf(result).length;
}

/** Name, value and attributes as the header wrote them (the outcome's name is empty when it did not parse). */
function split(header: string): { name: string; value: string; attributes: string } {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  return { name: eq < 0 ? '' : pair.slice(0, eq).trim(), value: eq < 0 ? pair.trim() : pair.slice(eq + 1).trim(), attributes: attributes.map((a) => a.trim()).join('; ') };
}

/** The reason without the words the badge already says, as a sentence. */
function reasonText(message: string): string {
  const rest = message.replace(/^(Ignored|Deleted from the jar): /, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

const LABEL = { stored: 'Stored', deleted: 'Deleted from the jar', ignored: 'Ignored' } as const;
const BADGE = { stored: 'badge-ok', deleted: 'badge-warn', ignored: 'badge-err' } as const;

export function ResponseCookies({ result }: { result: SendResult }) {
  // Its own toggle: showing this response's values does not show the whole jar's.
  const showValues = useSignal(false);
  const rows = rowsOf(result);
  const host = (() => {
    try {
      return new URL(result.url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return '';
    }
  })();
  const manage = (
    <button class="button small" onClick={() => openCookieJar(host)}>
      Manage cookies…
    </button>
  );
  if (rows.length === 0) {
    return (
      <div class="response-cookies">
        <div class="toolbar">
          <span class="muted">The response set no cookies.</span>
          <span class="spacer" />
          {manage}
        </div>
      </div>
    );
  }
  const multiHop = result.hops.length > 0;
  return (
    <div class="response-cookies">
      <div class="toolbar">
        <label class="checkbox">
          <input type="checkbox" checked={showValues.value} onChange={(e) => (showValues.value = (e.target as HTMLInputElement).checked)} /> Show values
        </label>
        <span class="spacer" />
        {manage}
      </div>
      <table class="kv-table cookie-outcomes">
        <thead>
          <tr>
            <th>Name</th>
            <th>Value</th>
            <th>Outcome</th>
            <th>Expires</th>
            <th>Attributes</th>
            {multiHop && <th>From</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const parts = split(row.header);
            const o = row.outcome;
            return (
              <tr key={i} data-outcome={o?.outcome ?? 'unknown'}>
                <td class="mono jar-name">{o?.name || parts.name || <span class="muted">(none)</span>}</td>
                <td class="mono jar-value">{showValues.value ? parts.value || <span class="muted">(empty)</span> : MASK}</td>
                <td class="cookie-outcome">
                  {o ? (
                    <>
                      <span class={`badge ${BADGE[o.outcome]}`}>{LABEL[o.outcome]}</span>
                      {o.reason && <div class={`outcome-reason${o.outcome === 'deleted' ? ' muted' : ''}`}>{reasonText(o.reason.message)}</div>}
                      {o.outcome === 'stored' && o.existed && <div class="outcome-reason muted">replaced the cookie of the same name</div>}
                      {o.evicted?.length ? (
                        <div class="outcome-reason muted">
                          the jar dropped {o.evicted.map((k) => `${k.name} of ${k.domain}`).join(', ')} (it expired soonest) to stay within its limits
                        </div>
                      ) : null}
                    </>
                  ) : (
                    <span class="muted">not taken into the jar</span>
                  )}
                </td>
                <td title={o?.expires}>
                  {o?.outcome === 'stored' ? expiryText(o.expires) : ''}
                  {o?.persisted === false && <div class="outcome-reason muted">kept until Parley quits: no secure storage</div>}
                </td>
                <td class="mono muted">{parts.attributes}</td>
                {multiHop && (
                  <td class="muted" title={row.url}>
                    {row.hop < result.hops.length ? `hop ${row.hop + 1} (${row.status})` : `final (${row.status})`}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
