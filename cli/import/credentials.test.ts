/** `--kerberos` and `--spn` on the command line: what they make, and the usage problems they refuse. */
import { describe, expect, it } from 'vitest';
import { credentialFlagGiven, credentialsFrom } from './credentials.js';

describe('--kerberos and --spn', () => {
  it('make Kerberos credentials, with the SPN when given, and take no secret from the environment', () => {
    expect(credentialsFrom({ kerberos: true }, {})).toEqual({ type: 'kerberos' });
    expect(credentialsFrom({ kerberos: true, spn: ' HTTP@wsdl.example.test ' }, {})).toEqual({ type: 'kerberos', spn: 'HTTP@wsdl.example.test' });
    expect(credentialFlagGiven({ kerberos: true })).toBe(true);
    expect(credentialFlagGiven({ spn: 'HTTP@x' })).toBe(true);
    expect(credentialFlagGiven({ kerberos: false })).toBe(false);
  });

  it('refuse --spn without --kerberos, an empty --spn, and Kerberos with another credential', () => {
    expect(() => credentialsFrom({ spn: 'HTTP@x' }, {})).toThrow('--spn goes with --kerberos.');
    expect(() => credentialsFrom({ kerberos: true, spn: ' ' }, {})).toThrow('--spn needs the service principal name');
    expect(() => credentialsFrom({ kerberos: true, 'auth-basic': 'alice' }, { PARLEY_IMPORT_PASSWORD: 'x' })).toThrow('choose one of --auth-basic, --auth-bearer, --auth-apikey and --kerberos.');
  });
});
