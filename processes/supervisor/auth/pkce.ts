import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636): the verifier kept here, the S256 challenge sent to the browser. */
export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** 32 random bytes: a 43-character verifier, the length RFC 7636 recommends. */
export function createPkcePair(random: (size: number) => Buffer = randomBytes): PkcePair {
  const verifier = random(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url'), method: 'S256' };
}

/** An unguessable `state` binding the callback to this authorization request. */
export function createState(random: (size: number) => Buffer = randomBytes): string {
  return random(24).toString('base64url');
}
