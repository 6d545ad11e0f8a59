/**
 * Secrets for CI without a keychain: `${secret:<name>}` reads PARLEY_SECRET_<NAME> first, where
 * <NAME> is the secret's name upper-cased with every run of other characters than A-Z and 0-9
 * made one `_` (`staging-eu/apiToken` -> PARLEY_SECRET_STAGING_EU_APITOKEN). A name without such
 * a variable is asked of the keychain, as the app does.
 */
export const SECRET_ENV_PREFIX = 'PARLEY_SECRET_';

export function secretEnvName(name: string): string {
  return SECRET_ENV_PREFIX + name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

export function envSecrets(env: NodeJS.ProcessEnv): (name: string) => string | undefined {
  return (name) => {
    const key = secretEnvName(name);
    return Object.hasOwn(env, key) ? env[key] : undefined;
  };
}
