/**
 * The contract every importer keeps (STYLE.md point 5): `detect` says whether an input is its
 * format, `convert` turns it into model objects plus a report. "Not this format" is a null
 * detection; "this format but broken" is a thrown ParleyError with code `import-malformed`.
 */
import type { FetchCredentials, ImportProgress, ImportResult, OpenApiImportOptions } from '../../../protocol/model/import.js';
import type { DocumentLoader } from './load/loader.js';

/** Where the entry document came from; absent for pasted text. */
export type InputLocation =
  | { kind: 'file'; path: string }
  /** `url` as the user gave it (no credential); `finalUrl` where redirects led, the base for its references. */
  | { kind: 'url'; url: string; finalUrl?: string };

export interface ImportInput {
  /** File name or URL (without any credential), absent for paste. */
  name?: string;
  text: string;
  /** The bytes as read, for the cached definition; absent means UTF-8 of `text`. */
  bytes?: Uint8Array;
  location?: InputLocation;
}

export interface Detection {
  /** Importer id, e.g. 'openapi'. */
  format: string;
  /** What the auto-detect badge shows, e.g. 'OpenAPI 3.1'. */
  label: string;
  /** Declared version when the content states one, e.g. 'openapi-3.1'. */
  version?: string;
  /** A file name that settles the format wins over text that only looks like another format. */
  settledBy: 'file-name' | 'content';
}

export interface ImportContext {
  /** Fresh ids: `newId('a')` for an API, `newId('r')` for a request. Injected for determinism. */
  newId: (prefix: string) => string;
  /** Injected clock. */
  now: () => Date;
  onProgress?: (event: ImportProgress) => void;
  signal?: AbortSignal;
  /** Reads the documents an entry refers to (files, URLs), with the job's credentials and policy. */
  loader: DocumentLoader;
  options: OpenApiImportOptions;
  /**
   * The credentials the entry was fetched with, so the API records how to fetch it again
   * (their type and names; the secret itself is stored by the supervisor, never in a file).
   */
  sourceCredentials?: FetchCredentials;
}

export type ImportOutcome = ImportResult;

export interface Importer {
  id: string;
  label: string;
  detect(input: ImportInput): Detection | null;
  convert(input: ImportInput, ctx: ImportContext): Promise<ImportOutcome>;
}
