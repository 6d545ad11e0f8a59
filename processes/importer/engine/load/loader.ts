/**
 * Reads the documents of one import job: the entry, then whatever it refers to. It owns the
 * job's rules: credentials go only to the entry's origin, a network document never reads a
 * local file, local references follow the ref policy, and every read counts against the caps.
 */
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dispatcher } from 'undici';
import { ParleyError } from '../../../../protocol/errors.js';
import type { RefScope } from '../../../../protocol/ref-location.js';
import type { FetchCredentials, FetchNetwork, ImportDeadlines } from '../../../../protocol/model/import.js';
import { DEFAULT_DEADLINES, DEFAULT_LIMITS, ReadBudget, jobDeadlineError, type LoadLimits } from './limits.js';
import { readRegularFile } from './read-file.js';
import { Redactor } from './redact.js';
import { checkDeclarationFile, checkReferencedFile } from './ref-policy.js';

/** undici's limit until a definition's response headers, and between its body chunks. */
const FETCH_GAP_MS = 30_000;

/** entry: what the user chose; ref: a `$ref` target; declaration: a Swagger 1.x API declaration; xml-ref: a WSDL's import or include. */
export type LoadPurpose = 'entry' | 'ref' | 'declaration' | 'xml-ref';

export interface LoadedDocument {
  /** Where it was read from, without any credential: the base for its relative references. */
  url: string;
  bytes: Uint8Array;
}

export interface DocumentLoader {
  readonly redactor: Redactor;
  /** The folder every `$ref` must stay in (a cached definition read back); none for a live import. */
  readonly within?: RefScope['within'];
  /** `from` is the url of the document that refers to `target` (absent for the entry). */
  load(target: URL, purpose: LoadPurpose, from?: string): Promise<LoadedDocument>;
  /** Releases connections. */
  close(): Promise<void>;
}

export interface LoaderOptions {
  credentials?: FetchCredentials;
  network?: FetchNetwork;
  signal?: AbortSignal;
  limits?: LoadLimits;
  /** How long one fetch and the whole job may take; counted from when the loader is made. */
  deadlines?: ImportDeadlines;
  /** Read no network address (tests, and anything that must stay on this machine). */
  offline?: boolean;
  /** For tests: a dispatcher to use instead of one built from `network`. */
  dispatcher?: Dispatcher;
  /** For tests: how a Kerberos token is made, instead of the `kerberos` package. */
  negotiate?: (service: string) => Promise<string>;
}

export function createDocumentLoader(options: LoaderOptions = {}): DocumentLoader {
  return new JobLoader(options);
}

/** The secret values a set of credentials carries, for redaction. */
export function credentialSecrets(credentials: FetchCredentials | undefined): string[] {
  if (!credentials) return [];
  if (credentials.type === 'basic') return [credentials.password];
  if (credentials.type === 'bearer') return [credentials.token];
  if (credentials.type === 'kerberos') return [];
  return [credentials.value];
}

class JobLoader implements DocumentLoader {
  readonly redactor: Redactor;
  private readonly budget: ReadBudget;
  private dispatcher: Dispatcher | undefined;
  private readonly ownsDispatcher: boolean;
  /** Origin of an entry read by URL: the only origin credentials go to. */
  private entryOrigin: string | undefined;
  /** Real folder of an entry read from a file: the anchor of the local ref policy. */
  private entryDir: string | undefined;
  private readonly deadlines: ImportDeadlines;
  /** Fires when the job's deadline passes: fetches in flight stop, and nothing more is read. */
  private readonly jobDeadline: AbortSignal;

  constructor(private readonly options: LoaderOptions) {
    const credentials = options.credentials;
    this.redactor = new Redactor(credentialSecrets(credentials), credentials?.type === 'apikey' && credentials.in === 'query' ? credentials.name : undefined);
    this.budget = new ReadBudget(options.limits ?? DEFAULT_LIMITS);
    this.dispatcher = options.dispatcher;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.deadlines = options.deadlines ?? DEFAULT_DEADLINES;
    this.jobDeadline = AbortSignal.timeout(this.deadlines.jobMs);
  }

  async load(target: URL, purpose: LoadPurpose, from?: string): Promise<LoadedDocument> {
    if (this.options.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
    const shown = this.redactor.url(target);
    if (this.jobDeadline.aborted) throw jobDeadlineError(shown, this.deadlines.jobMs);
    const fromNetwork = from !== undefined && /^https?:/i.test(from);
    if (target.protocol === 'file:') {
      if (purpose !== 'entry' && (from === undefined || !from.startsWith('file:'))) {
        throw new ParleyError('import-ref-refused', `${shown} was not read: only a document read from a file may refer to local files.`, { file: shown, from: fromNetwork ? from : undefined });
      }
      return this.loadFile(target, purpose, shown);
    }
    if (target.protocol === 'http:' || target.protocol === 'https:') return this.loadUrl(target, purpose, shown);
    throw new ParleyError('import-ref-refused', `${shown} was not read: only file, http and https addresses are read.`, { file: shown });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher && this.dispatcher) await this.dispatcher.close().catch(() => undefined);
  }

  private async loadFile(target: URL, purpose: LoadPurpose, shown: string): Promise<LoadedDocument> {
    let path: string;
    try {
      path = fileURLToPath(target);
    } catch {
      // References are screened by protocol/ref-location before they get here; an address that
      // still is no local path on this machine is refused, never left to throw a raw ERR_ code.
      throw new ParleyError('import-ref-refused', `${shown} was not read: it is not a path to a file on this machine.`, { file: shown });
    }
    this.budget.startDocument(shown);
    if (purpose === 'entry') {
      const bytes = await readRegularFile(path, this.budget, shown);
      this.entryDir = dirname(await realpath(path));
      return { url: target.href, bytes };
    }
    const real = await realpath(path).catch(() => path);
    const anchor = this.entryDir ?? dirname(real);
    if (purpose === 'ref' || purpose === 'xml-ref') checkReferencedFile(real, anchor, shown, purpose === 'xml-ref' ? 'xml' : 'json-yaml');
    else checkDeclarationFile(real, anchor, shown);
    return { url: target.href, bytes: await readRegularFile(real, this.budget, shown) };
  }

  private async loadUrl(target: URL, purpose: LoadPurpose, shown: string): Promise<LoadedDocument> {
    if (this.options.offline) throw new ParleyError('import-offline', `${shown} was not fetched: this import reads nothing from the network.`, { file: shown });
    // The key is added back per hop by the fetcher, and only on the entry's origin.
    const clean = new URL(this.redactor.url(target));
    if (purpose === 'entry') this.entryOrigin = clean.origin;
    this.budget.startDocument(shown);
    // The HTTP client (undici) is loaded with the first URL: a file import never needs it, and
    // loading it was about 90 ms of `parley mock serve <file>`'s start-up.
    const [{ createDispatcher }, { fetchDocument }] = await Promise.all([import('../../../sender/engine/dispatchers.js'), import('./fetch-url.js')]);
    // Until the response headers arrive, and between body chunks; the job's own deadlines bound the rest.
    this.dispatcher ??= createDispatcher({ ...(this.options.network ?? { proxy: '', caPem: '' }), timeoutMs: FETCH_GAP_MS });
    const credentials = this.options.credentials && this.entryOrigin ? { value: this.options.credentials, origin: this.entryOrigin } : undefined;
    const fetched = await fetchDocument(clean, {
      dispatcher: this.dispatcher,
      redactor: this.redactor,
      budget: this.budget,
      ...(credentials ? { credentials } : {}),
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      deadlines: this.deadlines,
      jobDeadline: this.jobDeadline,
      ...(this.options.negotiate ? { negotiate: this.options.negotiate } : {}),
      ...(this.ownsDispatcher ? { gapMs: FETCH_GAP_MS } : {}),
      proxyHost: proxyHostOf(this.options.network?.proxy ?? ''),
    });
    return { url: this.redactor.url(fetched.finalUrl), bytes: fetched.bytes };
  }
}

/** The proxy's host[:port] for messages ('' without one, or for one that is no URL: the dispatcher refuses that itself). */
function proxyHostOf(proxy: string): string {
  if (proxy === '') return '';
  try {
    return new URL(proxy).host;
  } catch {
    return '';
  }
}
