/**
 * A real authorization server on loopback for the sign-in tests: oidc-provider (a certified OpenID
 * provider for Node), issuing JWT access tokens for the resources it knows (RFC 8707 resource
 * indicators), with the client-credentials grant and, when interactive, to clients that register
 * themselves and sign a person in through a login page and a consent page of its own. Configured
 * as a deployment would be (its own storage, lifetimes, accounts and pages), so that it prints none
 * of oidc-provider's development warnings. Its signing key can be rotated in place.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { Adapter, AdapterPayload, default as Provider } from 'oidc-provider';
import { record } from './recorder.js';

/**
 * oidc-provider, loaded once with what it prints at load (on Node 20, that its authors support
 * Node 22 and later: docs/connector.md says so for own-key sign-in) kept in the test's record.
 */
async function loadProvider(): Promise<typeof import('oidc-provider')> {
  const { warn } = console;
  console.warn = (...parts: unknown[]) => record('oidc-provider', parts.join(' '));
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}
const { default: OidcProvider, errors } = await loadProvider();

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

/** Lifetimes of what the provider issues, in seconds: the tests' own, as a deployment sets them. */
/** A token's lifetime: its resource server's (a 'short' client's are 1 s), else 10 minutes. */
const tokenTtl = (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
  token.resourceServer?.accessTokenTTL ?? 600;
const TTL = {
  AccessToken: tokenTtl,
  AuthorizationCode: 60,
  ClientCredentials: tokenTtl,
  Grant: 3600,
  IdToken: 600,
  Interaction: 600,
  RefreshToken: 3600,
  Session: 3600,
};

/** The provider's storage: one Map per model, in this process (the tests need no more). */
function memoryAdapter(): new (model: string) => Adapter {
  const models = new Map<string, Map<string, AdapterPayload>>();
  return class {
    private readonly kept: Map<string, AdapterPayload>;
    constructor(model: string) {
      this.kept = models.get(model) ?? new Map();
      models.set(model, this.kept);
    }
    async upsert(id: string, payload: AdapterPayload) {
      this.kept.set(id, payload);
    }
    async find(id: string) {
      return this.kept.get(id);
    }
    async findByUserCode() {
      return undefined;
    }
    async findByUid(uid: string) {
      return [...this.kept.values()].find((payload) => payload.uid === uid);
    }
    async consume(id: string) {
      const payload = this.kept.get(id);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      this.kept.delete(id);
    }
    async revokeByGrantId(grantId: string) {
      for (const [id, payload] of this.kept) if (payload.grantId === grantId) this.kept.delete(id);
    }
  };
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The person's side: a login page (any name, any password), then a consent page that grants what
 * the client asked for. The browser test fills them by their fields.
 */
async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string) {
  const details = await provider.interactionDetails(req, res);
  const page = (form: string) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><body><form method="post" action="/interaction/${uid}">${form}</form></body></html>`,
      );
  if (req.method === 'GET') {
    if (details.prompt.name === 'login') {
      return page(
        '<input name="login"><input name="password" type="password"><button type="submit">Sign in</button>',
      );
    }
    return page('<input type="hidden" name="prompt" value="consent"><button type="submit">Continue</button>');
  }
  const form = await formOf(req);
  if (form.get('prompt') !== 'consent') {
    const login = { accountId: form.get('login') ?? 'someone' };
    return provider.interactionFinished(req, res, { login }, { mergeWithLastSubmission: false });
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId as string,
    clientId: String(details.params.client_id),
  });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
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
  let provider: Provider | undefined;
  let handler: ReturnType<Provider['callback']> | undefined;
  const server: Server = createServer((req, res) => {
    const uid = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (!provider || !handler) return res.end();
    if (uid) return void interaction(provider, req, res, uid).catch(() => res.writeHead(400).end());
    return handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const Adapter = memoryAdapter();
  const start = async () => {
    provider = new OidcProvider(issuer, {
      adapter: Adapter,
      ttl: TTL,
      findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      interactions: { url: (_ctx, found) => `/interaction/${found.uid}` },
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
        devInteractions: { enabled: false },
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
