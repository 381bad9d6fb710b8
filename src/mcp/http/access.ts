/**
 * Who may use the HTTP transport, decided from a request's headers before anything is read or run:
 * the Host and Origin checks that stop DNS rebinding, the bearer token, and the key a client sends
 * for the service. Each check answers nothing (go on) or a refusal that says what to do.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Config } from '../../config/index.js';
import { isLoopback } from '../../http/loopback.js';
import type { HttpRefusal } from '../../http/refusal.js';
import { clip } from '../../messages.js';

/** Longest key a client may send for the service. */
const MAX_KEY_LENGTH = 256;

/** The host name of a Host header value (`name`, `name:port`, `[v6]`, `[v6]:port`), lower case. */
function hostnameOf(hostHeader: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(:\d{1,5})?$/i.exec(hostHeader.trim());
  return match?.[1]?.toLowerCase();
}

export interface AccessRules {
  /** Host names accepted beyond loopback ones; undefined: any (beyond loopback, with no list given). */
  hosts: Set<string> | undefined;
  /** Origins accepted beyond loopback ones. */
  origins: Set<string>;
  /** SHA-256 of the bearer token, when one is required. */
  tokenHash: Buffer | undefined;
  /** SHA-256 of the operator's token for /metrics and /readyz's details (SVC_METRICS_TOKEN). */
  metricsTokenHash: Buffer | undefined;
  /** People sign in (SVC_OAUTH_ISSUER or SVC_SIGN_IN): their tokens never open what is the operator's. */
  signIn: boolean;
  /** The header a client's own key for the service arrives in (lower case, as Node gives headers). */
  keyHeader: string;
  keyHeaderName: string;
  /** The server has no key of its own for the upstream service: each request must bring one. */
  keyRequired: boolean;
}

export function accessRules(config: Config, bindHost: string): AccessRules {
  const loopbackBind = isLoopback(bindHost);
  // On loopback the Host check is what stops DNS rebinding. Beyond loopback the token is required,
  // and the Host check applies when the operator names the hosts clients use.
  // The public URL's host (sign-in's resource) is a name clients use: behind a proxy on loopback, it
  // is the Host every request carries.
  const resourceHost =
    config.oauthResource === undefined ? [] : [new URL(config.oauthResource).hostname.toLowerCase()];
  const named = [...config.httpAllowedHosts, ...resourceHost];
  if (!loopbackBind && named.length > 0 && !isWildcard(bindHost))
    named.push(bracketed(bindHost).toLowerCase());
  const hosts = loopbackBind || named.length > 0 ? new Set(named) : undefined;
  return {
    hosts,
    origins: new Set(config.httpAllowedOrigins),
    tokenHash: config.httpToken === undefined ? undefined : sha256(config.httpToken),
    metricsTokenHash: config.metricsToken === undefined ? undefined : sha256(config.metricsToken),
    signIn: config.oauthIssuer !== undefined || config.signIn !== undefined,
    keyHeader: config.keyHeader.toLowerCase(),
    keyHeaderName: config.keyHeader,
    // With own-key sign-in each person's key comes with their sign-in, not in a header.
    keyRequired: config.baseUrl !== undefined && config.apiKey === undefined && config.signIn === undefined,
  };
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

function bracketed(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const FORBIDDEN = 403;

export function checkHost(rules: AccessRules, hostHeader: string | undefined): HttpRefusal | undefined {
  if (rules.hosts === undefined) return undefined;
  const name = hostHeader === undefined ? undefined : hostnameOf(hostHeader);
  if (name !== undefined && (isLoopback(name) || rules.hosts.has(name))) return undefined;
  const names = ['loopback (localhost, 127.0.0.0/8, [::1])', ...rules.hosts].join(', ');
  return {
    status: FORBIDDEN,
    message: `Host "${clip(hostHeader ?? '', 100)}" is not allowed: this server answers requests addressed to ${names} (DNS-rebinding protection). Add the name clients use to SVC_HTTP_ALLOWED_HOSTS.`,
  };
}

/** Browsers send Origin; other clients send none, and pass. */
export function checkOrigin(rules: AccessRules, origin: string | undefined): HttpRefusal | undefined {
  if (origin === undefined || rules.origins.has(origin) || isLoopbackOrigin(origin)) return undefined;
  return {
    status: FORBIDDEN,
    message: `Origin "${clip(origin, 100)}" is not allowed: only loopback pages${rules.origins.size > 0 ? ` and ${[...rules.origins].join(', ')}` : ''} may call this server. Add the page's origin to SVC_HTTP_ALLOWED_ORIGINS.`,
  };
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname);
  } catch {
    return false;
  }
}

/** Compares hashes of equal length, so the time taken says nothing about the token. */
export function checkToken(rules: AccessRules, authorization: string | undefined): HttpRefusal | undefined {
  if (rules.tokenHash === undefined) return undefined;
  return bearerRefusal(rules.tokenHash, authorization, {
    wrong: 'The bearer token is wrong: send the one this server was started with (SVC_HTTP_TOKEN).',
    missing:
      'This server requires a bearer token: send "Authorization: Bearer <token>" with the token it was started with (SVC_HTTP_TOKEN).',
  });
}

/**
 * Whether a request may read what is the operator's (/metrics, /readyz's details): with
 * SVC_METRICS_TOKEN, that token alone; else, without sign-in, what /mcp takes (`mcpAccess`); with
 * sign-in, no one, since a person's token never shows other people's spend.
 */
export function checkOperator(
  rules: AccessRules,
  authorization: string | undefined,
  mcpAccess: () => Promise<HttpRefusal | undefined>,
): Promise<HttpRefusal | undefined> {
  const what = "/metrics and /readyz's details are the operator's";
  if (rules.metricsTokenHash !== undefined) {
    return Promise.resolve(
      bearerRefusal(rules.metricsTokenHash, authorization, {
        wrong: `${what}: send the operator's token (SVC_METRICS_TOKEN); a person's own spend is in get_credit_usage.`,
        missing: `${what}: send "Authorization: Bearer <token>" with the operator's token (SVC_METRICS_TOKEN).`,
        status: 403,
      }),
    );
  }
  if (!rules.signIn) return mcpAccess();
  return Promise.resolve({
    status: 403,
    message: `${what}, and people sign in here: set the operator's token (SVC_METRICS_TOKEN) to read them; a person's own spend is in get_credit_usage.`,
  });
}

/** A bearer token checked against `hash`: 401 without one; `status` (401 by default) for another. */
function bearerRefusal(
  hash: Buffer,
  authorization: string | undefined,
  { wrong, missing, status = 401 }: { wrong: string; missing: string; status?: number },
): HttpRefusal | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  if (match?.[1] && timingSafeEqual(sha256(match[1]), hash)) return undefined;
  return {
    status: match ? status : 401,
    message: match ? wrong : missing,
    headers: { 'www-authenticate': `Bearer realm="svc-mcp"${match ? ', error="invalid_token"' : ''}` },
  };
}

/**
 * The key the client sent for the service, if any, or a refusal: a key that could not be sent in a
 * header, or none where the server has no key of its own. The key itself is never repeated.
 */
export function callerKey(
  rules: AccessRules,
  header: string | string[] | undefined,
): { apiKey: string | undefined } | HttpRefusal {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') {
    if (!rules.keyRequired) return { apiKey: undefined };
    return {
      status: 401,
      message: `This server has no key of its own for the service: send yours in the ${rules.keyHeaderName} header with each request.`,
    };
  }
  if (value.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    return {
      status: 400,
      message: `The ${rules.keyHeaderName} header must hold a key of at most ${MAX_KEY_LENGTH} printable ASCII characters with no spaces.`,
    };
  }
  return { apiKey: value };
}
