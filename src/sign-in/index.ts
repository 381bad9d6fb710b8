/**
 * Own-key sign-in (SVC_SIGN_IN=own-key), assembled: the authorization server (provider.ts) answering
 * its own paths, the key page (key-page.ts), the discovery documents, and the check of each MCP
 * request's access token, which names the person whose key, and budget, the call uses. Loaded only
 * in this mode: the desktop bundle and stdio never load it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config/index.js';
import { keyInfo } from '../endpoints/account.js';
import { formatNumber } from '../format/numbers.js';
import { personOf } from '../guard/accounts.js';
import type { PersonLimit } from '../guard/guard.js';
import type { HttpRefusal } from '../http/refusal.js';
import type { Services } from '../services/index.js';
import { UpstreamError } from '../upstream/errors.js';
import { AddressLimit } from './address-limit.js';
import { documentFetch } from './client-documents.js';
import { FORGET_PATH, type KeyCheck, KeyPage } from './key-page.js';
import { PersonKeys, signInSecret } from './keys.js';
import { createProvider, TOOLS_SCOPE } from './provider.js';
import { providerRequest } from './provider-context.js';
import { openSignInStore } from './store.js';
import { TrustedTokens } from './trusted-tokens.js';

/** Client registrations one address may make in an hour. */
const REGISTRATIONS = 20;
/** The longest access token read: past it, refused unread. */
const MAX_TOKEN_CHARS = 512;
/** The paths the authorization server answers (oidc-provider's routes). */
const PROVIDER_PATHS =
  /^\/(auth|token|reg|jwks|token\/revocation|\.well-known\/(oauth-authorization-server|openid-configuration))(\/|$)/;

/** Who an access token names: the person, their key and their budget. */
export interface SignedIn {
  person: string;
  apiKey: string;
  personLimit?: PersonLimit;
}

export interface OwnKey {
  /** Answers the request when it is the sign-in's (true), or leaves it to the MCP routes (false). */
  route(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  /** The person a request's bearer token names, or the refusal (401, with the challenge). */
  check(authorization: string | undefined): Promise<SignedIn | HttpRefusal>;
  close(): Promise<void>;
}

/** Options tests give: a CA the client documents they serve on loopback are signed by. */
export interface OwnKeyOptions {
  trust?: string[];
}

export async function openOwnKey(
  services: Services,
  config: Config,
  options: OwnKeyOptions = {},
): Promise<OwnKey> {
  const resource = config.oauthResource as string;
  sayRuntime(services);
  const trusted = services.redis ? undefined : new TrustedTokens<SignedIn>();
  const opened = openSignInStore(config.stateDir, services.redis);
  const store = trusted ? trusted.watching(opened) : opened;
  const keys = new PersonKeys(store, signInSecret(config.signInSecret, config.stateDir));
  const provider = await createProvider({
    resource,
    store,
    cookieKey: keys.derive('cookies'),
    documents: documentFetch({ allowLoopback: config.signInLoopbackClients, ca: options.trust }),
    redirectHosts: config.signInRedirectHosts.length > 0 ? new Set(config.signInRedirectHosts) : undefined,
  });
  const address = (req: IncomingMessage) => addressOf(req, provider.proxy);
  const keyPage = new KeyPage({
    provider,
    keys,
    resource,
    keyUrl: config.signInKeyUrl,
    checkKey: (key) => checkKey(services, key),
    operatorBudget: config.userCreditBudget,
    window: config.creditWindow,
    addressOf: address,
  });
  // A refresh is use: the grant, its key and its client are kept 30 days from it.
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const grantId = ctx.oidc.entities.Grant?.jti;
    const clientId = ctx.oidc.client?.clientId;
    if (ctx.oidc.params?.grant_type === 'refresh_token' && grantId && clientId) {
      keys
        .renew(grantId, clientId)
        .catch((error: unknown) => services.log.warn({ err: error }, 'sign-in renewal failed'));
    }
  });
  const answer = provider.callback();
  const registrations = new AddressLimit(REGISTRATIONS, 3_600_000);
  const metadataUrl = `${new URL(resource).origin}/.well-known/oauth-protected-resource${new URL(resource).pathname}`;
  return {
    async route(req, res, path) {
      if (path === new URL(metadataUrl).pathname || path === '/.well-known/oauth-protected-resource') {
        protectedResource(res, resource, provider.issuer);
        return true;
      }
      if (path === FORGET_PATH) {
        await keyPage.forget(req, res);
        return true;
      }
      const interaction = /^\/interaction\/([\w-]{1,64})$/.exec(path)?.[1];
      if (interaction) {
        await keyPage.handle(req, res, interaction);
        return true;
      }
      if (!PROVIDER_PATHS.test(path)) return false;
      if (path === '/reg' && req.method === 'POST' && !registrations.allow(address(req))) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' }).end(
          JSON.stringify({
            error: 'invalid_request',
            error_description: `at most ${REGISTRATIONS} client registrations an hour from one address`,
          }),
        );
        return true;
      }
      publicUrl(req, resource);
      await providerRequest(() => answer(req, res));
      return true;
    },
    check: (authorization) => checkToken({ provider, keys, trusted, resource, metadataUrl }, authorization),
    close: () => store.close(),
  };
}

/** On a Node before 22, one line in svc-mcp's words where oidc-provider would warn in its own. */
function sayRuntime(services: Services): void {
  if (Number(process.versions.node.split('.')[0]) >= 22) return;
  services.log.warn(
    { signIn: 'runtime' },
    `own-key sign-in: its authorization server, oidc-provider, is supported by its authors on Node 22 and later; this is Node ${process.versions.node}, on which svc-mcp's tests run it (docs/connector.md)`,
  );
}

/** RFC 9728: this resource, its authorization server (this server), the scope it understands. */
function protectedResource(res: ServerResponse, resource: string, issuer: string): void {
  const body = {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [TOOLS_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'svc-mcp',
  };
  res
    .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
    .end(JSON.stringify(body));
}

/** What checking a token needs: the provider's tokens, the people's keys, the tokens trusted a moment. */
interface TokenCheck {
  provider: Provider;
  keys: PersonKeys;
  trusted: TrustedTokens<SignedIn> | undefined;
  resource: string;
  metadataUrl: string;
}

async function checkToken(
  { provider, keys, trusted, resource, metadataUrl }: TokenCheck,
  authorization: string | undefined,
): Promise<SignedIn | HttpRefusal> {
  const refuse = (error: string | undefined, description: string): HttpRefusal => {
    const fields = [`resource_metadata="${metadataUrl}"`, `scope="${TOOLS_SCOPE}"`];
    if (error) fields.push(`error="${error}"`, `error_description="${description}"`);
    return {
      status: 401,
      message: description,
      headers: { 'www-authenticate': `Bearer ${fields.join(', ')}` },
    };
  };
  const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (!bearer) return refuse(undefined, 'Sign in: this server signs you in with your own key.');
  if (bearer.length > MAX_TOKEN_CHARS) return refuse('invalid_token', 'The access token is too long.');
  const known = trusted?.get(bearer);
  if (known) return known;
  const token = await provider.AccessToken.find(bearer).catch(() => undefined);
  if (!token || token.isExpired)
    return refuse(
      'invalid_token',
      'The access token is not valid, or has expired or been revoked: sign in again.',
    );
  const audience = [token.aud ?? []].flat();
  if (
    !audience.includes(resource) ||
    !String(token.scope ?? '')
      .split(' ')
      .includes(TOOLS_SCOPE)
  ) {
    return refuse('invalid_token', `The access token is not for ${resource}.`);
  }
  const kept = await keys.open(String(token.grantId));
  if (!kept) return refuse('invalid_token', 'Your key is no longer kept here: sign in again.');
  // The browser's account and the key together name the person: a second key given on a shared
  // browser is someone else, with spend and a budget of their own.
  const person = personOf(`${token.accountId} ${keys.fingerprint(kept.key)}`);
  const signedIn = { person, apiKey: kept.key, personLimit: kept.limit };
  if (typeof token.exp === 'number') trusted?.trust(bearer, signedIn, token.exp);
  return signedIn;
}

/** Why the service refused a key, in a person's words: the service's codes (docs/service.md) as what they mean. */
const REFUSED_KEY: Record<number, string> = {
  1001: 'it is not a valid API key (check that it was copied whole)',
  1002: 'no key reached it',
  1003: 'the key must be activated at the service first',
  1004: "the key's plan has expired",
  1005: 'the key is not valid for this service',
  1007: 'the key has been disabled',
};

/** The service's word on a key: its plan's figures, or why it was refused (free: key info costs nothing). */
async function checkKey(services: Services, key: string): Promise<KeyCheck> {
  const source = await services.source();
  try {
    const answer = await source.client.get(
      keyInfo.path,
      {},
      { apiKey: key, signal: AbortSignal.timeout(10_000) },
    );
    const data = keyInfo.normalise(answer.body, {}, services.now());
    const month = `${formatNumber(data.credit_limit_monthly)} credits a month (${formatNumber(data.month.left)} left this month)`;
    const rate =
      data.rate_limit_minute === undefined
        ? ''
        : `, ${formatNumber(data.rate_limit_minute)} requests a minute`;
    return { ok: true, facts: `The service accepted this key. Its plan: ${month}${rate}.` };
  } catch (error) {
    if (error instanceof UpstreamError && (error.status === 401 || error.status === 403)) {
      const why = REFUSED_KEY[error.code ?? 0] ?? 'it refused it';
      return { ok: false, problem: `The service did not accept this key: ${why}. Check it and try again.` };
    }
    const why =
      error instanceof UpstreamError && (error.kind === 'timeout' || error.kind === 'network')
        ? 'the service did not answer'
        : 'the service failed to answer';
    return { ok: false, problem: `The key could not be checked now: ${why}. Try again in a minute.` };
  }
}

/**
 * The provider builds its endpoints' URLs and its cookies' Secure flag from the request as its
 * proxy describes it: for an https resource they are the resource's scheme and host, whatever a
 * proxy sent (or failed to send), so discovery never advertises http and cookies are always Secure.
 */
function publicUrl(req: IncomingMessage, resource: string): void {
  const { protocol, host } = new URL(resource);
  if (protocol !== 'https:') return;
  req.headers['x-forwarded-proto'] = 'https';
  req.headers['x-forwarded-host'] = host;
}

/** The address a request comes from: behind a proxy, the last one it names (the one it saw). */
function addressOf(req: IncomingMessage, proxied: boolean): string {
  const forwarded = proxied
    ? String(req.headers['x-forwarded-for'] ?? '')
        .split(',')
        .at(-1)
        ?.trim()
    : '';
  return forwarded || req.socket.remoteAddress || 'unknown';
}
