/**
 * What an API's mock is served from (MockDocuments): a REST API's cached definition exactly as the
 * checker reads it (loadDefinition: the same DefinitionDocument[] by the same uris, so the mock
 * and the contract chip cannot disagree on a `$ref`), or a SOAP interface's cached WSDL and
 * schemas as texts by their path in the API folder, entry first.
 */
import { ParleyError } from '../../../protocol/errors.js';
import { DEFINITION_NOT_CACHED, whyNotMockable, type Api } from '../../../protocol/model/api.js';
import type { MockDocuments, WsdlDocument } from '../../../protocol/model/verdict.js';
import { definitionFilePath, loadDefinition } from '../checks/definitions.js';
import { readFile, stat } from 'node:fs/promises';

export async function mockDocuments(apiDir: string, api: Api): Promise<MockDocuments> {
  const blocked = whyNotMockable(api);
  if (blocked) throw new ParleyError('no-definition', blocked, { api: api.id });
  const cached = api.definition?.cached ?? [];
  if (api.soap) return { wsdl: await wsdlDocuments(apiDir, api, cached) };
  return { openapi: (await loadDefinition(apiDir, api)).documents };
}

/**
 * A SOAP interface's cached WSDL and schemas as text, each with the address it was read from at
 * import (`soap.sources`), so the mock host resolves imports as the import did, offline.
 */
async function wsdlDocuments(apiDir: string, api: Api, cached: string[]): Promise<WsdlDocument[]> {
  const documents: WsdlDocument[] = [];
  for (const [i, rel] of cached.entries()) {
    const path = definitionFilePath(apiDir, rel);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      throw new ParleyError('no-definition', `${DEFINITION_NOT_CACHED} (${rel.slice(0, 200)} is missing)`, { api: api.id });
    }
    const source = api.soap?.sources[i];
    documents.push({ path: rel, text, ...(source === undefined ? {} : { source }) });
  }
  return documents;
}

/** The fingerprint that changes whenever the documents do: part of a findings cache key. */
export function definitionKey(api: Api): string {
  return `${api.id}:${api.definition?.fingerprint ?? ''}`;
}

/** The cached definition's size on disk (what sizes New Mock's heap); a missing file counts 0. */
export async function definitionBytes(apiDir: string, api: Api): Promise<number> {
  const sizes = await Promise.all((api.definition?.cached ?? []).map((rel) => stat(definitionFilePath(apiDir, rel)).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}
