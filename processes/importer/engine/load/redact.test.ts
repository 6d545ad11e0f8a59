import { describe, expect, it } from 'vitest';
import { Redactor } from './redact.js';

describe('Redactor', () => {
  const r = new Redactor(['s3cr3t value', 'tok'], 'api_key');

  it('cuts the query key, user info and any parameter holding a secret from URLs', () => {
    expect(r.url('https://user:pw@h.example/a?api_key=zzz&keep=1')).toBe('https://h.example/a?keep=1');
    expect(r.url('https://h.example/a?api_key=zzz')).toBe('https://h.example/a');
    expect(r.url('https://h.example/a?other=s3cr3t+value#frag')).toBe('https://h.example/a#frag');
    expect(r.url(new URL('http://127.0.0.1:81/x?tok=tok'))).toBe('http://127.0.0.1:81/x');
  });

  it('masks secrets, raw and URL-encoded, in free text', () => {
    expect(r.text('failed for s3cr3t value and s3cr3t%20value and s3cr3t+value')).toBe('failed for *** and *** and ***');
    expect(r.text('tok in a token')).toBe('*** in a ***en');
  });

  it('leaves text alone when there is nothing to hide, and ignores secrets too short to search for', () => {
    expect(new Redactor().url('https://h.example/a?b=c')).toBe('https://h.example/a?b=c');
    expect(new Redactor(['ab']).text('about abc')).toBe('about abc');
    expect(r.url('not a url s3cr3t value')).toBe('not a url ***');
  });
});
