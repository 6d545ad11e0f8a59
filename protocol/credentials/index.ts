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
  MIN_VALUE_LENGTH,
  replaceSecretValues,
  replaceSecretValuesInBytes,
  type MaskOptions,
  type Masked,
  valueForms,
} from './mask.js';
export { CARRIED_VALUE_MIN, carriedReplacements, carriedValues, cookiePairValues, setCookieValue, type CarriedExchange } from './carried.js';
export { leaveOutSecrets, refillSecrets, type KeptDraft } from './draft-secrets.js';
