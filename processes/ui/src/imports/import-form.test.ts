import { describe, expect, it } from 'vitest';
import { buildRunRequest, emptyForm, progressFraction, versionLabel, type ImportForm } from './import-form.js';
import { credentialsProblem, describeRecordedCredentials, emptyAuth, storedCredentialsFor, toCredentials } from './fetch-credentials.js';

const form = (patch: Partial<ImportForm>): ImportForm => ({ ...emptyForm('/p'), ...patch });

describe('buildRunRequest', () => {
  it('sends a URL with its credentials, the options and the open project', () => {
    const built = buildRunRequest(form({ url: ' https://x.test/api.yaml ', auth: { ...emptyAuth('basic'), username: 'a', password: 'b' }, name: ' Mine ' }), ['/p']);
    expect(built).toEqual({
      request: {
        source: { kind: 'url', url: 'https://x.test/api.yaml', credentials: { type: 'basic', username: 'a', password: 'b' } },
        format: 'auto',
        options: { cacheDefinition: true, importWebhooks: true, name: 'Mine' },
        into: { kind: 'project', project: '/p' },
      },
    });
  });

  it('sends "Use these credentials for requests too" only with Basic or Kerberos credentials on the URL tab', () => {
    const basic = { ...emptyAuth('basic'), username: 'a', password: 'b' };
    const options = (patch: Partial<ImportForm>) => {
      const built = buildRunRequest(form({ url: 'https://x.test/svc?wsdl', useCredentialsForRequests: true, ...patch }), ['/p']);
      return 'request' in built ? built.request.options : undefined;
    };
    expect(options({ auth: basic })).toMatchObject({ useCredentialsForRequests: true });
    expect(options({ auth: basic, format: 'wsdl' })).toMatchObject({ useCredentialsForRequests: true });
    expect(options({ auth: emptyAuth('kerberos') })).toMatchObject({ useCredentialsForRequests: true });
    expect(options({ auth: emptyAuth('none') })).not.toHaveProperty('useCredentialsForRequests');
    expect(options({ auth: { ...emptyAuth('bearer'), token: 't' } })).not.toHaveProperty('useCredentialsForRequests');
    expect(options({ auth: basic, format: 'openapi' })).not.toHaveProperty('useCredentialsForRequests');
    expect(options({ auth: basic, useCredentialsForRequests: false })).not.toHaveProperty('useCredentialsForRequests');
  });

  it('a SoapUI project is taken from the File tab only: pasted with Auto-detect or chosen by hand, it is refused naming the File tab', () => {
    expect(buildRunRequest(form({ tab: 'paste', text: '<con:soapui-project/>' }), ['/p'], 'soapui')).toEqual({ problem: 'Legacy SOAP project cannot be imported from pasted text: use the File tab.' });
    expect(buildRunRequest(form({ tab: 'paste', text: 'x', format: 'soapui' }), ['/p'])).toEqual({ problem: expect.stringMatching(/use the File tab/) });
    expect(buildRunRequest(form({ tab: 'file', filePath: '/a-soapui-project.xml', target: 'new', newPath: '/n', newName: ' Mine ' }), [], 'soapui')).toEqual({
      request: { source: { kind: 'file', path: '/a-soapui-project.xml' }, format: 'auto', options: { cacheDefinition: true, importWebhooks: true }, into: { kind: 'new', path: '/n', name: 'Mine' } },
    });
    expect(versionLabel('soapui-5.7.0')).toBe('SoapUI project (SoapUI 5.7.0)');
    expect(versionLabel('soapui')).toBe('SoapUI project');
  });

  it('says what is missing, one thing at a time', () => {
    expect(buildRunRequest(form({ url: 'ftp://x' }), ['/p'])).toEqual({ problem: expect.stringMatching(/http/) });
    expect(buildRunRequest(form({ url: 'https://x', auth: emptyAuth('bearer') }), ['/p'])).toEqual({ problem: 'Enter the bearer token.' });
    expect(buildRunRequest(form({ tab: 'paste', text: '  ' }), ['/p'])).toEqual({ problem: 'Paste the document to import.' });
    expect(buildRunRequest(form({ tab: 'file', filePath: '/a.yaml' }), [])).toEqual({ problem: 'Choose the project to import into.' });
    expect(buildRunRequest(form({ tab: 'file', filePath: '/a.yaml', target: 'new' }), [])).toEqual({ problem: 'Enter the folder for the new project.' });
  });

  it('imports into a new project with an optional name, and never sends an empty override', () => {
    const built = buildRunRequest(form({ tab: 'file', filePath: '/a.yaml', target: 'new', newPath: '/n', newName: '', baseUrl: '  ', format: 'openapi' }), []);
    expect(built).toEqual({
      request: { source: { kind: 'file', path: '/a.yaml' }, format: 'openapi', options: { cacheDefinition: true, importWebhooks: true }, into: { kind: 'new', path: '/n' } },
    });
  });
});

describe('credentials', () => {
  it('sends nothing for None and for stored credentials (the supervisor adds those)', () => {
    expect(toCredentials(emptyAuth('none'))).toBeUndefined();
    expect(toCredentials(emptyAuth('stored'))).toBeUndefined();
    expect(toCredentials({ ...emptyAuth('apikey'), keyName: ' k ', keyValue: 'v', keyIn: 'query' })).toEqual({ type: 'apikey', name: 'k', value: 'v', in: 'query' });
  });

  it('sends Kerberos with the SPN only when one is typed, never asks for a secret, and names it without a keychain', () => {
    expect(toCredentials(emptyAuth('kerberos'))).toEqual({ type: 'kerberos' });
    expect(toCredentials({ ...emptyAuth('kerberos'), spn: ' HTTP@wsdl.test ' })).toEqual({ type: 'kerberos', spn: 'HTTP@wsdl.test' });
    expect(credentialsProblem(emptyAuth('kerberos'))).toBeNull();
    expect(describeRecordedCredentials({ type: 'kerberos' })).toBe('Kerberos (your signed-in ticket)');
    expect(describeRecordedCredentials({ type: 'kerberos', spn: 'HTTP@wsdl.test' })).toBe('Kerberos (your signed-in ticket, SPN HTTP@wsdl.test)');
  });

  it('offers stored credentials only on the recorded source’s origin', () => {
    const recorded = { kind: 'url' as const, location: 'https://a.test:8443/spec.yaml', credentials: { type: 'bearer' as const, secret: '${secret:x}' } };
    expect(storedCredentialsFor('https://a.test:8443/other.yaml', recorded)).toBe(true);
    expect(storedCredentialsFor('https://a.test/spec.yaml', recorded)).toBe(false);
    expect(storedCredentialsFor('https://a.test:8443/spec.yaml', { kind: 'url', location: recorded.location })).toBe(false);
  });
});

describe('labels and progress', () => {
  it('names declared versions as people write them', () => {
    expect(versionLabel('openapi-3.1')).toBe('OpenAPI 3.1');
    expect(versionLabel('swagger-2.0')).toBe('Swagger 2.0');
    expect(versionLabel('wsdl-1.1')).toBe('WSDL 1.1');
    expect(versionLabel('har-1.2')).toBe('HAR 1.2');
    expect(versionLabel('other')).toBe('other');
  });

  it('moves forward through the phases', () => {
    const read = progressFraction({ phase: 'read', message: '' });
    const resolving = progressFraction({ phase: 'resolve', message: '', done: 1, total: 2 });
    const done = progressFraction({ phase: 'done', message: '', done: 3, total: 3 });
    expect(read).toBeLessThan(resolving);
    expect(resolving).toBeLessThan(done);
    expect(done).toBe(1);
  });
});

describe('the Format list and workspace formats', () => {
  it('names Auto-detect and every built format, and no format this build lacks', async () => {
    const { FORMAT_OPTIONS } = await import('./import-form.js');
    expect(FORMAT_OPTIONS.map((f) => f.id)).toEqual(['auto', 'openapi', 'postman-collection', 'postman-environment', 'postman-globals', 'har', 'http', 'http-env', 'wsdl', 'protobuf', 'soapui']);
  });

  it('the Server tab builds a grpc-server source; Target and its TLS become the base URL options', async () => {
    const { buildRunRequest, emptyForm } = await import('./import-form.js');
    const form = { ...emptyForm('/p'), tab: 'server' as const, server: { address: 'localhost:50051', reflection: 'v1alpha' as const, tls: true, insecure: true, target: '', targetTls: false } };
    expect(buildRunRequest(form, ['/p'])).toMatchObject({ request: { source: { kind: 'grpc-server', address: 'localhost:50051', reflection: 'v1alpha', tls: true, insecure: true }, options: { targetTls: true }, into: { kind: 'project', project: '/p' } } });
    expect(buildRunRequest({ ...form, server: { ...form.server, target: 'api.example:443', targetTls: true } }, ['/p'])).toMatchObject({ request: { options: { baseUrl: 'api.example:443', targetTls: true } } });
    expect(buildRunRequest({ ...form, server: { ...form.server, address: 'not an address' } }, ['/p'])).toEqual({ problem: expect.stringContaining('host:port') });
  });

  it('a picked .http file sends "Also import N environments" as the user left it; a paste does not', async () => {
    const { buildRunRequest, emptyForm } = await import('./import-form.js');
    const file = { ...emptyForm('/p'), tab: 'file' as const, filePath: '/w/api.http' };
    expect(buildRunRequest(file, ['/p'], 'http')).toMatchObject({ request: { options: { httpEnvironments: true } } });
    expect(buildRunRequest({ ...file, format: 'http', httpEnvironments: false }, ['/p'])).toMatchObject({ request: { options: { httpEnvironments: false } } });
    const paste = buildRunRequest({ ...emptyForm('/p'), tab: 'paste' as const, text: 'GET https://x' }, ['/p'], 'http');
    expect('request' in paste && 'httpEnvironments' in paste.request.options).toBe(false);
    // Environment files land in the workspace: no project is asked for.
    expect(buildRunRequest({ ...emptyForm(undefined), tab: 'paste' as const, text: '{}', format: 'http-env', target: 'new' as const }, [])).toMatchObject({ request: { format: 'http-env' } });
  });

  it('an environment or globals export asks for no project; a collection without a URL tab is refused from a URL', async () => {
    const { buildRunRequest, emptyForm } = await import('./import-form.js');
    const form = { ...emptyForm(undefined), tab: 'paste' as const, text: '{}', format: 'postman-environment', target: 'new' as const };
    const built = buildRunRequest(form, []);
    expect(built).toEqual({ request: { source: { kind: 'paste', text: '{}' }, format: 'postman-environment', options: { cacheDefinition: true, importWebhooks: true } } });
    // Auto-detect that recognised globals: no project either.
    expect(buildRunRequest({ ...form, format: 'auto' }, [], 'postman-globals')).toMatchObject({ request: { format: 'auto' } });
    expect(buildRunRequest({ ...form, format: 'auto' }, [])).toEqual({ problem: 'Enter the folder for the new project.' });
    expect(buildRunRequest({ ...form, tab: 'url', url: 'https://x.test/c.json', format: 'postman-collection' }, [])).toMatchObject({ problem: expect.stringContaining('cannot be imported from a URL') });
  });

  it('HAR (chosen or recognised) sends its options: Include static assets and Recorded responses', async () => {
    const { buildRunRequest, emptyForm } = await import('./import-form.js');
    const form = { ...emptyForm('/p'), tab: 'paste' as const, text: '{"log":{}}', includeStaticAssets: true, recordedResponses: 'examples' as const };
    const har = { cacheDefinition: true, importWebhooks: true, includeStaticAssets: true, recordedResponses: 'examples' };
    expect(buildRunRequest({ ...form, format: 'har' }, ['/p'])).toMatchObject({ request: { format: 'har', options: har } });
    expect(buildRunRequest(form, ['/p'], 'har')).toMatchObject({ request: { format: 'auto', options: har } });
    expect(buildRunRequest(form, ['/p'], 'openapi')).toEqual({ request: { source: { kind: 'paste', text: '{"log":{}}' }, format: 'auto', options: { cacheDefinition: true, importWebhooks: true }, into: { kind: 'project', project: '/p' } } });
    expect(buildRunRequest({ ...form, tab: 'url', url: 'https://x.test/a.har', format: 'har' }, ['/p'])).toMatchObject({ problem: expect.stringContaining('cannot be imported from a URL') });
  });

  it('Copy report lists what was made, Things to look at and Notes', async () => {
    const { reportText } = await import('./import-form.js');
    const text = reportText({
      detection: null,
      apis: [],
      workspace: { environments: [{ id: 'e_1', name: 'Staging 2', variables: 3, secrets: 1 }] },
      report: { format: 'postman-environment', declaredVersion: 'postman-environment', baseUrl: '', requestCount: 0, folderCount: 0, webhookCount: 0, securitySchemes: [], unimported: [], warnings: [{ message: 'token is a secret with no exported value' }], errors: [], notes: [{ message: 'Not made active.' }], importedAt: '2025-01-01T00:00:00.000Z' },
    });
    expect(text).toBe('Import (Postman environment) into the workspace\nEnvironment Staging 2: 3 variables, 1 secret (not active)\n\nThings to look at\n- token is a secret with no exported value\n\nNotes\n- Not made active.\n');
  });
});
