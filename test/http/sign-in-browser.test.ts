/**
 * Sign-in as a person does it: an MCP SDK v2 client, refused with 401, follows the server's
 * protected-resource metadata (RFC 9728) to the authorization server (oidc-provider on loopback),
 * registers itself (RFC 7591) and starts the authorization-code flow with PKCE for this server's
 * resource (RFC 8707). The provider's own login and consent pages are filled in a real browser
 * (Debian's chromium, driven by playwright-core); the redirect brings the code to a loopback
 * listener, the client exchanges it, and its next connection calls tools as that person.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
  UnauthorizedError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/in-process.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { freePort } from '../helpers/ports.js';
import type { HttpServer } from '../helpers/session.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
if (!found && process.env.CI)
  throw new Error(`CI needs chromium at ${CHROMIUM} for the browser sign-in test`);
if (!found) console.log(`browser sign-in: skipped, no chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

/**
 * What an MCP client keeps for its person: its registration, the PKCE verifier, what it discovered,
 * the tokens, and where it was told to send the person's browser.
 */
class PersonsClient implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  discovered?: OAuthDiscoveryState;
  authorizationUrl?: URL;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'svc-mcp browser test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** Kept with the verifier: the code is exchanged only with the server that issued it. */
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
}

/** The client's loopback redirect URI (RFC 8252): resolves with what the browser brought back. */
async function startCallback(): Promise<{ url: string; received: Promise<URLSearchParams>; server: Server }> {
  let deliver: (params: URLSearchParams) => void = () => {};
  const received = new Promise<URLSearchParams>((resolve) => {
    deliver = resolve;
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in: you may close this window.');
    if (url.pathname === '/callback') deliver(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received, server };
}

describe.skipIf(!found)('sign-in in a browser: authorization code with PKCE', () => {
  let auth: AuthorizationServer;
  let server: HttpServer;
  let browser: Browser;
  let resource: string;

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    auth = await startAuthorizationServer({ [resource]: 'mcp:tools' }, [], { interactive: true });
    [server, browser] = await Promise.all([
      startHttpServer({ SVC_OAUTH_ISSUER: auth.issuer, SVC_OAUTH_RESOURCE: resource }, { port }),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    ]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await auth?.close();
  });

  it('a person signs in through the login and consent pages, and their client calls tools', async () => {
    const callback = await startCallback();
    const person = new PersonsClient(callback.url);
    try {
      // 1. Refused: the client finds the authorization server, registers, and asks for the person.
      const first = new V2Client({ name: 'browser-test', version: '1.0.0' });
      await expect(first.connect(new V2Http(new URL(server.url), { authProvider: person }))).rejects.toThrow(
        UnauthorizedError,
      );
      expect(person.information?.client_id, 'registered itself').toBeTruthy();
      const asked = person.authorizationUrl as URL;
      expect(asked.origin).toBe(auth.issuer);
      expect(asked.searchParams.get('resource')).toBe(resource);
      expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
      expect(asked.searchParams.get('scope')).toContain('mcp:tools');

      // 2. The person, in the browser: the provider's login page, then its consent page.
      const page = await browser.newPage();
      await page.goto(asked.href, { waitUntil: 'domcontentloaded' });
      await page.fill('input[name=login]', 'dana');
      await page.fill('input[name=password]', 'any password');
      await page.click('button[type=submit]');
      await page.waitForSelector('input[name=prompt][value=consent]', { state: 'attached' });
      await page.click('button[type=submit]');
      const params = await callback.received;
      expect(params.get('error'), params.get('error_description') ?? '').toBeNull();
      await page.close();

      // 3. The client exchanges the code (with its PKCE verifier) and connects as the person.
      await new V2Http(new URL(server.url), { authProvider: person }).finishAuth(params);
      const token = person.saved?.access_token as string;
      const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(claims).toMatchObject({ iss: auth.issuer, aud: resource, sub: 'dana' });
      const client = new V2Client({ name: 'browser-test', version: '1.0.0' });
      await client.connect(new V2Http(new URL(server.url), { authProvider: person }));
      try {
        const result = await client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
        expect(result.isError, textOf(result as never)).toBeFalsy();
        expect(textOf(result as never)).toMatch(/^Fear & Greed \d+/);
        const usage = await client.callTool({ name: 'get_credit_usage', arguments: {} });
        expect(usage.structuredContent).toMatchObject({ you: { spent: expect.any(Number) } });
      } finally {
        await client.close();
      }
    } finally {
      await new Promise((resolve) => callback.server.close(resolve));
    }
  }, 60_000);
});
