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

/**
 * A file of this machine, outside the project, that a command sends (`--data-binary @/path`,
 * `-F part=@file`...): importing the request would copy it into the project's files/, so it is
 * copied only when the user says so (docs/history.md, "Import cURL").
 */
export const CurlLocalFile = T.Object({
  /** Its real path (links resolved): the file whose bytes would be copied. */
  path: T.String(),
  size: T.Integer({ minimum: 0 }),
  /** Where the request sends it: `binary body`, `multipart part "photo"`. */
  field: T.String(),
});
export type CurlLocalFile = Static<typeof CurlLocalFile>;

export const CurlImportReport = T.Object({
  preview: CurlPreview,
  /** Every option the request does not keep, as written (`-k`, `--retry`), some with why. */
  ignored: T.Array(T.String()),
  /** What was approximated or needs the user's attention. */
  notes: T.Array(T.String()),
  /** The files outside the project the command sends (a preview given its project, and an import). */
  localFiles: T.Optional(T.Array(CurlLocalFile)),
  /** The files an import copied into the project: from a real path to the path the request names. */
  copied: T.Optional(T.Array(T.Object({ from: T.String(), to: T.String() }))),
});
export type CurlImportReport = Static<typeof CurlImportReport>;
