/**
 * Legacy SoapUI project import (SPEC "Legacy SOAP project import", docs/soap.md "Legacy SoapUI
 * projects"). Each WSDL interface becomes the SOAP API the WSDL importer makes for its binding,
 * read from the definition parts the project carries (fetched over HTTP(S) only when it carries
 * none); each saved call becomes a request in a folder named after its operation. Passwords are
 * never read into the result; scripts are handed back as text for imported-scripts/; what
 * Parley does not map is counted in the report with the reason.
 */
import { ParleyError, isWireError } from '../../../../protocol/errors.js';
import { isCredentialName, maskBody, maskHeaderValue, maskUrl } from '../../../../protocol/credentials/index.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { CachedDocument, ImportResult, ImportedApi, ImportedEnvironment, ImportedScript, PlacedRequest, ReportItem, UnimportedItem } from '../../../../protocol/model/import.js';
import type { Row } from '../../../../protocol/model/common.js';
import { defaultSettings, emptyBody, type Request } from '../../../../protocol/model/request.js';
import { fileNameKey, numberedFileName, portableFileName } from '../../../../protocol/project/file-names.js';
import { resolveRefLocation } from '../../../../protocol/ref-location.js';
import { WsdlError, readWsdl, type WsdlDefinition, type WsdlReader } from '../../../../protocol/wsdl/index.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import { isHttp } from '../../../../protocol/kinds/index.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { assignCachePaths } from '../load/cache-paths.js';
import { fingerprintDocuments } from '../load/document-set.js';
import { decodeText } from '../load/parse-text.js';
import { entryUrlOf } from '../openapi/convert.js';
import { soapApi, soapHeaders, soapRequest } from '../wsdl/convert.js';
import { decodeContent } from './decode.js';
import { convertExpansions } from './expansions.js';
import { readSoapuiProject, type NotMapped, type SoapuiCall, type SoapuiInterface, type SoapuiPart, type SoapuiProject } from './read-project.js';

/** Why each kind of item is left out (SPEC: "Not mapped, and reported with reasons"). */
const REASONS = {
  testSuites: 'Parley has no SoapUI test runner: test suites, their test cases, steps, assertions and load tests are not imported (their scripts are kept in imported-scripts/).',
  mockServices: 'SoapUI mock services are not converted; make a SOAP mock from the imported interface instead: New Mock… on its row in the sidebar (right-click), on its API tab, or in the command palette.',
  restServices: 'REST services of a SoapUI project are not imported; import their OpenAPI or WADL-free definition separately.',
  securityConfigurations: 'WS-Security configurations (keystores, incoming and outgoing WSS) are not carried across; Parley does not sign or encrypt SOAP messages.',
  databaseConnections: 'JDBC database connections are not carried across: Parley has no database steps.',
  authProfiles: 'Auth profiles (OAuth 1/2 and others from the auth repository) are not carried across; set the auth on the imported API or requests.',
};

interface ReadDocument {
  url: string;
  bytes: Uint8Array;
}

export async function convertSoapui(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const fileName = input.name ?? 'The project';
  if (input.location?.kind !== 'file') {
    throw new ParleyError('import-refused', 'A SoapUI project is imported from its file only (the File tab, or a file path with parley import): a pasted, dropped or fetched copy is refused, because the project carries its WSDL parts and scripts beside its own path.');
  }
  const redactor = ctx.loader.redactor;
  ctx.onProgress?.({ phase: 'read', message: `Reading ${redactor.text(fileName)}` });
  const project = readSoapuiProject(input.text, fileName, decodeContent);
  const warnings: ReportItem[] = [];
  const errors: ReportItem[] = [];
  const notes: ReportItem[] = [];
  const unimported: UnimportedItem[] = [];
  const keptExpansions = new Set<string>();
  const expand = (text: string) => {
    const out = convertExpansions(text);
    for (const k of out.kept) keptExpansions.add(k);
    return out.text;
  };

  const apis: ImportedApi[] = [];
  let requestCount = 0;
  let folderCount = 0;
  let operationCount = 0;
  const entryUrl = entryUrlOf(input);
  const projectParts = project.interfaces.flatMap((i) => i.parts);
  for (const [index, iface] of project.interfaces.entries()) {
    ctx.onProgress?.({ phase: 'resolve', message: `Reading the WSDL of ${iface.name}`, done: index, total: project.interfaces.length });
    const made = await convertInterface(iface, projectParts, entryUrl, ctx, { warnings, errors, notes, unimported, expand });
    apis.push(made.api);
    requestCount += made.api.requests.length;
    folderCount += made.api.folders.length;
    operationCount += made.operations;
  }

  const properties: Row[] = [];
  const dropped: string[] = [];
  for (const p of project.properties) {
    const secret = isCredentialName(p.name) && p.value !== '';
    if (secret) dropped.push(`project property ${p.name}`);
    properties.push({ name: p.name, value: secret ? '' : expand(p.value), enabled: true });
  }
  const environments: ImportedEnvironment[] = project.environments.map((env) => ({
    name: env.name,
    variables: env.properties.map((p) => {
      const secret = isCredentialName(p.name) && p.value !== '';
      if (secret) dropped.push(`${p.name} in environment ${env.name}`);
      return { name: p.name, value: secret ? '' : expand(p.value), enabled: true, secret: false };
    }),
  }));
  for (const d of dropped) warnings.push({ message: `The value of ${d} looks like a password or key and was not imported: set it again (as a secret) in Parley.` });
  if (environments.length > 0) notes.push({ message: `${environments.length} SoapUI environment${environments.length === 1 ? '' : 's'} became workspace environments (none is made active).` });

  const scripts = scriptFiles(project);
  if (scripts.length > 0) notes.push({ message: `${scripts.length} script${scripts.length === 1 ? ' was' : 's were'} saved as text in imported-scripts/ and will never be run: ${scripts.slice(0, 20).map((s) => s.name).join(', ')}${scripts.length > 20 ? ` and ${scripts.length - 20} more` : ''}.` });
  if (keptExpansions.size > 0) {
    const list = [...keptExpansions];
    warnings.push({ message: `${list.length} SoapUI property expansion${list.length === 1 ? '' : 's'} with no Parley meaning ${list.length === 1 ? 'was' : 'were'} kept as written: ${list.slice(0, 10).join(', ')}${list.length > 10 ? ` and ${list.length - 10} more` : ''}. \${#Project#name} and \${#Global#name} became \${name}.` });
  }
  unimported.push(...notMappedItems(project.notMapped));
  ctx.onProgress?.({ phase: 'done', message: `Imported ${requestCount} request${requestCount === 1 ? '' : 's'}`, done: requestCount, total: requestCount });
  return {
    apis,
    ...(properties.length > 0 ? { properties } : {}),
    ...(environments.length > 0 ? { environments } : {}),
    ...(scripts.length > 0 ? { scripts } : {}),
    ...(project.name ? { projectName: project.name } : {}),
    report: {
      format: 'soapui',
      declaredVersion: project.version ? `soapui-${project.version}` : 'soapui',
      baseUrl: apis[0]?.api.baseUrl ?? '',
      requestCount,
      folderCount,
      webhookCount: 0,
      securitySchemes: [],
      unimported,
      warnings,
      errors,
      notes,
      counts: [
        { label: 'Interfaces', count: apis.length },
        { label: 'Operations', count: operationCount },
        { label: 'Environments', count: environments.length },
        // Project properties are counted where they are written: the import service says how many were added.
        { label: 'Scripts kept', count: scripts.length },
      ],
      importedAt: ctx.now().toISOString(),
    },
  };
}

interface Sink {
  warnings: ReportItem[];
  errors: ReportItem[];
  notes: ReportItem[];
  unimported: UnimportedItem[];
  expand: (text: string) => string;
}

/** One WSDL interface: its API, a folder per operation with a request per saved call. */
async function convertInterface(iface: SoapuiInterface, projectParts: readonly SoapuiPart[], projectUrl: string, ctx: ImportContext, sink: Sink): Promise<{ api: ImportedApi; operations: number }> {
  const redactor = ctx.loader.redactor;
  const read = await readCarriedWsdl(iface, projectParts, projectUrl, ctx, sink);
  const binding = read?.definition.bindings.find((b) => b.name === iface.binding.local && b.namespace === iface.binding.ns) ?? read?.definition.bindings.find((b) => b.name === iface.binding.local);
  if (read && !binding) sink.errors.push({ message: `The WSDL of interface ${iface.name} has no SOAP binding ${iface.binding.local}; its saved requests were imported without the definition.` });
  const documents = read && binding ? read.documents : [];
  const paths = assignCachePaths(documents.map((d) => d.url), 'json');
  const cached: CachedDocument[] = ctx.options.cacheDefinition !== false ? documents.map((d, i) => ({ path: paths[i] ?? `document-${i}.xml`, bytes: d.bytes, source: redactor.url(d.url) })) : [];
  const soapVersion = binding?.soapVersion ?? iface.soapVersion;
  const cut: string[] = [];
  const endpoints = iface.endpoints.map((e) => withoutCredentials(sink.expand(e), cut));
  if (cut.length > 0) sink.warnings.push({ message: `Interface ${iface.name}: a user name and password or a credential query value in its endpoints was not imported.` });
  const baseUrl = endpoints[0] ?? binding?.ports[0]?.address ?? '';
  if (endpoints.length > 1) sink.notes.push({ message: `Interface ${iface.name} lists ${endpoints.length} endpoints; the first is the base URL, the others were: ${endpoints.slice(1).map((e) => redactor.url(e)).join(', ')}.` });
  const apiId = ctx.newId('a');
  const api = soapApi({
    id: apiId,
    name: iface.name,
    baseUrl,
    auth: { type: 'none' },
    binding: binding ?? { name: iface.binding.local, namespace: iface.binding.ns, soapVersion },
    cached,
    // No definition source: the WSDL came out of the project file, which is no WSDL to update from.
    ...(read && binding ? { fingerprint: fingerprintDocuments(documents) } : {}),
  });
  const requests: PlacedRequest[] = [];
  // Operations and their calls keep the project file's order; an operation whose request is
  // generated below keeps its place among them too (order-keys.ts).
  const order = new SourceOrder();
  const operationNames = new Set<string>();
  const generated: string[] = [];
  for (const op of iface.operations) {
    operationNames.add(op.name);
    if (op.calls.some((c) => c.request !== undefined) || binding?.operations.some((o) => o.name === op.name)) order.folder(op.name);
    const wsdlOp = binding?.operations.find((o) => o.name === op.name);
    const action = wsdlOp?.soapAction ?? op.action;
    for (const call of op.calls) {
      const where = `${iface.name} / ${op.name} / ${call.name}`;
      if (call.request === undefined) {
        sink.unimported.push({ item: `Request ${where}`, reason: `Its compressed envelope could not be decoded (${call.undecodable ?? 'unreadable'}), so it was skipped.` });
        continue;
      }
      const made = callRequest(call, { binding: binding?.name ?? iface.binding.local, operation: op.name, soapVersion, action }, ctx.newId('r'), baseUrl, sink.expand);
      const blanked = [...(call.hadPassword ? [`a password${call.username ? ` (its user name ${call.username} was kept as Basic auth)` : ''}`] : []), ...made.blanked];
      if (blanked.length > 0) sink.warnings.push({ message: `Request ${where} had ${blanked.join(', ')}, which ${blanked.length === 1 ? 'was' : 'were'} not imported: set ${blanked.length === 1 ? 'it' : 'them'} on the request in Parley.` });
      requests.push({ folder: op.name, request: order.request(op.name, made.request) });
    }
  }
  // An operation of the binding with no saved call still gets the request the WSDL importer would make.
  if (read && binding) {
    for (const op of binding.operations) {
      operationNames.add(op.name);
      if (requests.some((r) => isHttp(r.request) && r.request.soap?.operation === op.name)) continue;
      requests.push({ folder: op.name, request: order.request(op.name, soapRequest(read.definition, binding, op.name, ctx.newId('r'), baseUrl)) });
      generated.push(op.name);
    }
  }
  if (generated.length > 0) sink.notes.push({ message: `Interface ${iface.name}: ${generated.length} operation${generated.length === 1 ? '' : 's'} had no saved request in SoapUI and got a generated envelope: ${generated.join(', ')}.` });
  sink.notes.push({ message: `${iface.name}: SOAP ${soapVersion}, ${operationNames.size} operation${operationNames.size === 1 ? '' : 's'}, ${requests.length} request${requests.length === 1 ? '' : 's'}${baseUrl ? ` at ${redactor.url(baseUrl)}` : ', no endpoint'}.` });
  return { api: { api, folders: order.folders(), requests, documents: cached }, operations: operationNames.size };
}

/**
 * The interface's WSDL read from the parts the project carries; when the entry itself is not
 * carried it is fetched over HTTP(S) (and noted); a part the WSDL imports that is neither
 * carried nor http(s) is a problem of that one document. Null when nothing could be read.
 */
async function readCarriedWsdl(iface: SoapuiInterface, projectParts: readonly SoapuiPart[], projectUrl: string, ctx: ImportContext, sink: Sink): Promise<{ definition: WsdlDefinition; documents: ReadDocument[] } | null> {
  const redactor = ctx.loader.redactor;
  // Its own parts first; then a copy another interface of the project carries for the same address (SoapUI caches a WSDL once per binding).
  // A relative address (SoapUI's own tutorial writes `WSDL-WADL/x.wsdl`) is relative to the project file, as in SoapUI;
  // resolved, the cache keeps its layout. Such a file: address is only ever looked up among the carried copies.
  const absolute = (url: string) => (URL.canParse(url, projectUrl) ? new URL(url, projectUrl).href : url);
  const carried = new Map<string, string>();
  for (const part of [...iface.parts, ...projectParts]) if (!carried.has(absolute(part.url))) carried.set(absolute(part.url), part.content);
  const root = iface.rootPart ? absolute(iface.rootPart) : '';
  const entry = root && carried.has(root) ? root : absolute(iface.definition || iface.parts[0]?.url || '');
  if (!iface.definition && !iface.parts[0]) {
    sink.errors.push({ message: `Interface ${iface.name} names no WSDL and carries none; its saved requests were imported without the definition.` });
    return null;
  }
  const documents: ReadDocument[] = [];
  const fetched: string[] = [];
  const readOne = async (url: string, base?: string): Promise<{ location: string; text: string }> => {
    if (ctx.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
    const copy = carried.get(url);
    if (copy !== undefined) {
      if (!documents.some((d) => d.url === url)) documents.push({ url, bytes: new TextEncoder().encode(copy) });
      return { location: url, text: copy };
    }
    if (!/^https?:\/\//i.test(url)) throw new ParleyError('wsdl-unreadable', `${redactor.url(url)} is not carried in the project and is not an http(s) address, so it was not read.`);
    try {
      const loaded = await ctx.loader.load(new URL(url), 'xml-ref', base ?? projectUrl);
      if (!documents.some((d) => d.url === loaded.url)) documents.push({ url: loaded.url, bytes: loaded.bytes });
      fetched.push(redactor.url(loaded.url));
      return { location: loaded.url, text: decodeText(loaded.bytes) };
    } catch (err) {
      if (isWireError(err) && err.code !== 'cancelled' && err.code !== 'import-deadline') throw new ParleyError('wsdl-unreadable', err.message);
      throw err;
    }
  };
  const reader: WsdlReader = async (ref, base) => {
    const location = resolveRefLocation(ref, base);
    if (!location.ok) throw new ParleyError('wsdl-unreadable', location.error.message);
    return readOne(location.url, base);
  };
  let first: { location: string; text: string };
  try {
    first = await readOne(entry);
  } catch (err) {
    if (isWireError(err) && err.code === 'wsdl-unreadable') {
      sink.errors.push({ message: `The WSDL of interface ${iface.name} could not be read: ${redactor.text(err.message)} Its saved requests were imported without the definition.` });
      return null;
    }
    throw err;
  }
  let definition: WsdlDefinition;
  try {
    definition = await readWsdl(first, reader);
  } catch (err) {
    if (err instanceof WsdlError && err.code === 'wsdl-not-wsdl') {
      sink.errors.push({ message: `The definition of interface ${iface.name} is not a WSDL 1.1 document; its saved requests were imported without it.` });
      return null;
    }
    // Unsafe or malformed XML in a carried part stops the import, as it does for a WSDL file.
    if (err instanceof WsdlError) throw new ParleyError(err.code, `Interface ${iface.name}: ${redactor.text(err.message)}`, { file: redactor.url(String((err.data as { location?: string }).location ?? '')) });
    throw err;
  }
  for (const p of definition.problems) {
    // The interface is one binding: the WSDL's other, non-SOAP bindings are not this import's business.
    if (p.code === 'wsdl-binding-not-soap') continue;
    const message = `Interface ${iface.name}: ${redactor.text(p.message)}`;
    if (p.code === 'wsdl-import-unreadable' || p.code === 'wsdl-import-invalid') sink.errors.push({ message });
    else sink.warnings.push({ message });
  }
  for (const url of fetched) sink.notes.push({ message: `Interface ${iface.name}: ${url} is not carried in the project and was fetched.` });
  return { definition, documents: documents.filter((d) => definition.documents.includes(d.url)) };
}

/**
 * A saved call as a request: the envelope as written, the version's headers plus the call's own,
 * the user name without its password. Credentials written into the call (a password in the
 * endpoint, a credential header, a credential element of the envelope such as wsse:Password,
 * a credential query parameter) are blanked as every import blanks them; `blanked` says which.
 */
function callRequest(call: SoapuiCall, soap: { binding: string; operation: string; soapVersion: '1.1' | '1.2'; action: string }, id: string, baseUrl: string, expand: (text: string) => string): { request: Request; blanked: string[] } {
  const blanked: string[] = [];
  const headers = soapHeaders(soap.soapVersion, soap.action);
  const body = emptyBody();
  body.kind = 'raw';
  const envelope = maskBody(expand(call.request ?? ''), 'xml', { replacement: '' });
  if (envelope.masked > 0) blanked.push(`${envelope.masked} credential value${envelope.masked === 1 ? '' : 's'} in its envelope`);
  body.raw = { language: 'xml', text: envelope.text };
  const own = call.headers
    .filter((h) => !/^(content-type|soapaction)$/i.test(h.name))
    .map((h) => {
      const value = expand(h.value);
      const kept = maskHeaderValue(h.name, value, { replacement: '' });
      if (kept !== value) blanked.push(`the value of its ${h.name} header`);
      return { name: h.name, value: kept, enabled: true };
    });
  const auth: Auth = call.username ? { type: 'basic', username: call.username, password: '' } : { type: 'inherit' };
  const url = call.endpoint ? withoutCredentials(expand(call.endpoint), blanked) : baseUrl;
  const request: Request = {
    version: 1,
    id,
    name: call.name,
    method: 'POST',
    url,
    pathParams: [],
    query: [],
    headers: [
      { name: 'Content-Type', value: headers.contentType, enabled: true },
      ...(headers.soapAction !== undefined ? [{ name: 'SOAPAction', value: headers.soapAction, enabled: true }] : []),
      ...own,
    ],
    body,
    auth,
    settings: defaultSettings(),
    soap,
  };
  return { request, blanked };
}

/** A URL without a user name and password in it, and with credential query values blanked. */
function withoutCredentials(url: string, blanked: string[]): string {
  let out = url;
  const userInfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i.exec(out);
  if (userInfo) {
    out = `${userInfo[1]}${out.slice(userInfo[0].length)}`;
    blanked.push('a user name and password in its endpoint');
  }
  const query = maskUrl(out, { replacement: '' });
  if (query.masked > 0) blanked.push(`${query.masked} credential value${query.masked === 1 ? '' : 's'} in its endpoint's query`);
  return query.text;
}

/** Each script as `<where it sits>.groovy`, portable and unique (case-insensitively) within the import. */
function scriptFiles(project: SoapuiProject): ImportedScript[] {
  const taken = new Set<string>();
  return project.scripts.map((s) => {
    const stem = portableFileName(s.context.join(' - '), { fallback: 'script' });
    let name = `${stem}.groovy`;
    for (let n = 2; taken.has(fileNameKey(name)); n++) name = `${numberedFileName(stem, n)}.groovy`;
    taken.add(fileNameKey(name));
    return { name, text: s.text };
  });
}

function notMappedItems(n: NotMapped): UnimportedItem[] {
  const items: UnimportedItem[] = [];
  const add = (count: number, what: string, reason: string) => {
    if (count > 0) items.push({ item: what, reason });
  };
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  add(n.testSuites, `${plural(n.testSuites, 'test suite', 'test suites')} (${plural(n.testCases, 'test case', 'test cases')})`, REASONS.testSuites);
  add(n.mockServices, plural(n.mockServices, 'mock service', 'mock services'), REASONS.mockServices);
  add(n.restServices, plural(n.restServices, 'REST service', 'REST services'), REASONS.restServices);
  add(n.otherInterfaces.length, `${plural(n.otherInterfaces.length, 'other interface', 'other interfaces')} (${n.otherInterfaces.join(', ')})`, 'Only WSDL (SOAP) interfaces are imported.');
  add(n.securityConfigurations, plural(n.securityConfigurations, 'security configuration', 'security configurations'), REASONS.securityConfigurations);
  add(n.databaseConnections, plural(n.databaseConnections, 'database connection', 'database connections'), REASONS.databaseConnections);
  add(n.authProfiles, plural(n.authProfiles, 'auth profile', 'auth profiles'), REASONS.authProfiles);
  return items;
}
