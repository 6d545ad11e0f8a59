/**
 * The cached definition documents of an API, parsed once per fingerprint and handed to the
 * checker (or a mock) as `{ uri, document }` with file URIs, so relative `$ref`s between the
 * cached files resolve exactly as they did in the original folder.
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { ParleyError } from '../../../protocol/errors.js';
import type { Api } from '../../../protocol/model/api.js';
import type { DefinitionDocument } from '../../../protocol/model/verdict.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { definitionParser } from './definition-parser.js';

export interface LoadedDefinition {
  fingerprint: string;
  documents: DefinitionDocument[];
}

const MAX_CACHED = 16;
const cache = new Map<string, Promise<LoadedDefinition>>();

export function loadDefinition(apiDir: string, api: Api): Promise<LoadedDefinition> {
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

async function readAll(apiDir: string, files: string[], fingerprint: string): Promise<LoadedDefinition> {
  const documents = await Promise.all(
    files.map(async (rel) => {
      const path = definitionFilePath(apiDir, rel);
      const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new ParleyError('no-definition', `The cached definition file ${rel} could not be read (${err.code}).`);
      });
      return { uri: pathToFileURL(path).href, document: await definitionParser.parse(text, rel) };
    }),
  );
  return { fingerprint, documents };
}

export function definitionFilePath(apiDir: string, rel: string): string {
  // `cached` comes from api.yaml, which a cloned project controls: the one safe-path rule applies.
  return resolveInside(apiDir, rel, 'cached definition');
}
