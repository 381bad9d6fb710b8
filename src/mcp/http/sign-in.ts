/**
 * Sign-in for the HTTP transport (SVC_OAUTH_ISSUER): the server as an OAuth 2.1 resource server.
 * It serves its protected-resource metadata (RFC 9728) so that a client refused with 401 finds the
 * authorization server, and checks each request's access token: a JWT signed with one of the
 * issuer's keys (its JWKS, found through the issuer's metadata and cached: an unknown key id
 * refetches the set, at most once every JWKS_COOLDOWN_MS), from that issuer, for this resource
 * (RFC 8707 audience), not expired, carrying the scope for tools. Refusals are 401 or 403 with the
 * reason in WWW-Authenticate, never a tool answer.
 */
import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors, type JWKSCacheInput, type JWTPayload, jwksCache, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { HttpRefusal } from '../../http/refusal.js';

/** How long the issuer's key set is kept before it is fetched again. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** The least time between two fetches of the key set that an unknown key id may cause. */
export const JWKS_COOLDOWN_MS = 5_000;
/** How far clocks may disagree on a token's times. */
const CLOCK_TOLERANCE_S = 5;
/** The longest access token read: past it, refused unread. */
const MAX_TOKEN_CHARS = 8_192;
/** How long the issuer's metadata and keys may take to arrive. */
const FETCH_TIMEOUT_MS = 5_000;
/**
 * Tokens already checked, kept so that a client's next requests skip the signature (about a
 * quarter of a millisecond each): at most this many, each at most VERIFIED_TTL_MS and never past
 * its expiry, and forgotten as soon as the issuer's key set is fetched again (a key rotated out).
 */
const VERIFIED_TOKENS = 1_000;
const VERIFIED_TTL_MS = 60_000;

export interface SignInSettings {
  issuer: string;
  /** This server's public URL (the token's audience), e.g. https://mcp.example.com/mcp. */
  resource: string;
  /** The scope a token needs to call tools, and the one that also shows everyone's figures. */
  scopes: { tools: string; admin: string };
}

/** Who a token says the caller is. */
export interface Person {
  subject: string;
  scopes: string[];
}

export class SignIn {
  private readonly metadataUrl: string;
  private discovered?: Promise<{ metadata: OAuthMetadata; keys: ReturnType<typeof createRemoteJWKSet> }>;
  /** Where jose keeps the key set; its `uat` changes with every fetch. */
  private readonly keySet: JWKSCacheInput = {};
  private readonly verified = new LRUCache<string, { person: Person; keysFetchedAt: number }>({
    max: VERIFIED_TOKENS,
  });

  constructor(private readonly settings: SignInSettings) {
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(settings.resource));
  }

  /** The path this server answers its protected-resource metadata at. */
  get metadataPath(): string {
    return new URL(this.metadataUrl).pathname;
  }

  /** The RFC 9728 document: this resource, its authorization server, the scopes it understands. */
  async metadataDocument(): Promise<unknown> {
    const { metadata } = await this.discover();
    return buildOAuthProtectedResourceMetadata({
      oauthMetadata: metadata,
      resourceServerUrl: new URL(this.settings.resource),
      scopesSupported: [this.settings.scopes.tools, this.settings.scopes.admin],
      resourceName: 'svc-mcp',
      dangerouslyAllowInsecureIssuerUrl: new URL(this.settings.issuer).protocol === 'http:',
    });
  }

  /** The person a request's bearer token names, or the refusal that says why not. */
  async check(authorization: string | undefined): Promise<Person | HttpRefusal> {
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    if (!bearer)
      return this.refuse(401, undefined, 'Sign in: send an access token from the authorization server.');
    if (bearer.length > MAX_TOKEN_CHARS)
      return this.refuse(401, 'invalid_token', 'The access token is too long.');
    const known = this.verified.get(bearer);
    if (known && known.keysFetchedAt === this.keysFetchedAt()) return known.person;
    let payload: JWTPayload;
    try {
      const { keys } = await this.discover();
      ({ payload } = await jwtVerify(bearer, keys, {
        issuer: this.settings.issuer,
        audience: this.settings.resource,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      return this.refuse(401, 'invalid_token', reasonOf(error, this.settings));
    }
    const scopes = scopesOf(payload);
    if (!scopes.includes(this.settings.scopes.tools)) {
      return this.refuse(
        403,
        'insufficient_scope',
        `The access token lacks the scope "${this.settings.scopes.tools}" that calling tools needs.`,
      );
    }
    const person = { subject: String(payload.sub), scopes };
    const ttl = Math.min(VERIFIED_TTL_MS, (payload.exp as number) * 1000 - Date.now());
    const keysFetchedAt = this.keysFetchedAt();
    if (ttl > 0 && keysFetchedAt !== undefined) this.verified.set(bearer, { person, keysFetchedAt }, { ttl });
    return person;
  }

  /** When the key set now in use was fetched: a checked token counts only under the same set. */
  private keysFetchedAt(): number | undefined {
    return (this.keySet as { uat?: number }).uat;
  }

  /** The issuer's metadata and key set, fetched once (again after a failure). */
  private discover() {
    this.discovered ??= fetchIssuerMetadata(this.settings.issuer).then(
      (metadata) => ({
        metadata,
        keys: createRemoteJWKSet(new URL(metadata.jwks_uri as string), {
          cacheMaxAge: JWKS_MAX_AGE_MS,
          cooldownDuration: JWKS_COOLDOWN_MS,
          timeoutDuration: FETCH_TIMEOUT_MS,
          [jwksCache]: this.keySet,
        }),
      }),
      (error) => {
        this.discovered = undefined;
        throw error;
      },
    );
    return this.discovered;
  }

  private refuse(status: 401 | 403, error: string | undefined, description: string): HttpRefusal {
    // The scope to ask for (MCP authorization): a client takes it before the metadata's list, so
    // that a person signs in for the tools, not for everything the server understands (admin).
    const fields = [`resource_metadata="${this.metadataUrl}"`, `scope="${this.settings.scopes.tools}"`];
    if (error) fields.push(`error="${error}"`, `error_description="${description.replaceAll('"', "'")}"`);
    return { status, message: description, headers: { 'www-authenticate': `Bearer ${fields.join(', ')}` } };
  }
}

/** The issuer's OAuth metadata (RFC 8414), or its OpenID configuration; it must name its keys. */
async function fetchIssuerMetadata(issuer: string): Promise<OAuthMetadata> {
  const base = issuer.replace(/\/+$/, '');
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch(
      () => undefined,
    );
    if (!response?.ok) continue;
    const metadata = (await response.json()) as OAuthMetadata;
    if (metadata.issuer !== issuer)
      throw new Error(`${base}${path} names the issuer "${metadata.issuer}", not "${issuer}"`);
    if (typeof metadata.jwks_uri !== 'string') throw new Error(`${base}${path} names no jwks_uri`);
    return metadata;
  }
  throw new Error(`the issuer ${issuer} publishes no OAuth or OpenID metadata`);
}

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.map(String);
  return [];
}

/** Why a token was refused, in words a person can act on. */
function reasonOf(error: unknown, settings: SignInSettings): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired: get a new one.';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud')
      return `The access token is not for this server: ask for one for the resource ${settings.resource}.`;
    if (error.claim === 'iss')
      return `The access token is from another issuer: this server accepts ${settings.issuer}.`;
    return `The access token's ${error.claim} claim is not valid.`;
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'The access token is signed with a key the issuer no longer publishes.';
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'The access token signature does not verify.';
  if (error instanceof errors.JOSEError) return 'The access token is not a valid signed JWT.';
  return `The authorization server could not be reached to check the token (${(error as Error)?.message ?? error}).`;
}
