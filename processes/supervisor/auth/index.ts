/** OAuth 2 tokens for request auth, obtained by the supervisor at send time. */
export { OAuth2TokenClient, type TokenClientOptions } from './token-client.js';
export { authorizationHeader, type OAuth2Config, type OAuth2Token } from './oauth2-config.js';
export { requestClientCredentials } from './client-credentials.js';
export { signInWithBrowser, type BrowserSignInOptions } from './authorization-code.js';
export { refreshAccessToken } from './refresh-token.js';
export type { ClientAuthMethod, TokenGrant, TokenRequestOptions } from './token-endpoint.js';
