/**
 * The sign-in settings of the HTTP transport, part of the one settings table (settings.ts): an
 * outside authorization server's tokens (SVC_OAUTH_ISSUER), or svc-mcp as its own authorization
 * server where each person signs in with their own key (SVC_SIGN_IN=own-key).
 */
import { z } from 'zod';
import { commaList, lowerCase, oauthScope, oneOf, optionalText, setting } from './values.js';

export const SIGN_IN_SETTINGS = {
  oauthIssuer: setting({
    env: 'SVC_OAUTH_ISSUER',
    key: 'oauth_issuer',
    title: 'Sign-in issuer',
    meaning:
      'HTTP: accept access tokens from this OAuth 2.1 authorization server (its issuer URL) instead of SVC_HTTP_TOKEN; needs SVC_OAUTH_RESOURCE',
    whenUnset: 'unset: no sign-in',
    schema: () =>
      optionalText(
        z.url({
          protocol: /^https?$/,
          message: 'must be the issuer URL, e.g. https://login.example.com/realms/team',
        }),
      ),
  }),
  oauthResource: setting({
    env: 'SVC_OAUTH_RESOURCE',
    key: 'oauth_resource',
    title: 'Sign-in resource URL',
    meaning:
      "with sign-in: this server's public URL, the audience its tokens must name, e.g. https://mcp.example.com/mcp",
    whenUnset: 'unset: none',
    schema: () =>
      optionalText(
        z.url({ protocol: /^https?$/, message: "must be this server's public URL, ending in /mcp" }),
      ),
  }),
  oauthScope: setting({
    env: 'SVC_OAUTH_SCOPE',
    key: 'oauth_scope',
    title: 'Sign-in scope',
    meaning: 'with sign-in: the scope an access token needs to call tools',
    schema: () => oauthScope('mcp:tools'),
  }),
  oauthAdminScope: setting({
    env: 'SVC_OAUTH_ADMIN_SCOPE',
    key: 'oauth_admin_scope',
    title: 'Sign-in admin scope',
    meaning:
      "with sign-in: a token carrying this scope as well sees every person's figures in get_credit_usage and svc://credits",
    schema: () => oauthScope('mcp:admin'),
  }),
  signIn: setting({
    env: 'SVC_SIGN_IN',
    key: 'sign_in',
    title: 'Own sign-in',
    meaning:
      'own-key: `svc-mcp http` is its own OAuth 2.1 authorization server, and each person signs in by giving their own key on its key page (docs/connector.md); needs SVC_OAUTH_RESOURCE, not SVC_HTTP_TOKEN or SVC_OAUTH_ISSUER',
    whenUnset: 'unset: no such sign-in',
    schema: () => z.preprocess(lowerCase, oneOf(['own-key']).optional()),
  }),
  signInSecret: setting({
    env: 'SVC_SIGN_IN_SECRET',
    key: 'sign_in_secret',
    title: 'Own sign-in secret',
    meaning:
      "with SVC_SIGN_IN=own-key: the secret people's keys are encrypted under (AES-256-GCM), the same on every replica; required with SVC_REDIS_URL",
    whenUnset: 'unset: generated into SVC_STATE_DIR on first start',
    sensitive: true,
    schema: () =>
      optionalText(
        z.string().regex(/^[\x21-\x7e]{32,512}$/, {
          message:
            'must be 32 to 512 printable ASCII characters with no spaces (for example `openssl rand -hex 32`)',
        }),
      ),
  }),
  signInRedirectHosts: setting({
    env: 'SVC_SIGN_IN_REDIRECT_HOSTS',
    key: 'sign_in_redirect_hosts',
    title: 'Own sign-in redirect hosts',
    meaning:
      'with SVC_SIGN_IN=own-key: the only hosts (comma list, like claude.ai) whose https redirect URIs a client may register; loopback ones are always allowed',
    whenUnset: 'unset: any https host',
    schema: () =>
      commaList(
        z
          .string()
          .regex(/^[a-z0-9.-]+$/i, { message: 'must list host names, like claude.ai' })
          .transform((host) => host.toLowerCase()),
      ),
  }),
  signInKeyUrl: setting({
    env: 'SVC_SIGN_IN_KEY_URL',
    key: 'sign_in_key_url',
    title: 'Own sign-in: where to get a key',
    meaning:
      'with SVC_SIGN_IN=own-key: the https address where a person gets an API key, linked from the key page',
    whenUnset: 'unset: no link',
    schema: () =>
      optionalText(
        z.url({
          protocol: /^https$/,
          message: 'must be an https address, e.g. https://example.com/api-keys',
        }),
      ),
  }),
  signInLoopbackClients: setting({
    env: 'SVC_SIGN_IN_LOOPBACK_CLIENTS',
    key: 'sign_in_loopback_clients',
    title: 'Own sign-in: loopback client documents',
    meaning:
      'with SVC_SIGN_IN=own-key, for tests: fetch client ID metadata documents from loopback addresses too (never private or link-local ones)',
    schema: () => z.preprocess(lowerCase, oneOf(['on', 'off']).default('off')).transform((v) => v === 'on'),
  }),
} as const;
