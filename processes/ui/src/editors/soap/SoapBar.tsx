/**
 * Above a SOAP request's sections: its SOAP version, binding and operation, and the action it
 * sends, edited in place: SOAP 1.1's SOAPAction header, or the `action` parameter of SOAP 1.2's
 * Content-Type (docs/soap.md). The URL bar is the endpoint; the envelope is the XML body.
 */
import { useEffect } from 'preact/hooks';
import type { Request } from '../../../../../protocol/model/request.js';
import { edit, type RequestTabState } from '../../state/request-tabs.js';
import './soap.css';

function headerValue(request: Request, name: string): string | undefined {
  return request.headers.find((h) => h.enabled && h.name.toLowerCase() === name.toLowerCase())?.value;
}

/** The action as the request sends it now (its header, else what the import recorded). */
export function soapActionOf(request: Request): string {
  if (request.soap?.soapVersion === '1.2') {
    const match = /;\s*action\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(headerValue(request, 'Content-Type') ?? '');
    return match ? match[1]!.replace(/\\(.)/g, '$1') : (request.soap.action ?? '');
  }
  const header = headerValue(request, 'SOAPAction');
  return header === undefined ? (request.soap?.action ?? '') : header.replace(/^"(.*)"$/, '$1');
}

const quoted = (action: string) => `"${action.replace(/["\\]/g, '\\$&')}"`;

/** The request with its action set in the header its SOAP version uses. */
export function withSoapAction(request: Request, action: string): Request {
  const soap = request.soap!;
  const headers = [...request.headers];
  if (soap.soapVersion === '1.2') {
    const i = headers.findIndex((h) => h.name.toLowerCase() === 'content-type');
    const base = (i >= 0 ? headers[i]!.value : 'application/soap+xml; charset=utf-8').replace(/;\s*action\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i, '');
    const value = action ? `${base}; action=${quoted(action)}` : base;
    if (i >= 0) headers[i] = { ...headers[i]!, value };
    else headers.push({ name: 'Content-Type', value, enabled: true });
  } else {
    const i = headers.findIndex((h) => h.name.toLowerCase() === 'soapaction');
    if (i >= 0) headers[i] = { ...headers[i]!, value: quoted(action) };
    else headers.push({ name: 'SOAPAction', value: quoted(action), enabled: true });
  }
  return { ...request, headers, soap: { ...soap, action } };
}

export function SoapBar({ state, draft }: { state: RequestTabState; draft: Request }) {
  const soap = draft.soap!;
  // A SOAP request opens on its envelope.
  useEffect(() => {
    if (state.section.peek() === 'params') state.section.value = 'body';
  }, [state.tab.id]);
  const label = soap.soapVersion === '1.2' ? 'action' : 'SOAPAction';
  return (
    <div class="soap-bar" aria-label="SOAP operation">
      <span class="badge badge-ok" title="This request was made from a WSDL operation">
        SOAP {soap.soapVersion}
      </span>
      <span class="soap-op" title={`${soap.binding} / ${soap.operation}`}>
        {soap.binding} / {soap.operation}
      </span>
      <label>
        <span>{label}</span>
        <input class="mono" aria-label={label} spellcheck={false} value={soapActionOf(draft)} onInput={(e) => edit(state, (r) => withSoapAction(r, (e.target as HTMLInputElement).value))} />
      </label>
    </div>
  );
}
