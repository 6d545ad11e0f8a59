/**
 * OpenAPI import: documents in, one API with folders and requests out (plus the Webhooks
 * collection's folder), with the summary report SPEC's import dialog shows. Ids and the clock
 * come from the context, so the same documents always give the same output.
 */
import { pathToFileURL } from 'node:url';
import { safeFileName } from '../../../../protocol/project/safe-path.js';
import type { Api, DefinitionSource } from '../../../../protocol/model/api.js';
import type { FetchCredentials, ImportResult, SecretToStore, UnimportedItem, WebhooksOutput } from '../../../../protocol/model/import.js';
import { RequestOutlet } from '../../../../protocol/model/import-parts.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import type { ImportContext, ImportInput } from '../importer.js';
import type { DocumentSet } from '../load/document-set.js';
import { fingerprintDocuments } from '../load/document-set.js';
import { generateEach, outlineDefinition, readDefinition } from './definition.js';
import { requestFromGenerated } from './generate/request.js';

/** Operations between two progress events of the conversion. */
const PROGRESS_EVERY = 500;

/** The keychain entry holding the secret an API's definition is fetched with. */
export function definitionSecretName(apiId: string): string {
  return `api.${apiId}.definition`;
}

/** What a source fetched with Kerberos records: the choice and its SPN, no secret (the ticket is the user's sign-in). */
export function kerberosRecord(credentials: Extract<FetchCredentials, { type: 'kerberos' }>): { type: 'kerberos'; spn?: string } {
  const spn = credentials.spn?.trim();
  return spn ? { type: 'kerberos', spn } : { type: 'kerberos' };
}

export async function convertOpenApi(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const redactor = ctx.loader.redactor;
  const entryUrl = entryUrlOf(input);
  const name = input.name ?? 'pasted text';
  ctx.onProgress?.({ phase: 'read', message: `Reading ${redactor.text(name)}` });
  const read = await readDefinition({ url: entryUrl, bytes: input.bytes ?? new TextEncoder().encode(input.text), text: input.text, name: redactor.text(name) }, ctx.loader, ctx.onProgress, ctx.signal);
  ctx.onProgress?.({ phase: 'convert', message: `Converting ${read.set.documents.length} document${read.set.documents.length === 1 ? '' : 's'}` });
  const built = outlineDefinition(read.set, read.version);
  const { napi } = built;
  const options = ctx.options;
  const apiId = ctx.newId('a');
  const apiName = options.name?.trim() || napi.title?.trim() || fallbackName(input);
  const cache = options.cacheDefinition !== false;
  const documents = cache ? read.set.documents.map((d) => ({ path: d.cachePath, bytes: d.bytes, source: d.url })) : [];
  const source = sourceOf(input, ctx.sourceCredentials, apiId);
  const api: Api = {
    version: 1,
    id: apiId,
    name: apiName,
    baseUrl: options.baseUrl?.trim() || built.api.baseUrl,
    auth: structuredClone(built.api.auth),
    definition: {
      format: read.version.label,
      ...(source ? { source } : {}),
      cached: documents.map((d) => `${DEFINITION_DIR}/${d.path}`),
      fingerprint: fingerprintDocuments(read.set.documents),
      ...(napi.apiVersion !== undefined ? { apiVersion: napi.apiVersion } : {}),
    },
    generated: structuredClone(built.api),
  };
  const requests = new RequestOutlet(0, ctx.sendPart);
  // Operations in document order (paths, then methods as written), each tag folder where its first operation is (order-keys.ts).
  const order = new SourceOrder();
  const total = napi.operations.length;
  for (const g of generateEach(napi)) {
    requests.add({ folder: g.folder, request: order.request(g.folder, requestFromGenerated(g, ctx.newId('r'), true, true)) });
    // Graph's 11,422 operations take seconds: the dialog's bar moves meanwhile.
    if (requests.count % PROGRESS_EVERY === 0 && requests.count < total) {
      ctx.onProgress?.({ phase: 'convert', message: `Made ${requests.count.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} requests`, done: requests.count, total });
    }
  }
  requests.flush();
  const unimported: UnimportedItem[] = [...napi.unimported];
  let webhooks: WebhooksOutput | undefined;
  if (built.webhooks.length > 0 && options.importWebhooks !== false) {
    const hooks = new SourceOrder();
    webhooks = { collection: 'Webhooks', folder: safeFileName(apiName, 'API'), requests: built.webhooks.map((g) => ({ folder: '', request: hooks.request('', requestFromGenerated(g, ctx.newId('r'), false)) })) };
  } else if (built.webhooks.length > 0) {
    unimported.push({ item: `${built.webhooks.length} webhook and callback operation${built.webhooks.length === 1 ? '' : 's'}`, reason: 'Import webhooks & callbacks was not ticked.' });
  }
  const folders = order.folders();
  const secret = secretOf(ctx.sourceCredentials, apiId);
  ctx.onProgress?.({ phase: 'done', message: `Imported ${requests.count} request${requests.count === 1 ? '' : 's'}`, done: requests.count, total: requests.count });
  return {
    apis: [{ api, folders, requests: requests.kept, documents, ...(secret ? { secret } : {}) }],
    ...(webhooks ? { webhooks } : {}),
    report: {
      format: 'openapi',
      declaredVersion: read.version.label,
      ...(napi.apiVersion !== undefined ? { apiVersion: napi.apiVersion } : {}),
      baseUrl: api.baseUrl,
      requestCount: requests.count,
      folderCount: folders.length,
      webhookCount: webhooks?.requests.length ?? 0,
      securitySchemes: built.securitySchemes,
      unimported: redactItems(unimported, redactor.text.bind(redactor)),
      warnings: redactItems(napi.warnings, redactor.text.bind(redactor)),
      errors: redactItems([...read.problems, ...napi.errors], redactor.text.bind(redactor)),
      importedAt: ctx.now().toISOString(),
    },
  };
}

/** The base for the entry's relative references: where it was really read from. */
export function entryUrlOf(input: ImportInput): string {
  const location = input.location;
  if (location?.kind === 'file') return pathToFileURL(location.path).href;
  if (location?.kind === 'url') return location.finalUrl ?? location.url;
  return 'paste:/pasted';
}

function sourceOf(input: ImportInput, credentials: FetchCredentials | undefined, apiId: string): DefinitionSource | undefined {
  const location = input.location;
  if (location?.kind === 'file') return { kind: 'file', location: location.path };
  if (location?.kind !== 'url') return undefined;
  if (!credentials) return { kind: 'url', location: location.url };
  if (credentials.type === 'kerberos') return { kind: 'url', location: location.url, credentials: kerberosRecord(credentials) };
  const secret = `\${secret:${definitionSecretName(apiId)}}`;
  const recorded: NonNullable<DefinitionSource['credentials']> =
    credentials.type === 'basic'
      ? { type: 'basic', username: credentials.username, secret }
      : credentials.type === 'bearer'
        ? { type: 'bearer', secret }
        : { type: 'apikey', name: credentials.name, in: credentials.in, secret };
  return { kind: 'url', location: location.url, credentials: recorded };
}

function secretOf(credentials: FetchCredentials | undefined, apiId: string): SecretToStore | undefined {
  if (!credentials || credentials.type === 'kerberos') return undefined;
  const from = credentials.type === 'basic' ? 'password' : credentials.type === 'bearer' ? 'token' : 'apikey';
  return { name: definitionSecretName(apiId), from };
}

function fallbackName(input: ImportInput): string {
  const location = input.location;
  if (location?.kind === 'url') {
    try {
      return new URL(location.url).host || 'Imported API';
    } catch {
      return 'Imported API';
    }
  }
  const base = (input.name ?? '').replace(/\.(json|ya?ml)$/i, '').trim();
  return base || 'Imported API';
}

function redactItems<T extends { message?: string; item?: string; reason?: string }>(items: T[], redact: (s: string) => string): T[] {
  return items.map((i) => ({
    ...i,
    ...(i.message !== undefined ? { message: redact(i.message) } : {}),
    ...(i.item !== undefined ? { item: redact(i.item) } : {}),
    ...(i.reason !== undefined ? { reason: redact(i.reason) } : {}),
  }));
}

/** For the definition update: the documents of a set as cached files. */
export function cachedDocumentsOf(set: DocumentSet): { path: string; bytes: Uint8Array; source: string }[] {
  return set.documents.map((d) => ({ path: d.cachePath, bytes: d.bytes, source: d.url }));
}
