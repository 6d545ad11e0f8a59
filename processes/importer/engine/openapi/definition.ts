/**
 * From documents to what an import (and a definition update) generates: read the entry's
 * version, read every document it leads to, normalize, and generate one request per
 * operation plus the API-wide values. The same function serves the import and both sides of
 * a definition update, so "what the old document generated" is computed exactly as at import.
 */
import type { Auth } from '../../../../protocol/model/auth.js';
import type { ImportProgress, ReportItem, SecuritySchemeSummary } from '../../../../protocol/model/import.js';
import type { DocumentSet } from '../load/document-set.js';
import type { DocumentLoader } from '../load/loader.js';
import { loadDocumentSet } from '../load/load-document-set.js';
import { decodeText, parseText } from '../load/parse-text.js';
import { discoverExternalRefs } from './discover-refs.js';
import { requirementAuth, schemeSummary } from './generate/auth.js';
import { generateOperation, type GeneratedOperation } from './generate/request.js';
import type { NApi } from './normalize/model.js';
import { normalizeOas3 } from './normalize/oas3.js';
import { discoverDeclarations, normalizeSwagger1 } from './normalize/swagger1.js';
import { normalizeSwagger2 } from './normalize/swagger2.js';
import { declaredVersion, type DeclaredVersion } from './version.js';

export interface EntrySource {
  /** file:, http(s): or paste: URL of the entry (no credential in it). */
  url: string;
  bytes: Uint8Array;
  /** For messages: file name or URL. */
  name: string;
  /** The bytes already decoded, when the caller has them (saves a second copy of a large text). */
  text?: string;
}

export interface ReadDefinition {
  set: DocumentSet;
  version: DeclaredVersion;
  /** Documents that could not be read. */
  problems: ReportItem[];
}

/** Reads the entry and every document it leads to. Throws `import-malformed` for a broken entry. */
export async function readDefinition(entry: EntrySource, loader: DocumentLoader, onProgress?: (e: ImportProgress) => void, signal?: AbortSignal): Promise<ReadDefinition> {
  const parsed = parseText(entry.text ?? decodeText(entry.bytes), entry.name);
  const version = declaredVersion(parsed.value, entry.name);
  const discover = version.family === 'swagger1' ? discoverDeclarations : discoverExternalRefs;
  const { set, problems } = await loadDocumentSet({ url: entry.url, bytes: entry.bytes, name: entry.name, parsed }, loader, { discover, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) });
  return { set, version, problems };
}

export interface BuiltDefinition {
  napi: NApi;
  operations: GeneratedOperation[];
  webhooks: GeneratedOperation[];
  /** API-wide values as the document generates them. */
  api: { baseUrl: string; auth: Auth; apiVersion: string };
  securitySchemes: SecuritySchemeSummary[];
}

export function normalizeDefinition(set: DocumentSet, version: DeclaredVersion): NApi {
  if (version.family === 'swagger1') return normalizeSwagger1(set, version);
  if (version.family === 'swagger2') return normalizeSwagger2(set, version);
  return normalizeOas3(set, version);
}

export function buildDefinition(set: DocumentSet, version: DeclaredVersion): BuiltDefinition {
  const outline = outlineDefinition(set, version);
  return { ...outline, operations: outline.napi.operations.map((op) => generateOperation(op, outline.napi)) };
}

/** Everything buildDefinition makes except the operations' generations (see generateEach). */
export function outlineDefinition(set: DocumentSet, version: DeclaredVersion): Omit<BuiltDefinition, 'operations'> {
  const napi = normalizeDefinition(set, version);
  const securitySchemes = napi.schemes.map(schemeSummary);
  napi.schemes.forEach((scheme, i) => {
    const summary = securitySchemes[i];
    if (summary?.unusable) napi.unimported.push({ item: `security scheme ${scheme.name}`, reason: summary.unusable, ...set.locate(scheme.loc.docUrl, scheme.loc.pointer) });
  });
  const webhooks = napi.webhooks.map((op) => {
    const generated = generateOperation(op, napi);
    // A webhook has no address in the document: the receiver's URL is the user's to fill in.
    if (op.webhook) generated.generated.url = '';
    return generated;
  });
  return {
    napi,
    webhooks,
    api: { baseUrl: napi.baseUrl, auth: requirementAuth(napi.security, napi.schemes), apiVersion: napi.apiVersion ?? '' },
    securitySchemes,
  };
}

/**
 * Generates `napi`'s operations one at a time, in order, emptying `napi.operations` as it goes:
 * an import needs each normalized operation only until its request is made, and Microsoft
 * Graph's 11,422 held at once beside their generations and requests were 45 MB of the importer's
 * live heap (bench/README.md, "Microsoft Graph").
 */
export function* generateEach(napi: NApi): Generator<GeneratedOperation> {
  // Last first, so each one taken is let go of before the next is made.
  const pending = napi.operations.reverse();
  napi.operations = [];
  for (let op = pending.pop(); op !== undefined; op = pending.pop()) yield generateOperation(op, napi);
}
