import { Type as T, type Static } from '@sinclair/typebox';

/** What the Import cURL dialog shows of a pasted command before Import: never a header value or a password. */
export const CurlPreview = T.Object({
  method: T.String(),
  /** Credential-named query values masked. */
  url: T.String(),
  headerNames: T.Array(T.String()),
  /** `none`, `raw JSON (120 characters)`, `form (3 fields)`, `multipart (2 parts)`, `binary file x.bin`. */
  bodyKind: T.String(),
  basicUser: T.Optional(T.String()),
  /** How the request authenticates: `Basic`, `Bearer token`, `API key in the X-Api-Key header`, `Inherit from the API`. */
  auth: T.String(),
});
export type CurlPreview = Static<typeof CurlPreview>;

export const CurlImportReport = T.Object({
  preview: CurlPreview,
  /** Every option the request does not keep, as written (`-k`, `--retry`), some with why. */
  ignored: T.Array(T.String()),
  /** What was approximated or needs the user's attention. */
  notes: T.Array(T.String()),
});
export type CurlImportReport = Static<typeof CurlImportReport>;
