/**
 * Redaction by value: the credential values an exchange carried (carriedValues), every form a
 * value takes in text (valueForms), the byte engine for binary bodies, and an example recorded
 * with replacements.
 */
import { describe, expect, it } from 'vitest';
import { CARRIED_VALUE_MIN, MASK, carriedReplacements, carriedValues, replaceSecretValues, replaceSecretValuesInBytes, valueForms } from './index.js';
import { recordExample } from '../project/examples.js';

const basic = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

describe('carriedValues', () => {
  it('takes the credentials of the request, the cookies sent and set, and the response’s credential headers', () => {
    const values = carriedValues({
      url: 'http://ann:url-pass-2291@127.0.0.1/x',
      request: [
        ['Authorization', 'Bearer tok-aaaaaaaa11'],
        ['Proxy-Authorization', `Basic ${basic('bob', 'proxy-pw-7781')}`],
        ['X-Api-Key', 'key-bbbbbbbb22'],
        ['Cookie', 'hand=hand-set-cookie-33; lang=en; q="quoted-value-44"'],
        ['X-Plain', 'not-a-credential-55'],
      ],
      responses: [
        [['Set-Cookie', 'hop=hop-cookie-66; Path=/'], ['Location', '/next']],
        [['Set-Cookie', 'sid=final-cookie-77; HttpOnly'], ['X-Session-Token', 'srv-token-88'], ['Set-Cookie', 'v=1']],
      ],
      jarCookies: ['jar-cookie-99aa', 'en'],
    });
    expect(values.sort()).toEqual(
      [
        'url-pass-2291',
        basic('ann', 'url-pass-2291'),
        'tok-aaaaaaaa11',
        basic('bob', 'proxy-pw-7781'),
        'proxy-pw-7781',
        'key-bbbbbbbb22',
        'hand-set-cookie-33',
        'quoted-value-44',
        'hop-cookie-66',
        'final-cookie-77',
        'srv-token-88',
        'jar-cookie-99aa',
      ].sort(),
    );
  });

  it(`leaves values under ${CARRIED_VALUE_MIN} characters and references alone`, () => {
    expect(carriedValues({ request: [['Cookie', 'lang=en; consent=true; v=1; theme=dark']], responses: [[['Set-Cookie', 'n=1234567']]], jarCookies: ['1'] })).toEqual([]);
    expect(carriedValues({ request: [['Authorization', 'Bearer ${secret:token}'], ['X-Api-Key', '${apiKey}']], responses: [] })).toEqual([]);
  });

  it('masks every form a carried value is reflected in, and keeps short words', () => {
    const pairs = carriedReplacements(carriedValues({ request: [['Cookie', 'sid=a/b+c d"e\\f%2Fg; lang=en']], responses: [] }));
    const value = 'a/b+c d"e\\f%2Fg';
    // A JSON body writes each value JSON-escaped; PHP also escapes every `/`.
    const body = JSON.stringify({ raw: value, url: `?s=${encodeURIComponent(value)}`, form: new URLSearchParams({ s: value }).toString(), decoded: decodeURIComponent(value), lang: 'en', one: 1 });
    const masked = { raw: MASK, url: `?s=${MASK}`, form: `s=${MASK}`, decoded: MASK, lang: 'en', one: 1 };
    expect(JSON.parse(replaceSecretValues(body, pairs))).toEqual(masked);
    expect(JSON.parse(replaceSecretValues(body.replaceAll('/', '\\/'), pairs))).toEqual(masked);
  });
});

describe('valueForms', () => {
  it('lists a value as is, percent-encoded, form-encoded, JSON-escaped (with \\/) and percent-decoded', () => {
    expect(valueForms('a"b/c%41')).toEqual(['a"b/c%41', 'a%22b%2Fc%2541', 'a\\"b/c%41', 'a\\"b\\/c%41', 'a"b/cA', 'a%22b%2FcA', 'a\\"b/cA', 'a\\"b\\/cA']);
    expect(valueForms('plain-value')).toEqual(['plain-value']);
  });
});

describe('replaceSecretValuesInBytes', () => {
  it('replaces a value’s UTF-8 bytes inside a binary body, and leaves a body without it as it was', () => {
    const secret = 'sécret-bytes-1';
    const bytes = Uint8Array.from([0, 255, ...new TextEncoder().encode(secret), 0, 1]);
    const out = replaceSecretValuesInBytes(bytes, [[secret, MASK]]);
    expect([...out]).toEqual([0, 255, ...new TextEncoder().encode(MASK), 0, 1]);
    const other = Uint8Array.from([0, 1, 2]);
    expect(replaceSecretValuesInBytes(other, [[secret, MASK]])).toBe(other);
  });
});

describe('recordExample with replacements', () => {
  const pairs = carriedReplacements(['reflected-cookie-1']);
  it('masks a reflected value in a header and a JSON body, before the credential-name rule', () => {
    const body = new TextEncoder().encode(JSON.stringify({ echo: 'sid=reflected-cookie-1', token: 'x', n: 1 }));
    const example = recordExample({ status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json'], ['X-Echo', 'reflected-cookie-1']], body, size: body.byteLength }, '2026-01-01T00:00:00Z', pairs);
    expect(example.headers).toContainEqual(['X-Echo', MASK]);
    expect(JSON.parse(new TextDecoder().decode(example.body))).toEqual({ echo: `sid=${MASK}`, token: MASK, n: 1 });
    expect(example.masked).toBe(true);
  });

  it('masks it in a binary body too, and marks nothing when there was nothing to mask', () => {
    const body = Uint8Array.from([0xff, 0, ...new TextEncoder().encode('reflected-cookie-1'), 0xfe]);
    const example = recordExample({ status: 200, statusText: 'OK', headers: [['Content-Type', 'application/octet-stream']], body, size: body.byteLength }, '2026-01-01T00:00:00Z', pairs);
    expect(Buffer.from(example.body).toString('latin1')).not.toContain('reflected-cookie-1');
    expect(example.masked).toBe(true);
    const plain = new TextEncoder().encode('{"ok":true}');
    expect(recordExample({ status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']], body: plain, size: plain.byteLength }, '2026-01-01T00:00:00Z', pairs).masked).toBe(false);
  });
});
