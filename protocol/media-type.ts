/**
 * Media-type tests shared by every process: the checker (which bodies are JSON), the credential
 * masking (which syntax a body is read in) and the cURL tools.
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

/** `application/json`, `text/json` and any `+json` structured suffix. */
export function isJsonMediaType(mediaType: string): boolean {
  const s = subtype(mediaType);
  return s !== undefined && (s === 'json' || s.endsWith('+json'));
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
