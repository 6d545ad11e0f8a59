/**
 * SoapUI stores large envelopes and definition parts compressed: the element gets a
 * `compression` attribute and its text is base64 of the compressed bytes. Decoded here with
 * node:zlib under an output cap, so a small bomb cannot fill memory; what fails to decode is
 * reported by the caller and skipped.
 */
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { serializeXml, type XmlElement } from '../../../../protocol/wsdl/index.js';

/** The most one decoded text may be (as the XML reader's own document limit). */
export const MAX_DECODED_BYTES = 10 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The element's text, decompressed when it says it is compressed. */
export function decodeContent(el: XmlElement): { text: string } | { error: string } {
  const compression = (el.attrs.get('compression') ?? '').trim().toLowerCase();
  // Carried as text (CDATA or escaped), or as XML inline in the element.
  if (compression === '' || compression === 'none') return { text: el.children[0] ? serializeXml(el.children[0]) : el.text };
  const packed = el.text.replace(/\s+/g, '');
  if (packed === '' || packed.length % 4 === 1 || !BASE64.test(packed)) return { error: `its ${compression} content is not base64` };
  const bytes = Buffer.from(packed, 'base64');
  // SoapUI wrote gzip; a zlib or raw deflate stream is accepted as well.
  for (const inflate of [gunzipSync, inflateSync, inflateRawSync]) {
    try {
      const out = inflate(bytes, { maxOutputLength: MAX_DECODED_BYTES });
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(out) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) return { error: `it decompresses to more than ${MAX_DECODED_BYTES / (1024 * 1024)} MB` };
      // not this kind of stream, or not UTF-8: try the next
    }
  }
  return { error: `its ${compression} content does not decompress` };
}
