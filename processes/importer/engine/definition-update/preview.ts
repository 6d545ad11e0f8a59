/**
 * Definition update rule 1: what would change, before anything does. Operations are matched
 * by method and path as the documents write them (rule 2: a renamed path is one removed and
 * one added); an operation in both is "changed" for each aspect whose signature differs.
 */
import type { Api } from '../../../../protocol/model/api.js';
import type { ApiWideChange, ChangeReason, ChangedOperation, DefinitionUpdatePreview, OperationKey } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { fingerprintDocuments } from '../load/document-set.js';
import { buildDefinition, type BuiltDefinition, type ReadDefinition } from '../openapi/definition.js';
import type { NOperation, OperationParts } from '../openapi/normalize/model.js';
import { Signer } from './signature.js';

export interface DefinitionUpdateInput {
  /** The API as stored. */
  api: Api;
  /** Every request of the API as stored. */
  requests: readonly Request[];
  /** The cached definition (readCachedDefinition); null when the API kept none. */
  old: ReadDefinition | null;
  /** The documents read from the source now. */
  next: ReadDefinition;
}

export const keyOf = (k: OperationKey): string => `${k.method} ${k.path}`;

const REASONS: [keyof OperationParts, ChangeReason][] = [
  ['parameters', 'parameters'],
  ['requestBody', 'request-body'],
  ['responses', 'responses'],
  ['security', 'security'],
  ['servers', 'servers'],
];

export function previewDefinitionUpdate(input: DefinitionUpdateInput): DefinitionUpdatePreview {
  const next = buildDefinition(input.next.set, input.next.version);
  const old = input.old ? buildDefinition(input.old.set, input.old.version) : null;
  return previewFrom(input, old, next);
}

export function previewFrom(input: DefinitionUpdateInput, old: BuiltDefinition | null, next: BuiltDefinition): DefinitionUpdatePreview {
  const nextOps = new Map(next.napi.operations.map((op) => [keyOf(op), op] as const));
  const oldKeys = old ? old.napi.operations.map(keyOf) : linkedKeys(input.requests);
  const oldOps = new Map((old?.napi.operations ?? []).map((op) => [keyOf(op), op] as const));
  const added = next.napi.operations.filter((op) => !oldKeys.includes(keyOf(op))).map(opKey);
  const removed = [...new Set(oldKeys)].filter((k) => !nextOps.has(k)).map(parseKey);
  const changed: ChangedOperation[] = [];
  if (old && input.old) {
    const before = new Signer(input.old.set);
    const after = new Signer(input.next.set);
    for (const op of next.napi.operations) {
      const previous = oldOps.get(keyOf(op));
      if (!previous) continue;
      const reasons = REASONS.filter(([part]) => before.sign(partsFor(previous, old, part)) !== after.sign(partsFor(op, next, part))).map(([, reason]) => reason);
      if (reasons.length > 0) changed.push({ ...opKey(op), reasons });
    }
  }
  const apiWide = old && input.old ? apiWideChange(input, old, next) : versionOnly(input.api, next);
  return {
    added,
    removed,
    changed,
    ...(apiWide ? { apiWide } : {}),
    declaredVersion: input.next.version.label,
    fingerprint: fingerprintDocuments(input.next.set.documents),
    warnings: [...input.next.problems, ...next.napi.errors],
  };
}

/**
 * An operation's part, plus (for security) the schemes its own requirement names, so a changed
 * scheme shows. An operation that inherits the document's security is not "changed" when that
 * changes: the API-wide line says so once.
 */
function partsFor(op: NOperation, built: BuiltDefinition, part: keyof OperationParts) {
  const parts = [...op.parts[part]];
  if (part === 'security') {
    const names = new Set((op.security ?? []).flat().map((r) => r.scheme));
    for (const scheme of built.napi.schemes) if (names.has(scheme.name)) parts.push(scheme.loc);
  }
  return parts;
}

function apiWideChange(input: DefinitionUpdateInput, old: BuiltDefinition, next: BuiltDefinition): ApiWideChange | undefined {
  const before = new Signer((input.old as ReadDefinition).set);
  const after = new Signer(input.next.set);
  const servers = old.api.baseUrl !== next.api.baseUrl || before.sign(old.napi.apiParts.servers) !== after.sign(next.napi.apiParts.servers);
  const security = before.sign(old.napi.apiParts.security) !== after.sign(next.napi.apiParts.security);
  const version = old.api.apiVersion !== next.api.apiVersion ? { from: old.api.apiVersion, to: next.api.apiVersion } : undefined;
  return servers || security || version ? { servers, security, ...(version ? { version } : {}) } : undefined;
}

/** Without the old documents only the recorded version can be compared. */
function versionOnly(api: Api, next: BuiltDefinition): ApiWideChange | undefined {
  const from = api.generated?.apiVersion ?? api.definition?.apiVersion ?? '';
  const baseChanged = api.generated !== undefined && api.generated.baseUrl !== next.api.baseUrl;
  if (from === next.api.apiVersion && !baseChanged) return undefined;
  return { servers: baseChanged, security: false, ...(from !== next.api.apiVersion ? { version: { from, to: next.api.apiVersion } } : {}) };
}

function linkedKeys(requests: readonly Request[]): string[] {
  return requests.filter((r) => r.operation && !r.orphaned).map((r) => keyOf(r.operation as OperationKey));
}

const opKey = (op: NOperation): OperationKey => ({ method: op.method, path: op.path });

function parseKey(key: string): OperationKey {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space), path: key.slice(space + 1) };
}
