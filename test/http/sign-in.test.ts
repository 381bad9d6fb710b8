/**
 * Sign-in (SVC_OAUTH_ISSUER): `svc-mcp http` as an OAuth 2.1 resource server in front of a real
 * authorization server (oidc-provider, on loopback). A client refused with 401 finds the
 * authorization server through the protected-resource metadata; a valid token calls tools; a
 * token for another audience, expired, from another issuer, without the scope, or signed with a
 * key the issuer has rotated out is refused with its reason in WWW-Authenticate.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { textOf } from '../helpers/cli.js';
import { moveClockAhead, restoreClock } from '../helpers/clock.js';
import { INITIALIZE, postMcp, rawRequest } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { freePort } from '../helpers/ports.js';
import { connectHttp, type HttpServer } from '../helpers/session.js';

const OTHER = 'https://another-server.test/mcp';
const SCOPE = 'mcp:tools';

let auth: AuthorizationServer;
let stranger: AuthorizationServer;
let server: HttpServer;
let resource: string;

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  [auth, stranger] = await Promise.all([
    startAuthorizationServer({ [resource]: `${SCOPE} other:read`, [OTHER]: SCOPE }),
    startAuthorizationServer({ [resource]: SCOPE }),
  ]);
  server = await startHttpServer({ SVC_OAUTH_ISSUER: auth.issuer, SVC_OAUTH_RESOURCE: resource }, { port });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  await Promise.all([auth?.close(), stranger?.close()]);
});

afterEach(restoreClock);

const authorized = (token: string) => ({ authorization: `Bearer ${token}` });
const challenge = (response: { headers: Record<string, unknown> }) =>
  String(response.headers['www-authenticate']);

describe('sign-in', () => {
  it('a request without a token is told where to sign in (RFC 9728)', async () => {
    const refused = await postMcp(server.url, INITIALIZE);
    expect(refused.status).toBe(401);
    const metadataUrl = `http://127.0.0.1:${new URL(resource).port}/.well-known/oauth-protected-resource/mcp`;
    expect(challenge(refused)).toBe(`Bearer resource_metadata="${metadataUrl}", scope="${SCOPE}"`);
    const metadata = await rawRequest(metadataUrl, { method: 'GET' });
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.text)).toMatchObject({
      resource,
      authorization_servers: [auth.issuer],
      scopes_supported: [SCOPE, 'mcp:admin'],
    });
  });

  it('a valid token calls tools, over the v2 client', async () => {
    const token = await auth.token(resource, SCOPE);
    const session = await connectHttp(server, 'v2', authorized(token));
    try {
      const result = await session.call('get_fear_and_greed_latest');
      expect(result.isError, textOf(result)).toBeFalsy();
    } finally {
      await session.close();
    }
  });

  it.each([
    [
      'another audience',
      (): Promise<string> => auth.token(OTHER, SCOPE),
      401,
      'invalid_token',
      'is not for this server',
    ],
    ['another issuer', (): Promise<string> => stranger.token(resource, SCOPE), 401, 'invalid_token', ''],
    [
      'no tools scope',
      (): Promise<string> => auth.token(resource, 'other:read'),
      403,
      'insufficient_scope',
      `lacks the scope '${SCOPE}'`,
    ],
    ['not a JWT', async (): Promise<string> => 'not-a-token', 401, 'invalid_token', 'not a valid signed JWT'],
  ] as const)('refused: %s', async (_, token, status, error, reason) => {
    const refused = await postMcp(server.url, INITIALIZE, authorized(await token()));
    expect(refused.status).toBe(status);
    expect(challenge(refused)).toContain(`error="${error}"`);
    expect(challenge(refused)).toContain(reason);
    expect(refused.text).not.toContain('"result"');
  });

  it('refused: an expired token', async () => {
    const token = await auth.token(resource, SCOPE, 'short');
    // A token of 1 s, read 7 s later on the wall clock: past the 5 s the server allows clocks to differ.
    moveClockAhead(7_000);
    const refused = await postMcp(server.url, INITIALIZE, authorized(token));
    expect(refused.status).toBe(401);
    expect(challenge(refused)).toContain('has expired');
  });

  it('refused: a token signed with a key the issuer rotated out', async () => {
    const old = await auth.token(resource, SCOPE);
    expect((await postMcp(server.url, INITIALIZE, authorized(old))).status).toBe(200);
    await auth.rotateKey();
    // The server refetches the issuer's keys for a key it does not know, at most every 5 s.
    moveClockAhead(5_500);
    const fresh = await auth.token(resource, SCOPE);
    expect((await postMcp(server.url, INITIALIZE, authorized(fresh))).status).toBe(200);
    const refused = await postMcp(server.url, INITIALIZE, authorized(old));
    expect(refused.status).toBe(401);
    expect(challenge(refused)).toContain('invalid_token');
  });

  it('SVC_OAUTH_ISSUER with SVC_HTTP_TOKEN, or without a resource URL, and a per-person budget without sign-in, are refused', () => {
    expect(() =>
      loadConfig({
        SVC_OAUTH_ISSUER: auth.issuer,
        SVC_OAUTH_RESOURCE: resource,
        SVC_HTTP_TOKEN: 'a-token-of-sixteen-or-more',
      }),
    ).toThrow(/^SVC_OAUTH_ISSUER and SVC_HTTP_TOKEN are both set: pick one/);
    expect(() => loadConfig({ SVC_OAUTH_ISSUER: auth.issuer })).toThrow(
      /^SVC_OAUTH_RESOURCE is required with SVC_OAUTH_ISSUER/,
    );
    expect(() => loadConfig({ SVC_USER_CREDIT_BUDGET: '5' })).toThrow(
      /^SVC_USER_CREDIT_BUDGET needs sign-in \(SVC_OAUTH_ISSUER or SVC_SIGN_IN=own-key\)/,
    );
  });
});
