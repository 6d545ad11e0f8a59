import { Type as T, type Static } from '@sinclair/typebox';

/**
 * Request and API authentication. Secret fields hold `${secret:name}` references, never the
 * secret itself: the value lives in the OS keychain and is read at send time.
 */
export const Auth = T.Union([
  T.Object({ type: T.Literal('inherit') }),
  T.Object({ type: T.Literal('none') }),
  T.Object({ type: T.Literal('basic'), username: T.String(), password: T.String() }),
  T.Object({ type: T.Literal('bearer'), token: T.String() }),
  T.Object({
    type: T.Literal('apikey'),
    name: T.String(),
    value: T.String(),
    in: T.Union([T.Literal('header'), T.Literal('query')]),
  }),
  // Kerberos (SPNEGO) from the signed-in ticket: nothing secret is stored. `spn` empty or absent
  // is HTTP@<host of the request>.
  T.Object({ type: T.Literal('kerberos'), spn: T.Optional(T.String({ maxLength: 255 })) }),
  T.Object({
    type: T.Literal('oauth2'),
    grant: T.Union([T.Literal('client_credentials'), T.Literal('authorization_code')]),
    tokenUrl: T.String(),
    authorizationUrl: T.String(),
    clientId: T.String(),
    clientSecret: T.String(),
    scope: T.String(),
    usePkce: T.Boolean(),
  }),
]);
export type Auth = Static<typeof Auth>;
export type AuthType = Auth['type'];

/** The fields of each auth type that hold a secret (a `${secret:name}` reference once saved). */
export const AUTH_SECRET_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['basic', ['password']],
  ['bearer', ['token']],
  ['apikey', ['value']],
  ['oauth2', ['clientSecret']],
]);
