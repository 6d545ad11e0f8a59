/**
 * Names Parley gives the secrets it stores for you (docs/secrets.md): one rule for Add secret…
 * in the Environments tab and for the secrets an environment or globals import brings. A name
 * is letters, digits and `. _ - : /`, up to 200 characters.
 */

/** An environment's name as the first part of its secrets' names: "Staging EU" -> "staging-eu". */
export function secretSlug(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'environment';
}

/** A variable's name as the last part of a secret's name: other characters become `-`. */
function variablePart(name: string): string {
  return name.trim().replace(/[^A-Za-z0-9_.:-]+/g, '-').replace(/^-+|-+$/g, '') || 'value';
}

/** The keychain name of an environment's secret variable: `staging-eu/apiToken`. */
export function environmentSecretName(environment: string, variable: string): string {
  return `${secretSlug(environment).slice(0, 80)}/${variablePart(variable)}`.slice(0, 200);
}

/** The keychain name of a secret global: the variable's own name, as Add secret… offers it. */
export function globalSecretName(variable: string): string {
  return variablePart(variable).slice(0, 200);
}

/**
 * The environment variable `parley run` reads a secret from before the store (CI without a
 * keychain): `PARLEY_SECRET_` and the name upper-cased, each run of characters other than A-Z and
 * 0-9 made one `_` (`staging-eu/apiToken` -> PARLEY_SECRET_STAGING_EU_APITOKEN).
 */
export const SECRET_ENV_PREFIX = 'PARLEY_SECRET_';

export function secretEnvName(name: string): string {
  return SECRET_ENV_PREFIX + name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}
