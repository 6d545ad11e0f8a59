/**
 * The contract every importer keeps (STYLE.md point 5): `detect` says whether an input is its
 * format, `convert` turns it into model objects plus a report. "Not this format" is a null
 * detection; "this format but broken" is a thrown ParleyError with code `import-malformed`
 * (or a code of the importer's own, e.g. `import-refused`, for a source SPEC refuses).
 *
 * Extension points for a new format (docs/importers.md, "Adding a format"): an `Importer` with
 * its `reads` mode and `limits`, its detect rules, one entry in `createImporterRegistry()` and
 * one in `protocol/import-formats.ts`; its options are fields of `ImportOptions`; its result
 * uses whichever parts of `ImportResult` it makes (APIs, properties, examples, History,
 * environments, globals), which the supervisor writes.
 */
import type { FetchCredentials, FetchNetwork, GrpcServerSource, ImportOptions, ImportProgress, ImportResult } from '../../../protocol/model/import.js';
import type { ImportResultPart } from '../../../protocol/model/import-parts.js';
import type { DocumentLoader } from './load/loader.js';

/** Where the entry document came from; absent for pasted text. */
export type InputLocation =
  | { kind: 'file'; path: string }
  /** `url` as the user gave it (no credential); `finalUrl` where redirects led, the base for its references. */
  | { kind: 'url'; url: string; finalUrl?: string }
  /** A folder read as a whole (Protocol Buffers: every .proto below it); `text` is then empty. */
  | { kind: 'folder'; path: string }
  /** A running gRPC server, read by reflection; `text` is then empty. */
  | { kind: 'grpc-server'; server: GrpcServerSource };

export interface ImportInput {
  /** File name or URL (without any credential), absent for paste. */
  name?: string;
  text: string;
  /** The bytes as read, for the cached definition; absent means UTF-8 of `text`. */
  bytes?: Uint8Array;
  location?: InputLocation;
  /**
   * For an importer that `reads: 'stream'`: the whole source from its first byte (bytes read are
   * reported as progress). `text` is then only its head (the first MB, for detection), unless
   * the source was pasted or fetched, when `text` is all of it.
   */
  stream?: (signal?: AbortSignal) => AsyncIterable<Uint8Array>;
  /** The source's size in bytes, when known before reading (a file). */
  size?: number;
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
  /** The preferences' network settings (a gRPC server's TLS trusts their CA bundle too). */
  network?: FetchNetwork;
  /** Every format's options; an importer reads the fields it knows. */
  options: ImportOptions;
  /**
   * The credentials the entry was fetched with, so the API records how to fetch it again
   * (their type and names; the secret itself is stored by the supervisor, never in a file).
   */
  sourceCredentials?: FetchCredentials;
  /**
   * Given when the job's answer travels in parts (the importer child): a converter that makes
   * requests by the thousand may send them on as it goes (RequestOutlet) and leave them out of
   * its result, so they are not all held until the end.
   */
  sendPart?: (part: ImportResultPart) => void;
}

export type ImportOutcome = ImportResult;

export interface ImporterLimits {
  /** A picked file larger than this is refused before it is read (SPEC "Limits"). */
  fileBytes?: number;
  /** Pasted text longer than this many characters is refused. */
  pasteChars?: number;
}

export interface Importer {
  /** As in `protocol/import-formats.ts`. */
  id: string;
  label: string;
  /**
   * 'text' (the default): the whole source is read (within the loader's 50 MB cap) and decoded
   * before `convert`. 'stream': a picked file is not read up front; `convert` reads
   * `input.stream()`, so a source bigger than memory can be imported.
   */
  reads?: 'text' | 'stream';
  limits?: ImporterLimits;
  detect(input: ImportInput): Detection | null;
  /**
   * Loads its converter when called (a dynamic import): the registry, auto-detect and a job of
   * another format then load no format's code but their detect rules (a HAR job compiled 3 MB
   * of every format's readers before it read a byte; bench/README.md, "HAR import").
   */
  convert(input: ImportInput, ctx: ImportContext): Promise<ImportOutcome>;
}
