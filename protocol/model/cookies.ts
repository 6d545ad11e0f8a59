/**
 * The workspace's cookie jar as the bus carries it: what became of each Set-Cookie (the
 * response's Cookies tab), the jar's entries (the jar tab) and a cookie typed into the jar tab.
 * Cookie values travel only where they are needed: an outcome never carries one (the UI reads it
 * from the Set-Cookie header it already holds), and the jar lists values only when asked.
 */
import { Type as T, type Static } from '@sinclair/typebox';

export const COOKIE_LIMITS = {
  /** Name plus value, in UTF-8 bytes: a bigger cookie is ignored. */
  cookieBytes: 4096,
  perDomain: 50,
  total: 3000,
} as const;

/** Why a Set-Cookie was ignored, or how it deleted a cookie; the message says it in words. */
export const CookieReasonCode = T.Union([
  // ignored
  T.Literal('unparsable'),
  T.Literal('too-large'),
  T.Literal('public-suffix'),
  T.Literal('domain-mismatch'),
  T.Literal('secure-over-http'),
  T.Literal('prefix'),
  T.Literal('evicted'),
  T.Literal('refused'),
  T.Literal('jar-unavailable'),
  // deleted
  T.Literal('expired'),
  T.Literal('max-age'),
]);
export type CookieReasonCode = Static<typeof CookieReasonCode>;

export const CookieKey = T.Object({ domain: T.String(), path: T.String(), name: T.String() });
export type CookieKey = Static<typeof CookieKey>;

/** One Set-Cookie header's fate, in the order the headers came. */
export const CookieOutcome = T.Object({
  /** Empty when the header did not parse. */
  name: T.String(),
  /** The domain and path the cookie is (or would have been) kept under; empty when unknown. */
  domain: T.String(),
  path: T.String(),
  outcome: T.Union([T.Literal('stored'), T.Literal('deleted'), T.Literal('ignored')]),
  reason: T.Optional(T.Object({ code: CookieReasonCode, message: T.String() })),
  /** A stored cookie's expiry (ISO 8601); absent for a session cookie. */
  expires: T.Optional(T.String()),
  /** A stored cookie replaced one of the same domain, path and name; a delete found one to remove. */
  existed: T.Optional(T.Boolean()),
  /** Stored with an expiry where the system has secure storage: it survives a restart. */
  persisted: T.Optional(T.Boolean()),
  /** Cookies the jar dropped to stay within its caps when this one was stored. */
  evicted: T.Optional(T.Array(CookieKey)),
});
export type CookieOutcome = Static<typeof CookieOutcome>;

/** A cookie in the jar, as the jar tab lists it. */
export const JarCookie = T.Object({
  domain: T.String(),
  path: T.String(),
  name: T.String(),
  /** Present only when the values were asked for (Show values, Edit). */
  value: T.Optional(T.String()),
  /** Sent only to `domain` itself, not to its subdomains. */
  hostOnly: T.Boolean(),
  secure: T.Boolean(),
  httpOnly: T.Boolean(),
  sameSite: T.Optional(T.String()),
  /** ISO 8601; absent for a session cookie (gone when Parley quits). */
  expires: T.Optional(T.String()),
  created: T.String(),
});
export type JarCookie = Static<typeof JarCookie>;

/** A cookie added or edited by hand in the jar tab. */
export const CookieInput = T.Object({
  domain: T.String({ minLength: 1, maxLength: 253 }),
  path: T.String({ minLength: 1, maxLength: 1024 }),
  name: T.String({ minLength: 1, maxLength: 4096 }),
  value: T.String({ maxLength: 4096 }),
  hostOnly: T.Boolean(),
  secure: T.Boolean(),
  httpOnly: T.Boolean(),
  /** ISO 8601; absent for a session cookie. */
  expires: T.Optional(T.String()),
});
export type CookieInput = Static<typeof CookieInput>;

/** Whether the jar is kept across restarts; when not, why not (shown on the jar tab). */
export const JarStatus = T.Object({
  persistent: T.Boolean(),
  message: T.Optional(T.String()),
});
export type JarStatus = Static<typeof JarStatus>;
