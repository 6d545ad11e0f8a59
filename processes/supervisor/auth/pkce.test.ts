import { describe, expect, it } from 'vitest';
import { createPkcePair } from './pkce.js';

describe('createPkcePair', () => {
  it('matches the S256 example of RFC 7636 appendix B', () => {
    const octets = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];
    const pair = createPkcePair(() => Buffer.from(octets));
    expect(pair).toEqual({ verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', method: 'S256' });
  });
});
