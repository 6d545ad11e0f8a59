/**
 * An API's cached definition in the shape the mock engine reads: documents by their path
 * relative to the API folder (so `$ref: schemas.yaml` resolves as it did on disk), entry first.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { Api } from '../../../protocol/model/api.js';
import type { OpenApiDocuments } from '../../mock-host/engine/openapi-documents.js';
import { definitionFilePath, loadDefinition } from '../checks/definitions.js';
import { readFile, stat } from 'node:fs/promises';
import { setOwn } from '../../../protocol/own.js';

/** SPEC Errors: starting (or making) a mock whose API has no cached definition. */
export const NO_DEFINITION = 'Cannot be mocked until imported again with definitions cached.';

export function hasCachedDefinition(api: Api): boolean {
  return (api.definition?.cached.length ?? 0) > 0;
}

export async function mockDocuments(apiDir: string, api: Api): Promise<OpenApiDocuments> {
  const cached = api.definition?.cached ?? [];
  if (cached.length === 0) throw new ParleyError('no-definition', NO_DEFINITION, { api: api.id });
  if (api.soap) return soapDocuments(apiDir, api, cached);
  // loadDefinition reads `cached` in order, so the i-th document is the i-th file.
  const loaded = await loadDefinition(apiDir, api);
  const documents: Record<string, unknown> = {};
  loaded.documents.forEach((doc, i) => {
    setOwn(documents, cached[i]!, doc.document);
  });
  return { entry: cached[0]!, documents };
}

/**
 * A SOAP interface's cached WSDL and schemas as text, each with the address it was read from at
 * import (`soap.sources`), so the mock host resolves imports as the import did, offline.
 */
async function soapDocuments(apiDir: string, api: Api, cached: string[]): Promise<OpenApiDocuments> {
  const documents: Record<string, unknown> = {};
  for (const [i, rel] of cached.entries()) {
    const path = definitionFilePath(apiDir, rel);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      throw new ParleyError('no-definition', `${NO_DEFINITION} (${rel.slice(0, 200)} is missing)`, { api: api.id });
    }
    const source = api.soap?.sources[i];
    setOwn(documents, rel, source === undefined ? text : { text, source });
  }
  return { entry: cached[0]!, documents };
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
