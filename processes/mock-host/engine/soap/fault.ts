/**
 * SOAP faults the mock answers with itself (refuse mode, no matching operation, a template or
 * script that failed): SOAP 1.1 faultcode/faultstring, SOAP 1.2 Code/Value and Reason/Text, with
 * Parley's stable code in the detail. Every text is XML-escaped; nothing from a request body is
 * quoted beyond the problem messages the checks wrote.
 */
import { escapeXml } from '../render-response.js';
import { ENVELOPE_NS, contentTypeFor, type SoapVersion } from './soap-version.js';

/** Who is at fault: the client's message (Client / Sender) or the mock (Server / Receiver). */
export type FaultParty = 'client' | 'server';

export interface SoapFaultSpec {
  version: SoapVersion;
  party: FaultParty;
  /** faultstring / Reason Text. */
  reason: string;
  /** Parley's stable code, e.g. mock-contract-refused. */
  code: string;
  /** Further lines (the contract check's problems), each in a <problem> of the detail. */
  problems?: readonly string[];
}

export interface SoapFaultReply {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

const PARLEY_NS = 'urn:parley:mock';

export function soapFaultXml(spec: SoapFaultSpec): string {
  const detail =
    `<p:code>${escapeXml(spec.code)}</p:code>` + (spec.problems ?? []).map((p) => `<p:problem>${escapeXml(p)}</p:problem>`).join('');
  if (spec.version === '1.1') {
    const code = spec.party === 'client' ? 'Client' : 'Server';
    return (
      `<?xml version="1.0" encoding="utf-8"?>` +
      `<soap:Envelope xmlns:soap="${ENVELOPE_NS['1.1']}"><soap:Body><soap:Fault>` +
      `<faultcode>soap:${code}</faultcode><faultstring>${escapeXml(spec.reason)}</faultstring>` +
      `<detail><p:parley xmlns:p="${PARLEY_NS}">${detail}</p:parley></detail>` +
      `</soap:Fault></soap:Body></soap:Envelope>`
    );
  }
  const code = spec.party === 'client' ? 'Sender' : 'Receiver';
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<env:Envelope xmlns:env="${ENVELOPE_NS['1.2']}"><env:Body><env:Fault>` +
    `<env:Code><env:Value>env:${code}</env:Value></env:Code>` +
    `<env:Reason><env:Text xml:lang="en">${escapeXml(spec.reason)}</env:Text></env:Reason>` +
    `<env:Detail><p:parley xmlns:p="${PARLEY_NS}">${detail}</p:parley></env:Detail>` +
    `</env:Fault></env:Body></env:Envelope>`
  );
}

/**
 * The whole reply: 500 for a fault, as SOAP 1.1's HTTP binding asks; SOAP 1.2 sends a Sender
 * fault with 400 and a Receiver fault with 500.
 */
export function soapFaultReply(spec: SoapFaultSpec): SoapFaultReply {
  const status = spec.version === '1.2' && spec.party === 'client' ? 400 : 500;
  return { status, headers: [['Content-Type', contentTypeFor(spec.version)]], body: Buffer.from(soapFaultXml(spec)) };
}
