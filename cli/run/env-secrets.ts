/**
 * Secrets for CI without a keychain: `${secret:<name>}` reads PARLEY_SECRET_<NAME> first, where
 * <NAME> is the secret's name upper-cased with every run of other characters than A-Z and 0-9
 * made one `_` (`staging-eu/apiToken` -> PARLEY_SECRET_STAGING_EU_APITOKEN; protocol/secret-names.ts,
 * which the send's "has no value" message uses too). A name without such a variable is asked of
 * the workspace's secret store (keychain, or the vault unlocked with PARLEY_VAULT_PASSPHRASE).
 */
import { secretEnvName } from '../../protocol/secret-names.js';

export { SECRET_ENV_PREFIX, secretEnvName } from '../../protocol/secret-names.js';

export function envSecrets(env: NodeJS.ProcessEnv): (name: string) => string | undefined {
  return (name) => {
    const key = secretEnvName(name);
    return Object.hasOwn(env, key) ? env[key] : undefined;
  };
}
