/**
 * The `$ref` bundling of a set of cached documents, in a module of its own so the ref parser is
 * loaded only for a contract that needs it (definition-bundle.ts).
 */
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import type { OpenApiDocument } from './definition-bundle.js';

/** One document with every `$ref` into the others of `byUrl` made internal; no file or network. */
export async function bundleWithRefParser(entryUrl: string, entry: object, byUrl: ReadonlyMap<string, unknown>): Promise<OpenApiDocument> {
  return (await new $RefParser().bundle(entryUrl, structuredClone(entry) as never, {
    resolve: {
      file: false,
      http: false,
      cached: {
        order: 1,
        canRead: true,
        read: (file: { url: string }) => {
          const doc = byUrl.get(file.url.split('#')[0] as string);
          if (doc === undefined) throw new Error(`no cached document ${file.url}`);
          return JSON.stringify(doc);
        },
      },
    },
  })) as OpenApiDocument;
}
