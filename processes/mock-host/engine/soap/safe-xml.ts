/**
 * Every SOAP message and schema the mock reads goes through libxml2 (libxml2-wasm) with the
 * dangerous parts off: no network (NONET), no external entities (NO_XXE), no entity substitution
 * or DTD loading (NOENT and DTDLOAD never set), libxml2's own depth (256) and amplification
 * limits kept (HUGE never set), and a size cap checked before parsing. A message that carries a
 * document type declaration at all is refused: SOAP 1.1 and 1.2 both forbid one, and it is the
 * door entity attacks come through.
 *
 * libxml2 may still ask for a document while compiling a schema (xsd:import / xsd:include). One
 * input provider answers every such request for the whole process: only documents registered
 * here (an API's cached definition, by a `parley-def:` URL) are served; anything else, a
 * `file:///etc/passwd` included, is not found.
 */
import { ParseOption, XmlDocument, XmlLibError, xmlRegisterInputProvider, type XmlInputProvider } from 'libxml2-wasm';

/** The largest message a check parses (SPEC Limits: a body over 1 MiB is skipped). */
export const MAX_XML_BYTES = 1024 * 1024;

const PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE | ParseOption.XML_PARSE_NOWARNING;

export type ParsedXml = { ok: true; doc: XmlDocument } | { ok: false; reason: string; tooLarge?: boolean };

/** The message parsed, or why it could not be read. The caller disposes `doc`. */
export function parseSafeXml(source: Uint8Array | string, options: { maxBytes?: number; url?: string } = {}): ParsedXml {
  const max = options.maxBytes ?? MAX_XML_BYTES;
  const size = typeof source === 'string' ? Buffer.byteLength(source) : source.byteLength;
  if (size > max) return { ok: false, tooLarge: true, reason: `The XML is ${size} bytes; at most ${max} are read.` };
  installInputProvider();
  let doc: XmlDocument;
  try {
    const parseOptions = { option: PARSE_OPTIONS, ...(options.url ? { url: options.url } : {}) };
    doc = typeof source === 'string' ? XmlDocument.fromString(source, parseOptions) : XmlDocument.fromBuffer(source, parseOptions);
  } catch (err) {
    return { ok: false, reason: `The XML is not well formed: ${libxmlMessage(err)}` };
  }
  if (doc.dtd) {
    doc.dispose();
    return { ok: false, reason: 'The XML carries a document type declaration (<!DOCTYPE>), which SOAP messages may not; it was not read.' };
  }
  return { ok: true, doc };
}

/** libxml2's first message, with its line, without the library's framing. */
export function libxmlMessage(err: unknown): string {
  if (err instanceof XmlLibError && err.details.length > 0) {
    const first = err.details[0]!;
    const where = first.line > 0 ? ` (line ${first.line})` : '';
    return `${first.message.trim()}${where}`;
  }
  return err instanceof Error ? err.message.trim() : String(err);
}

/** The scheme of the in-memory documents schemas may import: `parley-def:///<path in the definition folder>`. */
export const DEFINITION_URL_PREFIX = 'parley-def:///';

const registered = new Map<string, Uint8Array>();
const open = new Map<number, { data: Uint8Array; at: number }>();
let nextFd = 1;
let installed = false;

const provider: XmlInputProvider = {
  // Every load is ours to answer, so no other handler (file, network) is ever asked.
  match: () => true,
  open: (filename) => {
    const data = registered.get(filename);
    if (!data) return undefined;
    const fd = nextFd++;
    open.set(fd, { data, at: 0 });
    return fd;
  },
  read: (fd, buf) => {
    const file = open.get(fd);
    if (!file) return -1;
    const n = Math.min(buf.byteLength, file.data.byteLength - file.at);
    buf.set(file.data.subarray(file.at, file.at + n));
    file.at += n;
    return n;
  },
  close: (fd) => open.delete(fd),
};

function installInputProvider(): void {
  if (installed) return;
  installed = true;
  xmlRegisterInputProvider(provider);
}

/**
 * Makes documents readable by schema compilation under `parley-def:///` URLs for the length of
 * `work`, then forgets them: compilation happens once per contract, so nothing stays registered.
 */
export function withDefinitionDocuments<T>(documents: ReadonlyMap<string, string>, work: () => T, urlOf: (path: string) => string = definitionUrl): T {
  installInputProvider();
  const urls: string[] = [];
  for (const [path, text] of documents) {
    const url = urlOf(path);
    registered.set(url, Buffer.from(text));
    urls.push(url);
  }
  try {
    return work();
  } finally {
    for (const url of urls) registered.delete(url);
  }
}

export function definitionUrl(path: string): string {
  return `${DEFINITION_URL_PREFIX}${path.split('/').map(encodeURIComponent).join('/')}`;
}
