/**
 * A response that is a SOAP Fault, shown as one: a "SOAP Fault" badge on the status line and
 * the fault's code and reason above the body (faultcode/faultstring in 1.1, Code/Reason in 1.2).
 * The body is read by protocol/wsdl's safe reader, only when it can be a fault.
 */
import { useMemo } from 'preact/hooks';
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import { readSoapFault, type SoapFault } from '../../../../../protocol/wsdl/fault.js';
import { decodeText, header } from '../response/body-view.js';
import './soap.css';

function faultOf(result: SendResult): SoapFault | null {
  const type = header(result, 'content-type') ?? '';
  if (!/xml/i.test(type) || result.body.spooledTo) return null;
  return readSoapFault(decodeText(result));
}

export function useSoapFault(result: SendResult): SoapFault | null {
  return useMemo(() => faultOf(result), [result]);
}

export function SoapFaultBadge({ result }: { result: SendResult }) {
  const fault = useSoapFault(result);
  if (!fault) return null;
  return (
    <span class="badge badge-err" data-testid="soap-fault-badge" title={`${fault.code}: ${fault.reason}`}>
      SOAP Fault
    </span>
  );
}

export function SoapFaultDetails({ result }: { result: SendResult }) {
  const fault = useSoapFault(result);
  if (!fault) return null;
  return (
    <div class="soap-fault" role="alert" aria-label="SOAP Fault">
      <strong>SOAP Fault</strong>
      <dl>
        <dt>{fault.form === 'Code' ? 'Code' : 'faultcode'}</dt>
        <dd class="mono">{fault.code || '(none)'}</dd>
        <dt>{fault.form === 'Code' ? 'Reason' : 'faultstring'}</dt>
        <dd>{fault.reason || '(none)'}</dd>
        {fault.actor && (
          <>
            <dt>{fault.form === 'Code' ? 'Node' : 'faultactor'}</dt>
            <dd class="mono">{fault.actor}</dd>
          </>
        )}
      </dl>
    </div>
  );
}
