/**
 * A real OAuth 2 / OpenID Connect server for the tests: oidc-provider on 127.0.0.1 with a
 * confidential client for client_credentials and a native (loopback) public client for the
 * authorization-code grant with PKCE. Its dev interactions provide the login and consent pages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Provider from 'oidc-provider';

export const MACHINE_CLIENT = { id: 'parley-machine', secret: 'machine-secret-value-0123456789' };
export const DESKTOP_CLIENT = { id: 'parley-desktop' };

export interface OidcServer {
  issuer: string;
  tokenUrl: string;
  /** The same token endpoint behind a gate that refuses client_secret_basic. */
  postOnlyTokenUrl: string;
  authorizationUrl: string;
  /** Grant types the token endpoint granted, in order. */
  tokenRequests: string[];
  /** Every token endpoint call: how the client authenticated ('basic' or 'body') and the status. */
  tokenCalls: string[];
  close(): Promise<void>;
}

export async function startOidcServer(options: { accessTokenTtlSeconds?: number; refreshTokenTtlSeconds?: number } = {}): Promise<OidcServer> {
  // The provider needs the issuer URL, known once the server listens: routed through this slot.
  const route: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const tokenRequests: string[] = [];
  const tokenCalls: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (req.method === 'POST' && (req.url === '/token' || req.url === '/post-only/token')) {
      const auth = req.headers.authorization === undefined ? 'body' : 'basic';
      res.on('finish', () => tokenCalls.push(`${auth} ${res.statusCode}`));
    }
    // oidc-provider takes Basic and body credentials alike. Some servers only take the body
    // form: this path puts such a gate in front of the real token endpoint.
    if (req.url === '/post-only/token') {
      if (req.headers.authorization !== undefined) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
        return;
      }
      req.url = '/token';
    }
    route.handler!(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ttl = options.accessTokenTtlSeconds ?? 3600;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: MACHINE_CLIENT.id,
        client_secret: MACHINE_CLIENT.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'api:read api:write',
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: DESKTOP_CLIENT.id,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // Native clients may use any port on the loopback address (RFC 8252 7.3).
        redirect_uris: ['http://127.0.0.1/callback'],
      },
    ],
    scopes: ['openid', 'offline_access', 'api:read', 'api:write'],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: true } },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ttl: { AccessToken: ttl, ClientCredentials: ttl, RefreshToken: options.refreshTokenTtlSeconds ?? 86_400 },
    // Like most hosted servers: a client allowed refresh_token gets one (no prompt=consent needed).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    cookies: { keys: ['parley-test-cookie-key'] },
  });
  provider.on('grant.success', (ctx: { oidc: { params?: { grant_type?: string } } }) => tokenRequests.push(String(ctx.oidc.params?.grant_type)));
  route.handler = provider.callback();

  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    postOnlyTokenUrl: `${issuer}/post-only/token`,
    authorizationUrl: `${issuer}/auth`,
    tokenRequests,
    tokenCalls,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
