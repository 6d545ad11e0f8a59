import { describe, expect, it } from 'vitest';
import type { CaptureJob } from '../../../protocol/model/capture.js';
import { MAX_CAPTURED_CHARS, cookieCapture, cookieFromHeader, evaluateBodyCaptures, headerCapture, isCredentialCapture, statusCapture } from './captures.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const job = (body: string, captures: CaptureJob['captures'], bodyComplete = true): CaptureJob => ({ captures, body: bytes(body), bodyComplete });
const jsonpath = (expression: string) => ({ source: 'jsonpath' as const, expression });
const xpath = (expression: string) => ({ source: 'xpath' as const, expression });

describe('body captures by JSONPath', () => {
  const body = JSON.stringify({ token: 'abc.def', user: { id: 7, admin: false, tags: ['a', 'b'] }, items: [{ id: 1 }, { id: 2 }], none: null });

  it('reads a string as it is, a number, a boolean, null, an object or an array as JSON, several matches as their JSON array', () => {
    expect(evaluateBodyCaptures(job(body, [jsonpath('$.token'), jsonpath('$.user.id'), jsonpath('$.user.admin'), jsonpath('$.none'), jsonpath('$.user.tags'), jsonpath('$.items[*].id')]))).toEqual([
      { value: 'abc.def' },
      { value: '7' },
      { value: 'false' },
      { value: 'null' },
      { value: '["a","b"]' },
      { value: '[1,2]' },
    ]);
  });

  it('a path matching nothing sets nothing, and says where it looked', () => {
    expect(evaluateBodyCaptures(job(body, [jsonpath('$.missing'), jsonpath('$.items[?(@.id > 5)].id')]))).toEqual([{ error: 'nothing found at $.missing' }, { error: 'nothing found at $.items[?(@.id > 5)].id' }]);
  });

  it('names a path that does not parse, a body that is not JSON, one cut short, and an empty expression', () => {
    expect(evaluateBodyCaptures(job(body, [jsonpath('$.items[?(@.id==)]')]))[0]).toEqual({ error: expect.stringMatching(/^the JSONPath \$\.items\[\?\(@\.id==\)\] is not valid: Expected expression after == /) });
    expect(evaluateBodyCaptures(job('<a/>', [jsonpath('$.a')]))).toEqual([{ error: 'the body is not JSON, so $.a cannot be read' }]);
    expect(evaluateBodyCaptures(job(body, [jsonpath('$.token')], false))).toEqual([{ error: 'the body is too large to read whole' }]);
    expect(evaluateBodyCaptures(job(body, [jsonpath('  ')]))).toEqual([{ error: 'no JSONPath expression' }]);
  });

  it('refuses a value over the limit rather than carry it into every request after', () => {
    const big = JSON.stringify({ blob: 'x'.repeat(MAX_CAPTURED_CHARS + 1) });
    expect(evaluateBodyCaptures(job(big, [jsonpath('$.blob')]))[0]).toEqual({ error: expect.stringMatching(/^the value is 1,048,577 characters long; a capture holds at most 1,048,576$/) });
  });
});

describe('body captures by XPath', () => {
  const soap = '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:LoginResult xmlns:m="urn:auth" expires="3600"><m:token>xyz-123</m:token><m:role>a</m:role><m:role>b</m:role></m:LoginResult></s:Body></s:Envelope>';

  it("reads an element's text, an attribute, a computed value, and several nodes as the JSON array of their texts", () => {
    expect(evaluateBodyCaptures(job(soap, [xpath('//*:token'), xpath('//*:LoginResult/@expires'), xpath('count(//*:role)'), xpath('//*:role'), xpath('string(//s:Body/*/@expires)')]))).toEqual([
      { value: 'xyz-123' },
      { value: '3600' },
      { value: '2' },
      { value: '["a","b"]' },
      { value: '3600' },
    ]);
  });

  it('reads a JSON body as XPath 3.1 maps and arrays', () => {
    expect(evaluateBodyCaptures(job('{"auth":{"token":"t-1"},"ids":[4,5]}', [xpath('?auth?token'), xpath('?ids?2')]))).toEqual([{ value: 't-1' }, { value: '5' }]);
  });

  it('a path matching nothing sets nothing; broken XML, hostile XML and a broken expression each say so', () => {
    expect(evaluateBodyCaptures(job(soap, [xpath('//*:missing')]))).toEqual([{ error: 'nothing found at //*:missing' }]);
    expect(evaluateBodyCaptures(job('<a><b></a>', [xpath('//b')]))).toEqual([{ error: 'the body is not XML that can be read (non-well-formed element: found end tag "a" but expected "b", at line 1, character 7), so //b cannot be read' }]);
    expect(evaluateBodyCaptures(job('<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>', [xpath('/r')]))).toEqual([{ error: 'the body has a DTD (<!DOCTYPE or <!ENTITY), which is never read: no entity is expanded or fetched, so /r cannot be read' }]);
    expect(evaluateBodyCaptures(job(soap, [xpath('//[')]))[0]).toEqual({ error: expect.stringMatching(/^the XPath \/\/\[ is not valid: /) });
    expect(evaluateBodyCaptures(job('plain text', [xpath('/a')]))).toEqual([{ error: 'the body is neither XML nor JSON, so /a cannot be read' }]);
  });
});

describe('head captures', () => {
  it('reads a header by any case, several of one name joined as HTTP reads them, and says when it is missing', () => {
    const headers: [string, string][] = [
      ['Location', '/orders/9'],
      ['x-rate', '1'],
      ['X-Rate', '2'],
    ];
    expect(headerCapture('location', headers)).toEqual({ value: '/orders/9' });
    expect(headerCapture('X-RATE', headers)).toEqual({ value: '1, 2' });
    expect(headerCapture('ETag', headers)).toEqual({ error: 'the response has no ETag header' });
    expect(headerCapture(' ', headers)).toEqual({ error: 'no header name' });
  });

  it('reads the status', () => {
    expect(statusCapture(201)).toEqual({ value: '201' });
  });

  it("reads a cookie the response set (the final response's over a redirect hop's, a quoted value unquoted), or leaves it to the jar", () => {
    const hop: [string, string][] = [['Set-Cookie', 'sid=first; Path=/']];
    const final: [string, string][] = [
      ['set-cookie', 'other=1'],
      ['Set-Cookie', 'sid="second"; HttpOnly'],
    ];
    expect(cookieCapture('sid', [hop, final])).toEqual({ value: 'second' });
    expect(cookieCapture('sid', [hop, []])).toEqual({ value: 'first' });
    expect(cookieCapture('csrf', [hop, final])).toBeUndefined();
    expect(cookieFromHeader('csrf', 'sid=x; csrf=tok-9')).toEqual({ value: 'tok-9' });
    expect(cookieFromHeader('csrf', '')).toEqual({ error: 'the response set no cookie csrf, and the jar holds none for its URL' });
  });
});

describe('isCredentialCapture', () => {
  const c = (name: string, source: 'jsonpath' | 'xpath' | 'header' | 'status' | 'cookie' = 'jsonpath', expression = '$.x') => ({ name, source, expression });

  it('by the credential-name rule of the variable', () => {
    expect(isCredentialCapture(c('token'))).toBe(true);
    expect(isCredentialCapture(c('accessToken'))).toBe(true);
    expect(isCredentialCapture(c('session_id'))).toBe(true);
    expect(isCredentialCapture(c('api-key'))).toBe(true);
    expect(isCredentialCapture(c('orderId'))).toBe(false);
  });

  it('by what it reads: a cookie, a credential header, a path through a credential-named key', () => {
    expect(isCredentialCapture(c('x', 'cookie', 'lang'))).toBe(true);
    expect(isCredentialCapture(c('x', 'header', 'Authorization'))).toBe(true);
    expect(isCredentialCapture(c('x', 'header', 'Location'))).toBe(false);
    expect(isCredentialCapture(c('x', 'jsonpath', '$.data.access_token'))).toBe(true);
    expect(isCredentialCapture(c('x', 'xpath', '//*:password'))).toBe(true);
    expect(isCredentialCapture(c('x', 'status', ''))).toBe(false);
  });
});
