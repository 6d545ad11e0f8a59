// undici's own multipart/form-data reader, the one its Response.formData() runs, reached by its
// file (the package has no `exports` map): it reads a whole body synchronously, which the mock's
// contract check (synchronous, on its deadline, inline or in a worker) needs. Only what
// form-body.ts uses is typed here; form-body.test.ts holds it to Response.formData().
declare module 'undici/lib/web/fetch/data-url.js' {
  export interface MimeType {
    type: string;
    subtype: string;
    parameters: Map<string, string>;
    essence: string;
  }
  /** 'failure' when the text is not a MIME type. */
  export function parseMIMEType(input: string): MimeType | 'failure';
}

declare module 'undici/lib/web/fetch/formdata-parser.js' {
  import type { MimeType } from 'undici/lib/web/fetch/data-url.js';
  /** Throws a TypeError whose `cause` names what was wrong. */
  export function multipartFormDataParser(input: Buffer, mimeType: MimeType): Array<{ name: string; value: string | File }>;
}
