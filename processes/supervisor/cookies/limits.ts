/**
 * The order the jar's caps (SPEC Limits: 50 cookies per domain, 3,000 in the jar) drop cookies
 * in: the cookie expiring soonest first and session cookies last; among equals, the oldest first.
 */
import type { Cookie } from 'tough-cookie';

/** Milliseconds since the epoch when the cookie expires; Infinity for a session cookie. */
export function expiryOf(cookie: Cookie): number {
  // Read `expires` directly: tough-cookie's expiryTime() compares it with "Infinity" by ==, which
  // formats the Date as text on every call (2 s over a full jar's evictions).
  if (cookie.maxAge != null) return cookie.expiryTime() ?? Infinity;
  return cookie.expires instanceof Date ? cookie.expires.getTime() : Infinity;
}

function createdOf(cookie: Cookie): number {
  return cookie.creation instanceof Date ? cookie.creation.getTime() : 0;
}

export function evictionOrder(a: Cookie, b: Cookie): number {
  const byExpiry = expiryOf(a) - expiryOf(b);
  // Two session cookies: Infinity - Infinity is NaN, and age decides.
  if (byExpiry !== 0 && !Number.isNaN(byExpiry)) return byExpiry;
  return createdOf(a) - createdOf(b);
}

/** The `excess` cookies of `cookies` to drop first. */
export function firstToGo(cookies: Cookie[], excess: number): Cookie[] {
  if (excess <= 0) return [];
  // One over a cap is the usual case: a scan, not a sort of up to 3,000 cookies.
  if (excess === 1) return [cookies.reduce((first, c) => (evictionOrder(c, first) < 0 ? c : first))];
  return [...cookies].sort(evictionOrder).slice(0, excess);
}
