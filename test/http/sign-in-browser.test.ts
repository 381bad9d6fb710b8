/**
 * Sign-in as a person does it: an MCP SDK v2 client, refused with 401, follows the server's
 * protected-resource metadata (RFC 9728) to the authorization server (oidc-provider on loopback),
 * registers itself (RFC 7591) and starts the authorization-code flow with PKCE for this server's
 * resource (RFC 8707). The provider's own login and consent pages are filled in a real browser
 * (Debian's chromium, driven by playwright-core); the redirect brings the code to a loopback
 * listener, the client exchanges it, and its next connection calls tools as that person.
 */
import {
  UnauthorizedError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/in-process.js';
import { CHROMIUM_FOUND, launchChromium, PersonsClient, startCallback } from '../helpers/oauth-client.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { freePort } from '../helpers/ports.js';
import type { HttpServer } from '../helpers/session.js';

describe.skipIf(!CHROMIUM_FOUND)('sign-in in a browser: authorization code with PKCE', () => {
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
      launchChromium(),
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
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
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
