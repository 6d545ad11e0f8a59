import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankRequest, type Request } from '../model/request.js';
import type { Mock } from '../model/mock.js';
import { MASK } from './names.js';
import { leaveOutSecrets, refillSecrets } from './draft-secrets.js';

const saved = (): Request => ({
  ...blankRequest({ id: 'r1', name: 'Log in', method: 'POST', url: 'https://api.example.com/login?api_key=FILEKEY&page=2' }),
  headers: [
    { name: 'Accept', value: 'application/json', enabled: true },
    { name: 'X-Api-Token', value: '${secret:api/token}', enabled: true },
  ],
  auth: { type: 'basic', username: 'ada', password: '${secret:request/r1/password}' },
  body: {
    kind: 'raw',
    raw: { language: 'json', text: '{\n  "user": "ada",\n  "password": "from-the-file"\n}' },
    form: [],
    multipart: [],
    binary: { file: '', contentType: 'application/octet-stream' },
  },
});

describe('leaving secrets out of a kept draft', () => {
  it('blanks what was typed, names it, and keeps references and the rest', () => {
    const draft = saved();
    draft.url = 'https://ada:typed-pass@api.example.com/login?api_key=TYPEDKEY&page=3';
    draft.auth = { type: 'basic', username: 'ada', password: 'hunter2-typed' };
    draft.headers.push({ name: 'Authorization', value: 'Bearer typed-bearer-token', enabled: true });
    draft.body.raw.text = '{"user": "ada", "password": "typed-body-password", "note": "hello"}';
    const kept = leaveOutSecrets(draft, saved());
    const text = JSON.stringify(kept.value);
    for (const secret of ['typed-pass', 'TYPEDKEY', 'hunter2-typed', 'typed-bearer-token', 'typed-body-password']) expect(text).not.toContain(secret);
    expect(kept.value.url).toBe('https://ada:@api.example.com/login?api_key=&page=3');
    expect(kept.value.auth).toEqual({ type: 'basic', username: 'ada', password: '' });
    expect(kept.value.headers[1]!.value).toBe('${secret:api/token}');
    expect(kept.value.headers[2]!.value).toBe('Bearer ');
    expect(kept.value.body.raw.text).toBe('{"user": "ada", "password": "", "note": "hello"}');
    expect(kept.leftOut).toEqual(['URL password', 'URL parameter "api_key"', 'header "Authorization"', 'body value /password', 'auth password']);
  });

  it('keeps a value the file holds as the mask, and takes it from the file again on restore', () => {
    const draft = saved();
    draft.method = 'PUT';
    const kept = leaveOutSecrets(draft, saved());
    expect(kept.leftOut).toEqual([]);
    expect(JSON.stringify(kept.value)).not.toContain('FILEKEY');
    expect(JSON.stringify(kept.value)).not.toContain('from-the-file');
    expect(kept.value.body.raw.text).toContain(JSON.stringify(MASK));
    expect(refillSecrets(kept.value, saved())).toEqual(draft);
  });

  it('restores a blanked value as blank, and a masked one with no counterpart as blank', () => {
    const draft = saved();
    draft.auth = { type: 'bearer', token: 'typed' };
    const kept = leaveOutSecrets(draft, saved());
    const otherSaved = saved();
    otherSaved.url = 'https://api.example.com/login';
    otherSaved.body.raw.text = '';
    const back = refillSecrets(kept.value, otherSaved);
    expect(back.auth).toEqual({ type: 'bearer', token: '' });
    expect(back.url).toBe('https://api.example.com/login?api_key=&page=2');
    expect(back.body.raw.text).toBe('{\n  "user": "ada",\n  "password": ""\n}');
  });

  it('without a saved document, blanks every secret; a masked value stays masked (a second pass changes nothing)', () => {
    const draft = saved();
    draft.auth = { type: 'apikey', name: 'X-Key', value: 'typed-key', in: 'header' };
    const first = leaveOutSecrets(draft, saved());
    const second = leaveOutSecrets(first.value);
    expect(second.value).toEqual(first.value);
    expect(second.leftOut).toEqual([]);
    const alone = leaveOutSecrets(draft);
    expect(JSON.stringify(alone.value)).not.toContain('FILEKEY');
    expect(alone.leftOut).toContain('auth value');
  });

  it('covers environments, globals, project properties and mock responses', () => {
    const envs = {
      environments: [{ id: 'e1', name: 'Staging', variables: [{ name: 'host', value: 'staging.example.com', enabled: true }, { name: 'apiToken', value: 'typed-env-token', enabled: true }] }],
      globals: [{ name: 'password', value: 'typed-global', enabled: true }, { name: 'ref', value: '${secret:x}', enabled: true }],
    };
    const keptEnvs = leaveOutSecrets(envs, { environments: [], globals: [] });
    expect(JSON.stringify(keptEnvs.value)).not.toMatch(/typed-/);
    expect(keptEnvs.value.environments[0]!.variables[0]!.value).toBe('staging.example.com');
    expect(keptEnvs.leftOut).toEqual(['variable "apiToken"', 'global "password"']);

    const props = leaveOutSecrets([{ name: 'clientSecret', value: 'typed-prop', enabled: true }], []);
    expect(props.leftOut).toEqual(['property "clientSecret"']);

    const mock = {
      operations: [{ responses: [{ headers: [{ name: 'Set-Cookie', value: 'sid=typed-cookie; Path=/' }], body: { kind: 'json', text: '{"token":"typed-mock-token"}' }, values: {} }] }],
    } as unknown as Mock;
    const keptMock = leaveOutSecrets(mock, { operations: [] });
    expect(JSON.stringify(keptMock.value)).not.toMatch(/typed-/);
  });

  it('treats names from outside as names: __proto__ and constructor keys are copied as own properties', () => {
    const draft = JSON.parse('{"values": {"__proto__": {"from": "header", "name": "x"}, "constructor": {"from": "query", "name": "y"}}}') as Record<string, unknown>;
    const kept = leaveOutSecrets(draft, JSON.parse('{"values": {"__proto__": 1}}'));
    const values = kept.value.values as Record<string, unknown>;
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.hasOwn(values, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')!.value).toEqual({ from: 'header', name: 'x' });
    expect(values.constructor).toEqual({ from: 'query', name: 'y' });
  });

  it('property: no typed secret, in any auth, header, URL or body place, is in the kept draft', () => {
    // Marked, so the value cannot be a word the rest of the document happens to hold.
    const secret = fc
      .string({ minLength: 1, maxLength: 24, unit: 'grapheme' })
      .filter((s) => !s.includes('$') && !s.includes('{') && !s.includes(MASK))
      .map((s) => `Zq${s}qZ`);
    fc.assert(
      fc.property(secret, fc.constantFrom('auth', 'header', 'url', 'body', 'userinfo'), (value, place) => {
        const draft = saved();
        if (place === 'auth') draft.auth = { type: 'oauth2', grant: 'client_credentials', tokenUrl: 'https://t', authorizationUrl: '', clientId: 'c', clientSecret: value, scope: '', usePkce: true };
        if (place === 'header') draft.headers.push({ name: 'Cookie', value: `sid=${value}`, enabled: true });
        if (place === 'url') draft.url = `https://h/p?access_token=${encodeURIComponent(value)}`;
        if (place === 'userinfo') draft.url = `https://u:${encodeURIComponent(value)}@h/p`;
        if (place === 'body') draft.body.raw.text = JSON.stringify({ secret: value });
        const kept = leaveOutSecrets(draft, saved());
        const text = JSON.stringify(kept.value);
        expect(text).not.toContain(JSON.stringify(value).slice(1, -1));
        expect(text).not.toContain(encodeURIComponent(value));
        expect(kept.leftOut.length).toBe(1);
      }),
      { numRuns: 200 },
    );
  });
});
