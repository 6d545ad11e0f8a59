/**
 * Media-type tests shared by every process, the one answer to "is this JSON": the checker, the
 * mock's contract, the importer, the request-body form, the credential masking and the cURL tools.
 */

/** The media type without parameters, lower-cased: `application/problem+json`. */
export function essence(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

function subtype(mediaType: string): string | undefined {
  const e = essence(mediaType);
  const slash = e.indexOf('/');
  return slash <= 0 ? undefined : e.slice(slash + 1);
}

/** `application/json`, `text/json`, the legacy `x-json` and any `+json` structured suffix (`application/*+json` too). */
export function isJsonMediaType(mediaType: string): boolean {
  const s = subtype(mediaType);
  return s !== undefined && (s === 'json' || s === 'x-json' || s.endsWith('+json'));
}

/** Of the media types a definition lists, the one a JSON body goes by: `application/json` first, then any other JSON type. */
export function preferJsonMediaType(mediaTypes: readonly string[]): string | undefined {
  return mediaTypes.find((m) => essence(m) === 'application/json') ?? mediaTypes.find(isJsonMediaType);
}

/** `application/xml`, `text/xml` and any `+xml` suffix (SOAP 1.2's `application/soap+xml`). */
export function isXmlMediaType(mediaType: string): boolean {
  const s = subtype(mediaType);
  return s !== undefined && (s === 'xml' || s.endsWith('+xml'));
}

export function isFormMediaType(mediaType: string): boolean {
  return essence(mediaType) === 'application/x-www-form-urlencoded';
}

export function isEventStream(mediaType: string): boolean {
  return essence(mediaType) === 'text/event-stream';
}
