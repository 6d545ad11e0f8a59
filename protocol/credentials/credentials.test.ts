import { describe, expect, it } from 'vitest';
import {
  MASK,
  bodySyntax,
  fillMaskedBody,
  fillMaskedUrl,
  isCredentialHeader,
  isCredentialName,
  isReferenceOnly,
  maskBody,
  maskHeaderValue,
  maskUrl,
  replaceSecretValues,
} from './index.js';

const XML_MASK = '&#x2022;'.repeat(6);
const M = JSON.stringify(MASK);

describe('the credential-name rule', () => {
  const credential = [
    'token', 'access_token', 'X-Auth-Token', 'Authorization', 'Proxy-Authorization', 'api-key', 'API_KEY', 'apiKey', 'x-api-key',
    'client_secret', 'Password', 'PASS-WORD', 'passwd', 'session_id', 'JSESSIONID', 'csrf_token', 'X-XSRF-TOKEN', 'X-CSRF',
    'signature', 'X-Amz-Signature', 'Ocp-Apim-Subscription-Key', 'aws_access_key_id', 'private_key', 'PRIVATE-KEY',
    'key', 'KEY', 'K-e_y', 'sig', 'Sig', 'author', 'oauth_nonce', 'refreshToken',
  ];
  const plain = ['id', 'name', 'user', 'username', 'email', 'keyboard', 'monkey', 'hotkey', 'keys', 'signal', 'design', 'sigma', 'Content-Type', 'Accept', 'limit', 'q', 'passport', 'cookie', ''];
  it.each(credential)('%s looks like a credential', (name) => expect(isCredentialName(name)).toBe(true));
  it.each(plain)('%s does not', (name) => expect(isCredentialName(name)).toBe(false));
  it('headers add Cookie and Set-Cookie to the rule', () => {
    expect(isCredentialHeader('Cookie')).toBe(true);
    expect(isCredentialHeader('set-cookie')).toBe(true);
    expect(isCredentialHeader('Authorization')).toBe(true);
    expect(isCredentialHeader('Accept')).toBe(false);
  });
  it('a value made only of references holds no secret', () => {
    expect(isReferenceOnly('${secret:api.token}')).toBe(true);
    expect(isReferenceOnly(' {{token}}${x} ')).toBe(true);
    expect(isReferenceOnly('Bearer ${token}')).toBe(false);
    expect(isReferenceOnly('')).toBe(false);
  });
});

describe('masking JSON bodies', () => {
  const cases: [string, string, string][] = [
    ['a top-level key', '{"user":"bob","password":"hunter2"}', `{"user":"bob","password":${M}}`],
    ['keys at depth, in arrays', '{"a":[{"b":{"api_key":"x1"}},{"c":[{"client-secret":"y"}]}]}', `{"a":[{"b":{"api_key":${M}}},{"c":[{"client-secret":${M}}]}]}`],
    ['formatting kept', '{\n  "token": "abc",\n  "n": 1\n}', `{\n  "token": ${M},\n  "n": 1\n}`],
    ['numbers, booleans and null', '{"pin_token":1234,"sig":true,"key":null}', `{"pin_token":${M},"sig":${M},"key":${M}}`],
    ['an object or array under a credential key, whole', '{"auth":{"user":"u","pass":"p"},"tokens":["a","b"]}', `{"auth":${M},"tokens":${M}}`],
    ['an escaped key', '{"pass\\u0077ord":"x"}', `{"pass\\u0077ord":${M}}`],
    ['a string holding quotes and braces', '{"secret":"a\\"}{,b","x":"y"}', `{"secret":${M},"x":"y"}`],
    ['keys that are values are not keys', '{"name":"password","list":["token"]}', '{"name":"password","list":["token"]}'],
    ['a body that does not parse', '{"password": "abc", "x": ', `{"password": ${M}, "x": `],
    ['an unterminated value', '{"token": "abc', `{"token": ${M}`],
    ['a reference is kept', '{"token":"${secret:t}","password":"{{pw}}"}', '{"token":"${secret:t}","password":"{{pw}}"}'],
    ['a top-level array', '[{"session":"s1"},{"session":"s2"}]', `[{"session":${M}},{"session":${M}}]`],
  ];
  it.each(cases)('%s', (_, input, expected) => expect(maskBody(input, 'json').text).toBe(expected));

  it('counts what it masked, and blanks when asked', () => {
    expect(maskBody('{"a":{"token":"x"},"key":"k"}', 'json')).toEqual({ text: `{"a":{"token":${M}},"key":${M}}`, masked: 2 });
    expect(maskBody('{"token":"x","n":{"password":5}}', 'json', { replacement: '' }).text).toBe('{"token":"","n":{"password":""}}');
  });
  it('masked output still parses', () => {
    const masked = maskBody('{"a":[1,{"access_token":{"deep":[1,2]}},3],"ok":"yes"}', 'json').text;
    expect(JSON.parse(masked)).toEqual({ a: [1, { access_token: MASK }, 3], ok: 'yes' });
  });
});

describe('masking form bodies', () => {
  const cases: [string, string, string][] = [
    ['fields by name', 'user=bob&password=hunter2&x=1', `user=bob&password=${encodeURIComponent(MASK)}&x=1`],
    ['encoded names', 'api%5Fkey=a&csrf+token=b', `api%5Fkey=${encodeURIComponent(MASK)}&csrf+token=${encodeURIComponent(MASK)}`],
    ['repeated fields', 'token=a&token=b', `token=${encodeURIComponent(MASK)}&token=${encodeURIComponent(MASK)}`],
    ['a field without a value is left alone', 'token&x=1', 'token&x=1'],
    ['a reference is kept', 'password=%24%7Bsecret%3Apw%7D', 'password=%24%7Bsecret%3Apw%7D'],
  ];
  it.each(cases)('%s', (_, input, expected) => expect(maskBody(input, 'form').text).toBe(expected));
  it('blanks', () => expect(maskBody('a=1&Password=x', 'form', { replacement: '' }).text).toBe('a=1&Password='));
});

describe('masking XML bodies', () => {
  const cases: [string, string, string][] = [
    ['an element', '<login><user>bob</user><password>hunter2</password></login>', `<login><user>bob</user><password>${XML_MASK}</password></login>`],
    ['a prefixed element (SOAP WS-Security)', '<wsse:UsernameToken><wsse:Username>u</wsse:Username><wsse:Password Type="x">p</wsse:Password></wsse:UsernameToken>', `<wsse:UsernameToken>${XML_MASK}</wsse:UsernameToken>`],
    ['an attribute', '<req api-key="abc" id="1"/>', `<req api-key="${XML_MASK}" id="1"/>`],
    ['single-quoted attributes', "<req token='t' x='1'></req>", `<req token='${XML_MASK}' x='1'></req>`],
    ['namespace declarations are kept', '<a xmlns:auth="urn:auth"><auth:secret>s</auth:secret></a>', `<a xmlns:auth="urn:auth"><auth:secret>${XML_MASK}</auth:secret></a>`],
    ['elements with children, whole', '<auth><user>u</user><pass>p</pass></auth><ok>1</ok>', `<auth>${XML_MASK}</auth><ok>1</ok>`],
    ['comments and CDATA are not elements', '<a><!-- <password>x</password> --><b><![CDATA[<token>t</token>]]></b></a>', '<a><!-- <password>x</password> --><b><![CDATA[<token>t</token>]]></b></a>'],
    ['CDATA inside a credential element', '<token><![CDATA[a<b]]></token>', `<token>${XML_MASK}</token>`],
    ['a prolog and doctype', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "v">]><x><key>k</key></x>', `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "v">]><x><key>${XML_MASK}</key></x>`],
    ['a reference is kept', '<token>${secret:t}</token>', '<token>${secret:t}</token>'],
    ['an unclosed element is masked to the end of its parent', '<a><password>x</a><b>1</b>', `<a><password>${XML_MASK}</a><b>1</b>`],
  ];
  it.each(cases)('%s', (_, input, expected) => expect(maskBody(input, 'xml').text).toBe(expected));
});

describe('masking headers and URLs', () => {
  const cases: [string, string, string][] = [
    ['Authorization', 'Bearer abc.def', `Bearer ${MASK}`],
    ['authorization', 'Basic Ym9iOnB3', `Basic ${MASK}`],
    ['Authorization', 'abc', MASK],
    ['Authorization', 'Bearer ${secret:t}', 'Bearer ${secret:t}'],
    ['Proxy-Authorization', 'Basic eA==', `Basic ${MASK}`],
    ['Cookie', 'a=1; session=2', `a=${MASK}; session=${MASK}`],
    ['Set-Cookie', 'sid=abc; Path=/; HttpOnly', `sid=${MASK}; Path=/; HttpOnly`],
    ['X-Api-Key', 'k', MASK],
    ['X-Api-Key', '${apiKey}', '${apiKey}'],
    ['Accept', 'application/json', 'application/json'],
  ];
  it.each(cases)('%s: %s', (name, value, expected) => expect(maskHeaderValue(name, value)).toBe(expected));

  it('masks credential query parameters and keeps the rest of the URL as written', () => {
    const e = encodeURIComponent(MASK);
    expect(maskUrl('https://h/p?a=1&api_key=xyz&Signature=s#frag').text).toBe(`https://h/p?a=1&api_key=${e}&Signature=${e}#frag`);
    expect(maskUrl('https://h/p?a=1').masked).toBe(0);
    expect(maskUrl('https://h/p?token=x', { replacement: '' }).text).toBe('https://h/p?token=');
  });

  it("masks the password of a URL's user info, keeping the user, as a URL parser finds it", () => {
    const e = encodeURIComponent(MASK);
    expect(maskUrl('http://bob:s3cr3t-pass@127.0.0.1:8080/x?token=t')).toEqual({ text: `http://bob:${e}@127.0.0.1:8080/x?token=${e}`, masked: 2 });
    // The last @ of the authority ends the user info; the authority ends at / ? # or \.
    expect(maskUrl('https://bob:p@ss:w@rd@h/p@q').text).toBe(`https://bob:${e}@h/p@q`);
    expect(maskUrl('http://h/p?u=a:b@c').masked).toBe(0);
    expect(maskUrl('http://bob:pw@h\\x@y').text).toBe(`http://bob:${e}@h\\x@y`);
    expect(maskUrl('http://:pw@h/').text).toBe(`http://:${e}@h/`);
    // No password, a reference, no authority: nothing to mask.
    for (const url of ['http://bob@h/', 'http://bob:@h/', 'http://bob:${secret:pw}@h/', 'http://bob:%24%7Bsecret%3Apw%7D@h/', '{{base}}/x', 'mailto:bob:pw@h', '/bob:pw@h']) expect(maskUrl(url)).toEqual({ text: url, masked: 0 });
    // Blanked (an import), the colon goes with it.
    expect(maskUrl('http://bob:pw@h/', { replacement: '' }).text).toBe('http://bob@h/');
  });
});

describe('filling masked values back in', () => {
  it('takes JSON values from the same place in the current body', () => {
    const recorded = `{\n "user": "bob",\n "password": ${M},\n "deep": {"token": ${M}}\n}`;
    const current = '{"deep":{"token":"t-now"},"password":"pw-now","user":"alice"}';
    expect(fillMaskedBody(recorded, current, 'json')).toBe('{\n "user": "bob",\n "password": "pw-now",\n "deep": {"token": "t-now"}\n}');
  });
  it('refuses when the current body lacks a masked value', () => {
    expect(fillMaskedBody(`{"password":${M}}`, '{"user":"x"}', 'json')).toBeNull();
  });
  it('leaves a body with nothing masked as it is', () => {
    expect(fillMaskedBody('{"token":"${secret:t}"}', '{}', 'json')).toBe('{"token":"${secret:t}"}');
  });
  it('fills form fields and query parameters by name and occurrence', () => {
    const e = encodeURIComponent(MASK);
    expect(fillMaskedBody(`a=1&token=${e}&token=${e}`, 'token=x&token=y', 'form')).toBe('a=1&token=x&token=y');
    expect(fillMaskedUrl(`https://h/p?key=${e}&q=old`, 'https://h/p?q=new&key=K')).toBe('https://h/p?key=K&q=old');
    expect(fillMaskedUrl(`https://h/p?key=${e}`, 'https://h/p')).toBeNull();
    expect(fillMaskedUrl(`https://bob:${e}@h/p?key=${e}`, 'https://bob:pw%2F1@h/p?key=K')).toBe('https://bob:pw%2F1@h/p?key=K');
    expect(fillMaskedUrl(`https://bob:${e}@h/p`, 'https://bob@h/p')).toBeNull();
  });
  it('fills XML elements and attributes', () => {
    expect(fillMaskedBody(`<a k="1"><password>${XML_MASK}</password></a>`, '<a><password>pw</password></a>', 'xml')).toBe('<a k="1"><password>pw</password></a>');
  });
});

describe('the rest', () => {
  it('tells the syntax from the content type, then from the text', () => {
    expect(bodySyntax('application/vnd.api+json; charset=utf-8', '')).toBe('json');
    expect(bodySyntax('application/soap+xml', '')).toBe('xml');
    expect(bodySyntax('application/x-www-form-urlencoded', '')).toBe('form');
    expect(bodySyntax(undefined, '  [1]')).toBe('json');
    expect(bodySyntax('text/plain', '<a/>')).toBe('xml');
    expect(bodySyntax('text/plain', 'hello')).toBeNull();
  });
  it('replaces known secret values, longest first, never short ones', () => {
    expect(replaceSecretValues('tok=abcdef; part=abc; x=ab', [['abc', '<1>'], ['abcdef', '<2>'], ['ab', '<3>']])).toBe('tok=<2>; part=<1>; x=ab');
  });
});
