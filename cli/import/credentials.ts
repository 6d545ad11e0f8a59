/**
 * Credentials for fetching a definition by URL, from flags and the environment. The secret part
 * (password, token, key) is only ever read from an environment variable: a flag's value shows in
 * `ps` and in shell history. Once read, the variable is removed from this process's environment,
 * so the importer and the other children Parley starts do not inherit it.
 */
import type { FetchCredentials } from '../../protocol/model/import.js';

export const PASSWORD_ENV = 'PARLEY_IMPORT_PASSWORD';
export const TOKEN_ENV = 'PARLEY_IMPORT_TOKEN';
export const APIKEY_ENV = 'PARLEY_IMPORT_APIKEY';

/** The parseArgs options every command that fetches a definition by URL accepts. */
export const CREDENTIAL_OPTIONS = {
  'auth-basic': { type: 'string' },
  'auth-bearer': { type: 'boolean', default: false },
  'auth-apikey': { type: 'string' },
  'apikey-in': { type: 'string' },
  kerberos: { type: 'boolean', default: false },
  spn: { type: 'string' },
} as const;

export interface CredentialFlags {
  'auth-basic'?: string;
  'auth-bearer'?: boolean;
  'auth-apikey'?: string;
  'apikey-in'?: string;
  kerberos?: boolean;
  spn?: string;
}

export const CREDENTIAL_HELP = `Credentials for a URL (the secret comes from the environment, never from a flag):
  --auth-basic <user>       HTTP Basic as <user>; the password is $${PASSWORD_ENV}
  --auth-bearer             a Bearer token from $${TOKEN_ENV}
  --auth-apikey <name>      an API key named <name>; the key is $${APIKEY_ENV}
  --apikey-in header|query  where the API key goes (default: header)
  --kerberos                Kerberos (SPNEGO) with the signed-in ticket (kinit); no secret
  --spn <spn>               the service principal for --kerberos (default: HTTP@<host of the URL>)
`;

/** Whether any credential flag was given (they only make sense with a URL). */
export function credentialFlagGiven(flags: CredentialFlags): boolean {
  return flags['auth-basic'] !== undefined || flags['auth-bearer'] === true || flags['auth-apikey'] !== undefined || flags['apikey-in'] !== undefined || flags.kerberos === true || flags.spn !== undefined;
}

/**
 * The credentials the flags ask for, with their secret taken out of `env`; undefined when none
 * was asked for. Throws an Error whose message is a usage problem (it never holds the secret).
 */
export function credentialsFrom(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env): FetchCredentials | undefined {
  const secrets = { password: env[PASSWORD_ENV], token: env[TOKEN_ENV], apikey: env[APIKEY_ENV] };
  // All three go, used or not: children inherit this environment.
  for (const name of [PASSWORD_ENV, TOKEN_ENV, APIKEY_ENV]) delete env[name];
  const chosen = [flags['auth-basic'] !== undefined, flags['auth-bearer'] === true, flags['auth-apikey'] !== undefined, flags.kerberos === true].filter(Boolean).length;
  if (chosen > 1) throw new Error('choose one of --auth-basic, --auth-bearer, --auth-apikey and --kerberos.');
  if (flags['apikey-in'] !== undefined && flags['auth-apikey'] === undefined) throw new Error('--apikey-in goes with --auth-apikey <name>.');
  if (flags.spn !== undefined && flags.kerberos !== true) throw new Error('--spn goes with --kerberos.');
  if (flags.kerberos) {
    const spn = flags.spn?.trim() ?? '';
    if (flags.spn !== undefined && spn === '') throw new Error('--spn needs the service principal name (HTTP@host).');
    return spn ? { type: 'kerberos', spn } : { type: 'kerberos' };
  }
  if (flags['auth-basic'] !== undefined) {
    if (flags['auth-basic'] === '') throw new Error('--auth-basic needs the user name.');
    // An empty password is a real Basic setup (a key sent as the user name), so only unset is refused.
    const password = secrets.password;
    if (password === undefined) throw new Error(`--auth-basic reads the password from the environment variable ${PASSWORD_ENV}, which is not set.`);
    return { type: 'basic', username: flags['auth-basic'], password };
  }
  if (flags['auth-bearer']) {
    const token = secrets.token;
    if (!token) throw new Error(`--auth-bearer reads the token from the environment variable ${TOKEN_ENV}, which is not set or empty.`);
    return { type: 'bearer', token };
  }
  if (flags['auth-apikey'] !== undefined) {
    const name = flags['auth-apikey'];
    if (name.trim() === '') throw new Error('--auth-apikey needs the name of the header or query parameter.');
    const where = flags['apikey-in'] ?? 'header';
    if (where !== 'header' && where !== 'query') throw new Error(`--apikey-in must be header or query, not ${where}.`);
    const value = secrets.apikey;
    if (!value) throw new Error(`--auth-apikey reads the key from the environment variable ${APIKEY_ENV}, which is not set or empty.`);
    return { type: 'apikey', name, in: where, value };
  }
  return undefined;
}
