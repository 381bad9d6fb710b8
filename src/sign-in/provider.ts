/**
 * svc-mcp's own OAuth 2.1 authorization server, for its own resource only: oidc-provider (a
 * certified implementation) configured for public MCP clients. Clients register themselves (RFC
 * 7591) or name a client ID metadata document; every one uses the code flow with PKCE S256;
 * redirect URIs match exactly and are https (on the operator's hosts, when named) or loopback on
 * any port (RFC 8252). Codes live 60 s and are single-use; access tokens are opaque, for this
 * resource (RFC 8707), 1 hour; refresh tokens 30 days, rotated on use, and one used twice revokes its
 * grant. The sign-in itself is the key page (key-page.ts), where a person gives their own key.
 */
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { isLoopback } from '../http/loopback.js';
import { adapterOver } from './adapter.js';
import { DOCUMENT_BYTES, type DocumentFetch } from './client-documents.js';
import type { SignInStore } from './store.js';

/** The one scope: calling this server's tools. */
export const TOOLS_SCOPE = 'mcp';
/** The scopes a client may ask for: the tools, and a refresh token (offline_access). */
export const OIDC_SCOPES = ['openid', TOOLS_SCOPE, 'offline_access'];

export const TTL = {
  AuthorizationCode: 60,
  AccessToken: 3_600,
  RefreshToken: 30 * 24 * 3600,
  /** A grant's own limit; it is forgotten sooner, after 30 days unused (adapter.ts). */
  Grant: 365 * 24 * 3600,
  Session: 30 * 24 * 3600,
  Interaction: 10 * 60,
} as const;

export interface ProviderSettings {
  /** This server's public MCP URL (SVC_OAUTH_RESOURCE); its origin is the issuer. */
  resource: string;
  store: SignInStore;
  /** Signs the provider's cookies, the same on every replica. */
  cookieKey: Buffer;
  documents: DocumentFetch;
  /** The only https hosts redirect URIs may name; undefined: any. */
  redirectHosts?: ReadonlySet<string>;
}

/** Refuses redirect URIs that are neither https (on an allowed host) nor loopback http. */
function redirectRule(hosts: ReadonlySet<string> | undefined) {
  return (_ctx: unknown, _key: string, _value: unknown, metadata: { redirect_uris?: readonly string[] }) => {
    for (const uri of metadata.redirect_uris ?? []) {
      const url = URL.parse(uri);
      const loopback = url?.protocol === 'http:' && isLoopback(url.hostname);
      const https =
        url?.protocol === 'https:' && (hosts === undefined || hosts.has(url.hostname.toLowerCase()));
      if (!loopback && !https) {
        const refusal = new errors.InvalidRedirectUri();
        refusal.error_description =
          hosts === undefined
            ? 'redirect_uris must be https, or http on a loopback address'
            : `redirect_uris must be https on ${[...hosts].join(', ')}, or http on a loopback address`;
        throw refusal;
      }
    }
  };
}

/** A signing key for the provider's own JWTs (none reach the resource: access tokens are opaque), kept in the store. */
async function signingKeys(store: SignInStore) {
  const kept = await store.get('Config', 'jwks');
  if (kept) return kept.payload as { keys: Record<string, unknown>[] };
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' }] };
  await store.put('Config', 'jwks', { payload: jwks });
  return jwks;
}

export async function createProvider(settings: ProviderSettings): Promise<Provider> {
  const { resource, store, documents } = settings;
  const issuer = new URL(resource).origin;
  const provider = new Provider(issuer, {
    adapter: adapterOver(store),
    clients: [],
    jwks: await signingKeys(store),
    cookies: { keys: [settings.cookieKey.toString('base64')] },
    clientAuthMethods: ['none'],
    responseTypes: ['code'],
    scopes: OIDC_SCOPES,
    pkce: { required: () => true },
    ttl: TTL,
    // A refresh that names another resource is refused (invalid_target) after the rotation would
    // have consumed the token: it is not rotated, so the person's next, right refresh still works.
    rotateRefreshToken: (ctx) =>
      [ctx.oidc.params?.resource ?? []].flat().every((asked) => asked === resource),
    // Tokens live by their own lifetimes, not the browser session of the sign-in page: an
    // assistant keeps calling after the person's browser has forgotten this server.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    extraClientMetadata: { properties: ['software_id'], validator: redirectRule(settings.redirectHosts) },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Only the grant this sign-in just made: every authorization request shows the key page, and
    // each sign-in makes a grant of its own for the key given (key-page.ts).
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    fetch: documents.fetch,
    fetchResponseBodyLimits: { 'client_id metadata document': DOCUMENT_BYTES },
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      registration: { enabled: true },
      // A public client may revoke the tokens it was issued (RFC 7009), and no others.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: (_ctx: KoaContextWithOIDC, id: string) => documents.allowed(id),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource)
            throw new errors.InvalidTarget(`this server issues tokens for ${resource} only`);
          return {
            scope: TOOLS_SCOPE,
            audience: resource,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.set('x-content-type-options', 'nosniff');
      ctx.body = `Sign-in failed: ${out.error}${out.error_description ? `: ${out.error_description}` : ''}`;
    },
  });
  // Behind a TLS proxy the public URL is https while the server listens on plain http.
  provider.proxy = new URL(resource).protocol === 'https:';
  return provider;
}
