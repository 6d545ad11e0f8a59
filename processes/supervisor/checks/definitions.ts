/**
 * An API's cached definition, parsed once per fingerprint: a definition (DefinitionDocument[],
 * entry first) with its fingerprint, as the checker, the mock host and New Mock all read it. Each
 * document's uri is its path in the API folder below `file:///api/` (protocol/cached-definition-uri.ts),
 * so relative `$ref`s between the cached files resolve exactly as they did in the original folder.
 */
import { readFile } from 'node:fs/promises';
import { ParleyError } from '../../../protocol/errors.js';
import type { Api } from '../../../protocol/model/api.js';
import { cachedDocumentUri } from '../../../protocol/cached-definition-uri.js';
import type { DefinitionRef } from '../../../protocol/model/verdict.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { definitionParser } from './definition-parser.js';

const MAX_CACHED = 16;
const cache = new Map<string, Promise<Required<DefinitionRef>>>();

export function loadDefinition(apiDir: string, api: Api): Promise<Required<DefinitionRef>> {
  const definition = api.definition;
  if (!definition || definition.cached.length === 0) {
    return Promise.reject(new ParleyError('no-definition', `The API ${api.name} has no cached definition: import it again with "Cache specification documents" on.`));
  }
  const key = `${apiDir}\0${definition.fingerprint}`;
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = readAll(apiDir, definition.cached, definition.fingerprint);
    cache.set(key, loaded);
    loaded.catch(() => cache.delete(key));
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  }
  return loaded;
}

async function readAll(apiDir: string, files: string[], fingerprint: string): Promise<Required<DefinitionRef>> {
  const documents = await Promise.all(
    files.map(async (rel) => {
      const path = definitionFilePath(apiDir, rel);
      const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new ParleyError('no-definition', `The cached definition file ${rel} could not be read (${err.code}).`);
      });
      return { uri: cachedDocumentUri(rel), document: await definitionParser.parse(text, rel) };
    }),
  );
  return { fingerprint, documents };
}

export function definitionFilePath(apiDir: string, rel: string): string {
  // `cached` comes from api.yaml, which a cloned project controls: the one safe-path rule applies.
  return resolveInside(apiDir, rel, 'cached definition');
}
