/**
 * WSDL import: the entry and every document it imports or includes are read through the job's
 * loader (its credential, origin, size and deadline rules) and cached beside the project; each
 * SOAP binding becomes an API with one request per operation whose body is a first request
 * envelope (docs/soap.md). Problems in the documents are reported, not fatal.
 */
import { ParleyError, isWireError } from '../../../../protocol/errors.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { CachedDocument, ImportResult, PlacedRequest, ReportItem, UnimportedItem } from '../../../../protocol/model/import.js';
import { defaultSettings, emptyBody, type Request } from '../../../../protocol/model/request.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import { resolveRefLocation } from '../../../../protocol/ref-location.js';
import { WsdlError, readWsdl, sampleEnvelope, type WsdlBinding, type WsdlDefinition, type WsdlReader } from '../../../../protocol/wsdl/index.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { assignCachePaths } from '../load/cache-paths.js';
import { fingerprintDocuments, shownDocument } from '../load/document-set.js';
import { decodeText } from '../load/parse-text.js';
import { definitionSecretName, entryUrlOf, kerberosRecord } from '../openapi/convert.js';

/** Loader failures that cost one imported document, not the import (as for OpenAPI `$ref`s). */
const SOFT_FAILURES = new Set(['import-fetch-failed', 'import-fetch-deadline', 'import-file-unreadable', 'import-ref-refused', 'import-not-a-file', 'import-offline', 'auth-required', 'auth-refused', 'import-too-large']);

export interface SoapHeaders {
  contentType: string;
  soapAction?: string;
}

/** The headers a SOAP request carries: 1.1 Content-Type text/xml and SOAPAction; 1.2 the action in the Content-Type. */
export function soapHeaders(version: '1.1' | '1.2', action: string): SoapHeaders {
  if (version === '1.2') return { contentType: `application/soap+xml; charset=utf-8${action ? `; action="${action.replace(/["\\]/g, '\\$&')}"` : ''}` };
  return { contentType: 'text/xml; charset=utf-8', soapAction: `"${action.replace(/["\\]/g, '\\$&')}"` };
}

interface ReadDocument {
  url: string;
  bytes: Uint8Array;
}

export async function convertWsdl(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const redactor = ctx.loader.redactor;
  const entryUrl = entryUrlOf(input);
  const name = input.name ?? 'pasted text';
  ctx.onProgress?.({ phase: 'read', message: `Reading ${redactor.text(name)}` });
  const documents: ReadDocument[] = [{ url: entryUrl, bytes: input.bytes ?? new TextEncoder().encode(input.text) }];
  const scope = ctx.loader.within ? { within: ctx.loader.within } : {};
  const reader: WsdlReader = async (ref, base) => {
    if (ctx.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
    const location = resolveRefLocation(ref, base, { ...scope, documentName: shownDocument(base, ctx.loader.within) });
    if (!location.ok) throw new ParleyError('wsdl-unreadable', location.error.message);
    if (location.url.startsWith('paste:')) throw new ParleyError('wsdl-unreadable', `${JSON.stringify(ref)} is relative to the pasted text, which has no address; import the WSDL from a file or URL instead.`);
    ctx.onProgress?.({ phase: 'resolve', message: `Reading ${redactor.url(location.url)}`, done: documents.length });
    try {
      const read = await ctx.loader.load(new URL(location.url), 'xml-ref', base);
      if (!documents.some((d) => d.url === read.url)) documents.push({ url: read.url, bytes: read.bytes });
      return { location: read.url, text: decodeText(read.bytes) };
    } catch (err) {
      if (isWireError(err) && SOFT_FAILURES.has(err.code)) throw new ParleyError('wsdl-unreadable', err.message);
      throw err;
    }
  };
  let definition: WsdlDefinition;
  try {
    definition = await readWsdl({ location: entryUrl, text: input.text }, reader);
  } catch (err) {
    if (err instanceof WsdlError && err.code === 'wsdl-not-wsdl') throw new ParleyError('import-malformed', redactor.text(err.message));
    if (err instanceof WsdlError) throw new ParleyError(err.code, redactor.text(err.message), { file: shownFor(String((err.data as { location?: string }).location ?? ''), ctx) });
    throw err;
  }
  if (definition.bindings.length === 0) {
    throw new ParleyError('import-refused', `${redactor.text(name)} has no SOAP 1.1 or 1.2 binding, so there is nothing to import.`);
  }
  ctx.onProgress?.({ phase: 'convert', message: `Converting ${definition.bindings.length} binding${definition.bindings.length === 1 ? '' : 's'}` });

  // Only documents the WSDL read are cached (a document read twice under two names is one file).
  const kept = documents.filter((d) => definition.documents.includes(d.url));
  const paths = assignCachePaths(kept.map((d) => d.url), 'json');
  if (kept[0] && kept[0].url.startsWith('paste:')) paths[0] = 'service.wsdl';
  const cache = ctx.options.cacheDefinition !== false;
  const cached: CachedDocument[] = cache ? kept.map((d, i) => ({ path: paths[i] ?? `document-${i}.xml`, bytes: d.bytes, source: redactor.url(d.url) })) : [];
  const fingerprint = fingerprintDocuments(kept);
  const source = sourceOf(input, ctx);
  const apis: ImportResult['apis'] = [];
  let requestCount = 0;
  const baseName = ctx.options.name?.trim();
  for (const binding of definition.bindings) {
    const apiId = ctx.newId('a');
    const endpoint = binding.ports[0]?.address ?? '';
    const apiName = baseName ? (definition.bindings.length === 1 ? baseName : `${baseName} ${binding.name}`) : binding.name || definition.name || 'SOAP interface';
    const auth = requestAuth(ctx, apiId);
    const api: Api = {
      version: 1,
      id: apiId,
      name: apiName,
      baseUrl: ctx.options.baseUrl?.trim() || endpoint,
      auth,
      definition: {
        format: 'wsdl-1.1',
        ...(source ? { source: source(apiId) } : {}),
        cached: cached.map((d) => `${DEFINITION_DIR}/${d.path}`),
        fingerprint,
      },
      soap: { binding: binding.name, namespace: binding.namespace, soapVersion: binding.soapVersion, sources: cached.map((d) => d.source) },
    };
    const requests: PlacedRequest[] = binding.operations.map((op) => ({ folder: '', request: soapRequest(definition, binding, op.name, ctx.newId('r'), ctx.options.baseUrl?.trim() || endpoint) }));
    requestCount += requests.length;
    // Each API keeps its own copy of the fetch secret, so removing one interface never strands another.
    const secret = ctx.sourceCredentials && ctx.sourceCredentials.type !== 'kerberos' ? { name: definitionSecretName(apiId), from: secretFrom(ctx) } : undefined;
    apis.push({ api, folders: [], requests, documents: cached, ...(secret ? { secret } : {}) });
  }
  const first = apis[0]!.api;
  const unimported: UnimportedItem[] = [];
  const warnings: ReportItem[] = [];
  const errors: ReportItem[] = [];
  for (const p of definition.problems) {
    const file = shownFor(p.location, ctx);
    const message = redactor.text(p.message);
    if (p.code === 'wsdl-binding-not-soap' || p.code === 'wsdl-operation-missing') unimported.push({ item: message.split(' is not')[0] ?? message, reason: message, file });
    else if (p.code === 'wsdl-import-unreadable' || p.code === 'wsdl-import-invalid') errors.push({ message, file });
    else warnings.push({ message, file });
  }
  ctx.onProgress?.({ phase: 'done', message: `Imported ${requestCount} request${requestCount === 1 ? '' : 's'}`, done: requestCount, total: requestCount });
  const notes: ReportItem[] = definition.bindings.map((b) => ({ message: `${b.name}: SOAP ${b.soapVersion}, ${b.style}, ${b.operations.length} operation${b.operations.length === 1 ? '' : 's'}${b.ports[0] ? ` at ${redactor.url(b.ports[0].address)}` : ', no endpoint address'}.` }));
  if (cache && cached.length > 1) notes.push({ message: `${cached.length} documents (the WSDL and what it imports or includes) are cached with the project, so the interface works offline.` });
  return {
    apis,
    report: {
      format: 'wsdl',
      declaredVersion: 'wsdl-1.1',
      baseUrl: first.baseUrl,
      requestCount,
      folderCount: 0,
      webhookCount: 0,
      securitySchemes: [],
      unimported,
      warnings,
      errors,
      notes,
      importedAt: ctx.now().toISOString(),
    },
  };
}

/** One request for an operation: POST to the endpoint, the envelope as an XML body, the version's headers. */
export function soapRequest(definition: WsdlDefinition, binding: WsdlBinding, operationName: string, id: string, endpoint: string): Request {
  const op = binding.operations.find((o) => o.name === operationName);
  if (!op) throw new ParleyError('not-found', `Binding ${binding.name} has no operation ${operationName}.`);
  const headers = soapHeaders(binding.soapVersion, op.soapAction);
  const body = emptyBody();
  body.kind = 'raw';
  body.raw = { language: 'xml', text: sampleEnvelope(definition, binding, op, 'input') };
  const request: Request = {
    version: 1,
    id,
    name: op.name || 'operation',
    method: 'POST',
    url: endpoint,
    pathParams: [],
    query: [],
    headers: [
      { name: 'Content-Type', value: headers.contentType, enabled: true },
      ...(headers.soapAction !== undefined ? [{ name: 'SOAPAction', value: headers.soapAction, enabled: true }] : []),
    ],
    body,
    auth: { type: 'inherit' },
    settings: defaultSettings(),
    soap: { binding: binding.name, operation: op.name, soapVersion: binding.soapVersion, action: op.soapAction },
  };
  if (op.documentation) request.description = op.documentation;
  return request;
}

function shownFor(location: string, ctx: ImportContext): string {
  return ctx.loader.redactor.text(shownDocument(location, ctx.loader.within));
}

function secretFrom(ctx: ImportContext): 'password' | 'token' | 'apikey' {
  const c = ctx.sourceCredentials;
  return c?.type === 'basic' ? 'password' : c?.type === 'bearer' ? 'token' : 'apikey';
}

/** The API's auth: none (an API has nothing to inherit from), or with "Use these credentials for requests too" the Basic definition credentials. */
function requestAuth(ctx: ImportContext, apiId: string): Auth {
  const c = ctx.sourceCredentials;
  if (ctx.options.useCredentialsForRequests && c?.type === 'basic') return { type: 'basic', username: c.username, password: `\${secret:${definitionSecretName(apiId)}}` };
  return { type: 'none' };
}

function sourceOf(input: ImportInput, ctx: ImportContext): ((apiId: string) => NonNullable<NonNullable<Api['definition']>['source']>) | undefined {
  const location = input.location;
  if (location?.kind === 'file') return () => ({ kind: 'file', location: location.path });
  if (location?.kind !== 'url') return undefined;
  const credentials = ctx.sourceCredentials;
  return (apiId) => {
    if (!credentials) return { kind: 'url', location: location.url };
    if (credentials.type === 'kerberos') return { kind: 'url', location: location.url, credentials: kerberosRecord(credentials) };
    const secret = `\${secret:${definitionSecretName(apiId)}}`;
    const recorded =
      credentials.type === 'basic'
        ? { type: 'basic' as const, username: credentials.username, secret }
        : credentials.type === 'bearer'
          ? { type: 'bearer' as const, secret }
          : { type: 'apikey' as const, name: credentials.name, in: credentials.in, secret };
    return { kind: 'url', location: location.url, credentials: recorded };
  };
}
