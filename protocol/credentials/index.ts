/** SPEC's credential-name rule and every masking built on it: one module for every process. */
export { MASK, isCredentialHeader, isCredentialName, isReferenceOnly } from './names.js';
export { credentialSpans, type BodySyntax, type CredentialSpan } from './spans.js';
export {
  bodySyntax,
  fillMaskedBody,
  fillMaskedUrl,
  holdsMask,
  maskBody,
  maskHeaderValue,
  maskHeaders,
  maskUrl,
  replaceSecretValues,
  type MaskOptions,
  type Masked,
} from './mask.js';
