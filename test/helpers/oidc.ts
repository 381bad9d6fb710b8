/**
 * A real authorization server on loopback for the sign-in tests: oidc-provider (a certified OpenID
 * provider for Node), issuing JWT access tokens for the resources it knows (RFC 8707 resource
 * indicators), with the client-credentials grant and, when interactive, to clients that register
 * themselves and sign a person in through its login and consent pages. Its signing key can be
 * rotated in place.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface AuthorizationServer {
  issuer: string;
  /**
   * A client-credentials token for `resource` with `scope`, from `client` (its subject): 'team', a
   * name of `people`, or 'short' for tokens of 1 s.
   */
  token(resource: string, scope: string, client?: string): Promise<string>;
  /** Replace the signing key: tokens signed with the old one no longer verify. */
  rotateKey(): Promise<void>;
  close(): Promise<void>;
}

const SECRET = 'a-client-secret-for-the-tests-only';

async function signingKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `key-${Date.now()}-${Math.random()}`,
    alg: 'RS256',
    use: 'sig',
  };
}

/**
 * `resources`: each resource URL this server issues tokens for, with the scopes it grants there.
 * `interactive`: clients may also register themselves (RFC 7591) and sign a person in with the
 * authorization code and PKCE, through the provider's own login and consent pages.
 */
export async function startAuthorizationServer(
  resources: Record<string, string>,
  people: readonly string[] = [],
  { interactive = false } = {},
): Promise<AuthorizationServer> {
  let handler: ReturnType<Provider['callback']> = async (_req, res) => {
    res.end();
  };
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const start = async () => {
    const provider = new Provider(issuer, {
      clients: ['team', 'short', ...people].map((client_id) => ({
        client_id,
        client_secret: SECRET,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
      jwks: { keys: [await signingKey()] },
      // The scopes a registering client may name: every resource's.
      scopes: ['openid', ...new Set(Object.values(resources).flatMap((scopes) => scopes.split(' ')))],
      features: {
        clientCredentials: { enabled: true },
        devInteractions: { enabled: interactive },
        registration: { enabled: interactive },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator, client) => {
            const scope = resources[indicator];
            if (scope === undefined) throw new errors.InvalidTarget();
            return {
              scope,
              audience: indicator,
              accessTokenTTL: client.clientId === 'short' ? 1 : 600,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
    });
    handler = provider.callback();
  };
  await start();

  return {
    issuer,
    async token(resource, scope, client = 'team') {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client}:${SECRET}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string; error_description?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    rotateKey: start,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
