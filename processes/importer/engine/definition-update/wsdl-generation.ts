/**
 * What a WSDL binding generates for each of its operations (the import's own request, plus the
 * output sample for the preview), and rule 3 for one SOAP request: a field is rewritten only
 * while it still equals what the old (cached) WSDL generated. A SOAP request has no
 * `generated` record, so the old generation is made again from the cached WSDL.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { OperationKey } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';

type Row = Request['headers'][number];
import { sampleEnvelope, type WsdlBinding, type WsdlDefinition } from '../../../../protocol/wsdl/index.js';
import { soapRequest } from '../wsdl/convert.js';
import { mergeRows, sameRow } from './merge-rows.js';

/** What one operation generates. */
export interface SoapGeneration {
  url: string;
  headers: Row[];
  envelope: string;
  action: string;
  soapVersion: '1.1' | '1.2';
  description?: string;
  /** The output envelope, only to tell a changed output ('' for a one-way operation). */
  output: string;
}

export interface BindingGeneration {
  binding: WsdlBinding;
  endpoint: string;
  /** By operation name, in document order. */
  operations: Map<string, SoapGeneration>;
}

/** An operation in a preview: SOAP, named as the binding names it. */
export const soapKey = (operation: string): OperationKey => ({ method: 'SOAP', path: operation });

/** The binding `name` of `definition`; a clear error naming the bindings it has when it is gone. */
export function bindingNamed(definition: WsdlDefinition, name: string, api: Api): WsdlBinding {
  const binding = definition.bindings.find((b) => b.name === name);
  if (binding) return binding;
  // Names from the WSDL: a few in the message, a bounded list in the data.
  const names = definition.bindings.map((b) => b.name).slice(0, 50);
  const shown = names.slice(0, 10).join(', ') + (definition.bindings.length > 10 ? ` and ${definition.bindings.length - 10} more` : '');
  throw new ParleyError(
    'definition-binding-missing',
    `The WSDL has no SOAP binding named ${name}, which ${api.name} was imported from; it has ${names.length === 0 ? 'no SOAP binding' : shown}. Import it again to add another binding.`,
    { binding: name, bindings: names },
  );
}

export function generate(definition: WsdlDefinition, binding: WsdlBinding): BindingGeneration {
  const endpoint = binding.ports[0]?.address ?? '';
  const operations = new Map<string, SoapGeneration>();
  for (const op of binding.operations) {
    if (operations.has(op.name)) continue;
    const request = soapRequest(definition, binding, op.name, 'generated', endpoint);
    operations.set(op.name, {
      url: request.url,
      headers: request.headers,
      envelope: request.body.raw.text,
      action: op.soapAction,
      soapVersion: binding.soapVersion,
      ...(request.description !== undefined ? { description: request.description } : {}),
      output: op.output ? sampleEnvelope(definition, binding, op, 'output') : '',
    });
  }
  return { binding, endpoint, operations };
}

/** Line ends and surrounding blank space are not an edit (an editor may normalise them). */
const normalised = (text: string) => text.replace(/\r\n?/g, '\n').trim();

/** Whether the request's body is still the envelope `envelope`. */
export function envelopeIs(request: Request, envelope: string): boolean {
  return request.body.kind === 'raw' && normalised(request.body.raw.text) === normalised(envelope);
}

export interface MergedSoapRequest {
  request: Request;
  /** The envelope was edited and kept though the WSDL's envelope for it differs. */
  keptEdit: boolean;
}

/**
 * Rule 3 for a SOAP request linked to an operation the new WSDL still has. `before` is what
 * the cached WSDL generated for it (absent without a cache: then nothing counts as generated).
 */
export function mergeSoapRequest(request: Request, before: SoapGeneration | undefined, after: SoapGeneration): MergedSoapRequest {
  const out: Request = structuredClone(request);
  const link = request.soap!;
  if (before && request.url === before.url) out.url = after.url;
  out.headers = mergeRows(request.headers, before?.headers, after.headers, { same: sameRow, caseInsensitive: true });
  const regenerate = before !== undefined && envelopeIs(request, before.envelope);
  if (regenerate) out.body = { ...out.body, kind: 'raw', raw: { language: 'xml', text: after.envelope } };
  const actionAsGenerated = before !== undefined && link.action === before.action;
  out.soap = { ...link, soapVersion: after.soapVersion, action: actionAsGenerated ? after.action : link.action };
  if (before && request.description === before.description) {
    if (after.description === undefined) delete out.description;
    else out.description = after.description;
  }
  const keptEdit = !regenerate && !envelopeIs(request, after.envelope) && (before === undefined || normalised(before.envelope) !== normalised(after.envelope));
  return { request: out, keptEdit };
}
