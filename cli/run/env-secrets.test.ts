import { describe, expect, it } from 'vitest';
import { secretEnvName, envSecrets } from './env-secrets.js';

describe('PARLEY_SECRET_ names', () => {
  it('upper-cases the secret name and joins other characters into one _', () => {
    expect(secretEnvName('staging-eu/apiToken')).toBe('PARLEY_SECRET_STAGING_EU_APITOKEN');
    expect(secretEnvName('request/r_12/password')).toBe('PARLEY_SECRET_REQUEST_R_12_PASSWORD');
    const read = envSecrets({ PARLEY_SECRET_CI_TOKEN: 't' });
    expect(read('ci/token')).toBe('t');
    expect(read('other')).toBeUndefined();
  });
});
