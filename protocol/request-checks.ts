/**
 * What is wrong with a request before it is sent: an auth whose required values are empty, a
 * URL that cannot be a URL. One set of rules for the send (processes/supervisor/send/resolve.ts
 * refuses with them, on the expanded values) and the request pane (which shows them under the
 * URL and on the Auth tab before Send, on the values as typed).
 */
import type { Auth } from './model/auth.js';

/** The labels, as the Auth tab shows them, of the values `auth` needs and does not have. */
export function emptyAuthFields(auth: Auth, value: (text: string) => string = (t) => t): string[] {
  const empty = (text: string) => value(text).trim() === '';
  const missing: string[] = [];
  const need = (label: string, text: string) => empty(text) && missing.push(label);
  switch (auth.type) {
    case 'inherit':
    case 'none':
    case 'kerberos': // the signed-in ticket; an empty SPN means HTTP@<host>
      break;
    case 'basic':
      // A password may be empty (some services take a key as the user name); the user name may not.
      need('Username', auth.username);
      break;
    case 'bearer':
      need('Token', auth.token);
      break;
    case 'apikey':
      need(auth.in === 'header' ? 'Header name' : 'Parameter name', auth.name);
      need('Key', auth.value);
      break;
    case 'oauth2':
      if (auth.grant === 'authorization_code') need('Authorization URL', auth.authorizationUrl);
      need('Token URL', auth.tokenUrl);
      need('Client ID', auth.clientId);
      break;
  }
  return missing;
}

const AUTH_NAMES: Record<Auth['type'], string> = {
  inherit: 'Inherited',
  none: 'No',
  basic: 'Basic',
  bearer: 'Bearer',
  apikey: 'API key',
  kerberos: 'Kerberos',
  oauth2: 'OAuth 2',
};

/** "Basic auth has no Username": the sentence both the pane and a refused send use. */
export function emptyAuthMessage(auth: Auth, fields: string[], from?: string): string {
  const list = fields.length === 1 ? fields[0]! : `${fields.slice(0, -1).join(', ')} or ${fields[fields.length - 1]!}`;
  return `${AUTH_NAMES[auth.type]} auth${from ? ` (from ${from})` : ''} has no ${list}`;
}

const SCHEME = /^([^:/?#\s]*):\/\//;
const VALID_SCHEME = /^[a-z][a-z0-9+.-]*$/i;

/**
 * Why `url` cannot be sent as written, or null. `url` is a full URL or a path under a base URL;
 * `${...}` expansions and `{name}` placeholders should already be filled (or stood in for).
 * Checks what `new URL` would quietly "fix": a scheme that is not one (it would become a path),
 * white space (it would be encoded) and a `%` that starts no escape.
 */
export function urlProblem(url: string): string | null {
  const scheme = SCHEME.exec(url);
  if (scheme && !VALID_SCHEME.test(scheme[1]!)) {
    return scheme[1] ? `"${scheme[1]}" is not a URL scheme: start with http:// or https://` : 'it starts with :// and has no scheme: start with http:// or https://';
  }
  const space = /\s/.exec(url);
  if (space) return space[0] === ' ' ? 'it contains a space: write it as %20' : 'it contains a tab or a line break';
  const percent = /%(?![0-9a-fA-F]{2})/.exec(url);
  if (percent) return `"${url.slice(percent.index, percent.index + 3)}" is not a percent-escape: write a literal % as %25`;
  if (scheme) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'it is not a valid URL (look at the host name and the port)';
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol} URLs are not HTTP requests: use http:// or https://`;
    if (!parsed.hostname) return 'it has no host name';
  }
  return null;
}

/** `${...}` expansions and `{name}` placeholders replaced by a plain stand-in, for checking what the user typed. */
export function withStandIns(url: string): string {
  return url.replace(/\$\{[^{}]*\}/g, 'x').replace(/\{[^{}/?#]*\}/g, 'x');
}
