/**
 * The definition update of a WSDL interface (one SOAP binding's API, docs/soap.md): the same
 * preview, Apply, keep-edits and refuse-if-changed rules as OpenAPI's where they apply.
 * Operations are matched by name within the API's binding (a renamed operation is one removed
 * and one added); a request is linked to its operation by its `soap` field.
 */
import type { Api, DefinitionSource } from '../../../../protocol/model/api.js';
import type { ChangeReason, ChangedOperation, DefinitionUpdatePreview, DefinitionUpdateResult, PlacedRequest } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import type { WsdlDefinition } from '../../../../protocol/wsdl/index.js';
import { soapRequest } from '../wsdl/convert.js';
import { visiblyChanged } from './merge-request.js';
import { refuseIfChanged } from './unchanged-since-preview.js';
import { bindingNamed, generate, mergeSoapRequest, soapKey, type BindingGeneration } from './wsdl-generation.js';
import type { ReadWsdlSource } from './wsdl-read.js';

export interface WsdlUpdateInput {
  /** The API as stored (it has `soap`). */
  api: Api;
  /** Every request of the API as stored. */
  requests: readonly Request[];
  /** The cached WSDL (readCachedWsdl); null when the API kept none. */
  old: WsdlDefinition | null;
  /** The WSDL read from the source now. */
  next: ReadWsdlSource;
}

export interface WsdlApplyOptions {
  newId: (prefix: string) => string;
  /** The preview's fingerprint: Apply is refused when the fresh read differs. */
  expectedFingerprint?: string;
  /** As for OpenAPI: a new source replaces the recorded one, null clears it, absent keeps it. */
  source?: DefinitionSource | null;
}

interface Plan {
  next: BindingGeneration;
  old: BindingGeneration | null;
  /** Each request passed in, updated; in the same order. */
  requests: Request[];
  keptEdits: Request[];
  counts: { rewritten: number; orphaned: number; restored: number };
  /** Operations of the new binding that get a new request. */
  added: string[];
  /** Operations of the old binding (or, without a cache, linked by a request) the new one lacks. */
  removed: string[];
  /** Operations the old binding had (or requests linked, without a cache). */
  known: Set<string>;
}

export function previewWsdlUpdate(input: WsdlUpdateInput): DefinitionUpdatePreview {
  const plan = planUpdate(input);
  const changed: ChangedOperation[] = [];
  if (plan.old) {
    for (const [name, after] of plan.next.operations) {
      const before = plan.old.operations.get(name);
      if (!before) continue;
      const reasons: ChangeReason[] = [];
      if (before.envelope !== after.envelope) reasons.push('input');
      if (before.output !== after.output) reasons.push('output');
      if (before.action !== after.action) reasons.push('action');
      if (reasons.length > 0) changed.push({ ...soapKey(name), reasons });
    }
  }
  const endpoint = plan.old && plan.old.endpoint !== plan.next.endpoint ? { from: plan.old.endpoint, to: plan.next.endpoint } : undefined;
  return {
    added: [...plan.next.operations.keys()].filter((name) => !plan.known.has(name)).map(soapKey),
    removed: plan.removed.map(soapKey),
    changed,
    ...(endpoint ? { apiWide: { servers: true, security: false, endpoint } } : {}),
    declaredVersion: 'wsdl-1.1',
    fingerprint: input.next.fingerprint,
    warnings: input.next.warnings,
    keptEdits: plan.keptEdits.map((r) => ({ ...soapKey(r.soap!.operation), id: r.id, name: r.name })),
  };
}

export function applyWsdlUpdate(input: WsdlUpdateInput, options: WsdlApplyOptions): DefinitionUpdateResult {
  refuseIfChanged(options.expectedFingerprint, input.next.fingerprint);
  const plan = planUpdate(input);
  const api = mergeApi(input, plan, options.source);
  const endpoint = api.baseUrl || plan.next.endpoint;
  const added: PlacedRequest[] = plan.added.map((name) => ({ folder: '', request: soapRequest(input.next.definition, plan.next.binding, name, options.newId('r'), endpoint) }));
  return {
    api,
    requests: plan.requests,
    added,
    counts: { added: added.length, ...plan.counts, kept: plan.keptEdits.length },
    documents: input.next.documents,
  };
}

function planUpdate(input: WsdlUpdateInput): Plan {
  const name = input.api.soap!.binding;
  const next = generate(input.next.definition, bindingNamed(input.next.definition, name, input.api));
  const oldBinding = input.old?.bindings.find((b) => b.name === name);
  const old = input.old && oldBinding ? generate(input.old, oldBinding) : null;
  const isLinked = (r: Request) => r.soap !== undefined && r.soap.binding === name;
  const counts = { rewritten: 0, orphaned: 0, restored: 0 };
  const keptEdits: Request[] = [];

  const requests = input.requests.map((request): Request => {
    // A hand-made request, or one of another binding, is left exactly as it is.
    if (!isLinked(request)) return request;
    const operation = request.soap!.operation;
    const after = next.operations.get(operation);
    if (!after) {
      const out: Request = { ...request, orphaned: true };
      delete out.restored;
      if (!request.orphaned) counts.orphaned++;
      return out;
    }
    const merged = mergeSoapRequest(request, old?.operations.get(operation), after);
    const out = merged.request;
    delete out.restored;
    if (request.orphaned) {
      delete out.orphaned;
      out.restored = true;
      counts.restored++;
    }
    if (merged.keptEdit) keptEdits.push(out);
    if (visiblyChanged(request, out)) counts.rewritten++;
    return out;
  });

  const linked = new Set(input.requests.filter(isLinked).map((r) => r.soap!.operation));
  const current = new Set(input.requests.filter((r) => isLinked(r) && !r.orphaned).map((r) => r.soap!.operation));
  const known = old ? new Set(old.operations.keys()) : current;
  // New in the WSDL and linked by no request. An operation the old WSDL already had but no
  // request links to was deleted by the user, and is not brought back.
  const added = [...next.operations.keys()].filter((op) => !known.has(op) && !linked.has(op));
  const removed = [...known].filter((op) => !next.operations.has(op));
  return { next, old, requests, keptEdits, counts, added, removed, known };
}

function mergeApi(input: WsdlUpdateInput, plan: Plan, source: DefinitionSource | null | undefined): Api {
  const { api, next } = input;
  const out: Api = structuredClone(api);
  if (plan.old && api.baseUrl === plan.old.endpoint) out.baseUrl = plan.next.endpoint;
  const definition = { ...(api.definition ?? { format: 'wsdl-1.1', cached: [], fingerprint: next.fingerprint }) };
  definition.format = 'wsdl-1.1';
  definition.cached = next.documents.map((d) => `${DEFINITION_DIR}/${d.path}`);
  definition.fingerprint = next.fingerprint;
  if (source === null) delete definition.source;
  else if (source !== undefined) definition.source = source;
  out.definition = definition;
  out.soap = { binding: plan.next.binding.name, namespace: plan.next.binding.namespace, soapVersion: plan.next.binding.soapVersion, sources: next.documents.map((d) => d.source) };
  return out;
}
