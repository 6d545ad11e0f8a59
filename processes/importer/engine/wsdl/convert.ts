/**
 * WSDL import: the entry and every document it imports or includes are read through the job's
 * loader (its credential, origin, size and deadline rules) and cached beside the project; each
 * SOAP binding becomes an API with one request per operation whose body is a first request
 * envelope (docs/soap.md). Problems in the documents are reported, not fatal.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { CachedDocument, ImportResult, PlacedRequest, ReportItem, UnimportedItem } from '../../../../protocol/model/import.js';
import { defaultSettings, emptyBody, type Request } from '../../../../protocol/model/request.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import { sampleEnvelope, type WsdlBinding, type WsdlDefinition } from '../../../../protocol/wsdl/index.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { definitionSecretName, kerberosRecord } from '../openapi/convert.js';
import { readWsdlDocuments, shownIn } from './read-documents.js';

export interface SoapHeaders {
  contentType: string;
  soapAction?: string;
}

/** The headers a SOAP request carries: 1.1 Content-Type text/xml and SOAPAction; 1.2 the action in the Content-Type. */
export function soapHeaders(version: '1.1' | '1.2', action: string): SoapHeaders {
  if (version === '1.2') return { contentType: `application/soap+xml; charset=utf-8${action ? `; action="${action.replace(/["\\]/g, '\\$&')}"` : ''}` };
  return { contentType: 'text/xml; charset=utf-8', soapAction: `"${action.replace(/["\\]/g, '\\$&')}"` };
}

export async function convertWsdl(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const redactor = ctx.loader.redactor;
  const name = input.name ?? 'pasted text';
  const { definition, documents, fingerprint } = await readWsdlDocuments(input, ctx);
  if (definition.bindings.length === 0) {
    throw new ParleyError('import-refused', `${redactor.text(name)} has no SOAP 1.1 or 1.2 binding, so there is nothing to import.`);
  }
  ctx.onProgress?.({ phase: 'convert', message: `Converting ${definition.bindings.length} binding${definition.bindings.length === 1 ? '' : 's'}` });

  const cache = ctx.options.cacheDefinition !== false;
  const cached: CachedDocument[] = cache ? documents : [];
  const source = sourceOf(input, ctx);
  const apis: ImportResult['apis'] = [];
  let requestCount = 0;
  const baseName = ctx.options.name?.trim();
  for (const binding of definition.bindings) {
    const apiId = ctx.newId('a');
    const endpoint = binding.ports[0]?.address ?? '';
    const apiName = baseName ? (definition.bindings.length === 1 ? baseName : `${baseName} ${binding.name}`) : binding.name || definition.name || 'SOAP interface';
    const auth = requestAuth(ctx, apiId);
    const api = soapApi({ id: apiId, name: apiName, baseUrl: ctx.options.baseUrl?.trim() || endpoint, auth, binding, cached, fingerprint, ...(source ? { source: source(apiId) } : {}) });
    // Operations in the WSDL's order (order-keys.ts).
    const order = new SourceOrder();
    const requests: PlacedRequest[] = binding.operations.map((op) => ({ folder: '', request: order.request('', soapRequest(definition, binding, op.name, ctx.newId('r'), ctx.options.baseUrl?.trim() || endpoint)) }));
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

/** The API of one SOAP binding, its cached definition recorded with where each file came from (docs/soap.md). */
export function soapApi(a: { id: string; name: string; baseUrl: string; auth: Auth; binding: Pick<WsdlBinding, 'name' | 'namespace' | 'soapVersion'>; cached: readonly CachedDocument[]; fingerprint?: string; source?: NonNullable<Api['definition']>['source'] }): Api {
  // Without a fingerprint nothing was read: the API has no definition record (a SoapUI interface whose WSDL could not be read).
  return {
    version: 1,
    id: a.id,
    name: a.name,
    baseUrl: a.baseUrl,
    auth: a.auth,
    ...(a.fingerprint !== undefined ? { definition: { format: 'wsdl-1.1', ...(a.source ? { source: a.source } : {}), cached: a.cached.map((d) => `${DEFINITION_DIR}/${d.path}`), fingerprint: a.fingerprint } } : {}),
    soap: { binding: a.binding.name, namespace: a.binding.namespace, soapVersion: a.binding.soapVersion, sources: a.cached.map((d) => d.source) },
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
  return shownIn(ctx.loader, location);
}

function secretFrom(ctx: ImportContext): 'password' | 'token' | 'apikey' {
  const c = ctx.sourceCredentials;
  return c?.type === 'basic' ? 'password' : c?.type === 'bearer' ? 'token' : 'apikey';
}

/** The API's auth: none (an API has nothing to inherit from), or with "Use these credentials for requests too" the Basic definition credentials. */
function requestAuth(ctx: ImportContext, apiId: string): Auth {
  const c = ctx.sourceCredentials;
  if (ctx.options.useCredentialsForRequests && c?.type === 'basic') return { type: 'basic', username: c.username, password: `\${secret:${definitionSecretName(apiId)}}` };
  // Kerberos stores nothing: the requests use the signed-in ticket, for the same SPN if one was given.
  if (ctx.options.useCredentialsForRequests && c?.type === 'kerberos') return { type: 'kerberos', ...(c.spn?.trim() ? { spn: c.spn.trim() } : {}) };
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
