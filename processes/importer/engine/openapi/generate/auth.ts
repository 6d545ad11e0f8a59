/**
 * Auth from security requirements. The API's auth comes from the document's top-level
 * security; a request inherits it unless its operation says otherwise (its own requirement,
 * or `security: []` for none). Secrets are always left empty. Schemes Parley cannot send
 * (OpenID Connect discovery, API key in a cookie, mutual TLS, other HTTP schemes, OAuth 2
 * implicit or password flows) are listed as unimported.
 */
import type { Auth } from '../../../../../protocol/model/auth.js';
import type { SecuritySchemeSummary } from '../../../../../protocol/model/import.js';
import type { NRequirement, NSecurityScheme } from '../normalize/model.js';

type Usable = { auth: Auth } | { unusable: string };

export function schemeAuth(scheme: NSecurityScheme, scopes: string[]): Usable {
  const type = scheme.type;
  if (type === 'basic' || type === 'basicAuth' || (type === 'http' && scheme.httpScheme === 'basic')) {
    return { auth: { type: 'basic', username: '', password: '' } };
  }
  if (type === 'http' && scheme.httpScheme === 'bearer') return { auth: { type: 'bearer', token: '' } };
  if (type === 'http') return { unusable: `HTTP ${scheme.httpScheme || '(no scheme)'} authentication is not supported; only basic and bearer are.` };
  if (type === 'apiKey' && scheme.apiKey) {
    const where = scheme.apiKey.in;
    if (where === 'header' || where === 'query') return { auth: { type: 'apikey', name: scheme.apiKey.name, value: '', in: where } };
    if (where === 'cookie') return { unusable: `An API key sent in a cookie (${scheme.apiKey.name}) is not supported; send it with a Cookie header.` };
    return { unusable: `An API key sent in "${where}" is not supported.` };
  }
  if (type === 'oauth2' && scheme.oauth2) {
    const flows = scheme.oauth2.flows;
    const flow = flows.find((f) => f.flow === 'authorizationCode') ?? flows.find((f) => f.flow === 'clientCredentials');
    if (!flow) return { unusable: `OAuth 2 ${flows.map((f) => f.flow).join(', ') || 'without flows'}: only the authorization code and client credentials flows are supported.` };
    const grant = flow.flow === 'authorizationCode' ? 'authorization_code' : 'client_credentials';
    return {
      auth: {
        type: 'oauth2',
        grant,
        tokenUrl: flow.tokenUrl,
        authorizationUrl: flow.authorizationUrl,
        clientId: '',
        clientSecret: '',
        scope: (scopes.length > 0 ? scopes : flow.scopes).join(' '),
        usePkce: grant === 'authorization_code',
      },
    };
  }
  if (type === 'openIdConnect') return { unusable: `OpenID Connect discovery is not supported; set up OAuth 2 by hand from ${scheme.openIdConnectUrl || 'the provider'}.` };
  if (type === 'mutualTLS') return { unusable: 'Mutual TLS client certificates are not supported.' };
  return { unusable: `The security scheme type "${type}" is not supported.` };
}

/** The auth of the first requirement group that names a usable scheme; none when there is none. */
export function requirementAuth(requirements: NRequirement[], schemes: NSecurityScheme[]): Auth {
  for (const group of requirements) {
    for (const { scheme: name, scopes } of group) {
      const scheme = schemes.find((s) => s.name === name);
      if (!scheme) continue;
      const usable = schemeAuth(scheme, scopes);
      if ('auth' in usable) return usable.auth;
    }
  }
  return { type: 'none' };
}

/** A request's auth: Inherit unless its operation declares requirements of its own. */
export function operationAuth(own: NRequirement[] | undefined, documentWide: NRequirement[], schemes: NSecurityScheme[]): Auth {
  if (own === undefined) return { type: 'inherit' };
  if (JSON.stringify(own) === JSON.stringify(documentWide)) return { type: 'inherit' };
  return requirementAuth(own, schemes);
}

export function schemeSummary(scheme: NSecurityScheme): SecuritySchemeSummary {
  const usable = schemeAuth(scheme, []);
  return { name: scheme.name, type: scheme.type, details: describe(scheme), ...('auth' in usable ? { use: usable.auth } : { unusable: usable.unusable }) };
}

function describe(scheme: NSecurityScheme): string {
  if (scheme.apiKey) return `API key "${scheme.apiKey.name}" in ${scheme.apiKey.in}`;
  if (scheme.type === 'http') return `HTTP ${scheme.httpScheme ?? ''}${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ''}`.trim();
  if (scheme.type === 'basic' || scheme.type === 'basicAuth') return 'HTTP basic';
  if (scheme.oauth2) {
    return `OAuth 2: ${scheme.oauth2.flows
      .map((f) => `${f.flow}${f.authorizationUrl ? ` (authorize ${f.authorizationUrl})` : ''}${f.tokenUrl ? ` (token ${f.tokenUrl})` : ''}${f.scopes.length ? `, scopes ${f.scopes.join(' ')}` : ''}`)
      .join('; ')}`;
  }
  if (scheme.type === 'openIdConnect') return `OpenID Connect ${scheme.openIdConnectUrl ?? ''}`.trim();
  return scheme.type;
}
