/**
 * Definition update rules 2-5, applied: every request linked to an operation still in the
 * document is merged field by field (merge-request); one whose operation is gone is kept and
 * badged orphaned; an orphaned one whose operation came back is restored; operations new in
 * the document get new requests; a request with no operation link is left exactly as it is.
 * Nothing is ever deleted. API-wide: base URL, auth and definition version follow the same
 * "only while still as generated" rule.
 *
 * The caller refuses an Apply whose sources changed since the preview by passing the
 * preview's fingerprint as `expectedFingerprint` with a fresh read as `next`.
 */
import type { Api, DefinitionSource } from '../../../../protocol/model/api.js';
import type { DefinitionUpdateResult, PlacedRequest } from '../../../../protocol/model/import.js';
import type { GeneratedFields, Request } from '../../../../protocol/model/request.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import { fingerprintDocuments } from '../load/document-set.js';
import { cachedDocumentsOf } from '../openapi/convert.js';
import { buildDefinition, type BuiltDefinition } from '../openapi/definition.js';
import { requestFromGenerated } from '../openapi/generate/request.js';
import { mergeRequest, sameValue, visiblyChanged } from './merge-request.js';
import { keyOf, type DefinitionUpdateInput } from './preview.js';
import { refuseIfChanged } from './unchanged-since-preview.js';

export interface ApplyOptions {
  newId: (prefix: string) => string;
  /** The preview's fingerprint: Apply is refused when the fresh read differs. */
  expectedFingerprint?: string;
  /**
   * Where the definition now comes from (rule 6): a new source replaces the recorded one,
   * null clears it, absent keeps it.
   */
  source?: DefinitionSource | null;
}

export function applyDefinitionUpdate(input: DefinitionUpdateInput, options: ApplyOptions): DefinitionUpdateResult {
  const fingerprint = fingerprintDocuments(input.next.set.documents);
  refuseIfChanged(options.expectedFingerprint, fingerprint);
  const next = buildDefinition(input.next.set, input.next.version);
  const old = input.old ? buildDefinition(input.old.set, input.old.version) : null;
  const nextOps = new Map(next.operations.map((g) => [keyOf(g.key), g] as const));
  const oldOps = new Map((old?.operations ?? []).map((g) => [keyOf(g.key), g] as const));
  const counts = { added: 0, rewritten: 0, orphaned: 0, restored: 0 };

  const requests = input.requests.map((request): Request => {
    if (!request.operation) return request;
    const key = keyOf(request.operation);
    const generation = nextOps.get(key);
    if (!generation) {
      const out: Request = { ...request, orphaned: true };
      delete out.restored;
      if (!request.orphaned) counts.orphaned++;
      return out;
    }
    const before: GeneratedFields | undefined = request.generated ?? oldOps.get(key)?.generated;
    const merged = mergeRequest(request, before, generation.generated);
    delete merged.restored;
    if (request.orphaned) {
      delete merged.orphaned;
      merged.restored = true;
      counts.restored++;
    }
    if (visiblyChanged(request, merged)) counts.rewritten++;
    return merged;
  });

  // New in the document and linked by no request. An operation the old document already had
  // but no request links to was deleted by the user, and is not brought back.
  const linked = new Set(input.requests.filter((r) => r.operation).map((r) => keyOf(r.operation as NonNullable<Request['operation']>)));
  const known = old ? new Set(oldOps.keys()) : linked;
  const added: PlacedRequest[] = next.operations
    .filter((g) => !known.has(keyOf(g.key)) && !linked.has(keyOf(g.key)))
    .map((g) => ({ folder: g.folder, request: requestFromGenerated(g, options.newId('r')) }));
  counts.added = added.length;

  const documents = cachedDocumentsOf(input.next.set);
  return { api: mergeApi(input.api, next, input.next.version.label, fingerprint, documents.map((d) => d.path), options.source), requests, added, counts, documents };
}

function mergeApi(api: Api, next: BuiltDefinition, format: string, fingerprint: string, cached: string[], source: DefinitionSource | null | undefined): Api {
  const before = api.generated;
  const out: Api = structuredClone(api);
  if (before && api.baseUrl === before.baseUrl) out.baseUrl = next.api.baseUrl;
  if (before && sameValue(api.auth, before.auth)) out.auth = structuredClone(next.api.auth);
  const definition = { ...(api.definition ?? { format, cached: [], fingerprint }) };
  definition.format = format;
  definition.cached = cached.map((p) => `${DEFINITION_DIR}/${p}`);
  definition.fingerprint = fingerprint;
  if (before && (api.definition?.apiVersion ?? '') === before.apiVersion) {
    if (next.api.apiVersion === '') delete definition.apiVersion;
    else definition.apiVersion = next.api.apiVersion;
  }
  if (source === null) delete definition.source;
  else if (source !== undefined) definition.source = source;
  out.definition = definition;
  out.generated = structuredClone(next.api);
  return out;
}
