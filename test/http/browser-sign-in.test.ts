/**
 * Sign-in as a person does it, the pages filled in a real browser (Debian's chromium, driven by
 * playwright-core; one browser for the file, since each launch costs several CPU-seconds), by an
 * MCP SDK v2 client with its own OAuth support. Refused with 401, the client follows the server's
 * protected-resource metadata (RFC 9728) to the authorization server, registers, and starts the
 * authorization-code flow with PKCE for this server's resource (RFC 8707); the redirect brings the
 * code to a loopback listener, the client exchanges it, and its next connection calls tools.
 *
 * - With an outside authorization server (oidc-provider on loopback): its login and consent pages.
 * - Own-key: svc-mcp is its own authorization server, the client registers by dynamic registration
 *   or by naming its client ID metadata document (served over https on loopback under the test
 *   CA); the person gives their key on the key page, the service sees that key, and when the access
 *   token no longer works, the client refreshes it.
 */

import { fileURLToPath } from 'node:url';
import {
  UnauthorizedError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startDocumentServer, TEST_CA } from '../helpers/client-documents.js';
import { startHttpServer } from '../helpers/in-process.js';
import { CHROMIUM_FOUND, launchChromium, PersonsClient, startCallback } from '../helpers/oauth-client.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { pkce, ScriptedSignIn, startOwnKeyServer, usedToday } from '../helpers/own-key.js';
import { freePort } from '../helpers/ports.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { PERSON_KEYS } from '../helpers/secret.js';
import type { HttpServer } from '../helpers/session.js';

let browser: Browser;

beforeAll(async () => {
  if (CHROMIUM_FOUND) browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!CHROMIUM_FOUND)('sign-in in a browser: authorization code with PKCE', () => {
  let auth: AuthorizationServer;
  let server: HttpServer;
  let resource: string;

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    auth = await startAuthorizationServer({ [resource]: 'mcp:tools' }, [], { interactive: true });
    server = await startHttpServer({ SVC_OAUTH_ISSUER: auth.issuer, SVC_OAUTH_RESOURCE: resource }, { port });
  }, 30_000);
  afterAll(async () => {
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

const [ANA] = PERSON_KEYS;
let sandbox: Sandbox;
let ownKeyServer: HttpServer & { resource: string };

async function connect(person: PersonsClient): Promise<V2Client> {
  const client = new V2Client({ name: 'own-key-browser-test', version: '1.0.0' });
  await client.connect(new V2Http(new URL(ownKeyServer.url), { authProvider: person }));
  return client;
}

describe.skipIf(!CHROMIUM_FOUND)("own-key sign-in in a browser, with the SDK client's own OAuth", () => {
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false, keys: { [ANA]: 'startup' } });
    ownKeyServer = await startOwnKeyServer(
      sandbox,
      { SVC_STATE_DIR: newStateDir(), SVC_CACHE: 'off', SVC_SIGN_IN_LOOPBACK_CLIENTS: 'on' },
      { trust: [TEST_CA] },
    );
  }, 30_000);

  afterAll(async () => {
    await ownKeyServer?.stop();
    await sandbox?.close();
  });

  for (const way of ['dynamic registration', 'a client ID metadata document'] as const) {
    it(`${way}: the person gives their key on the page, and the client calls with it`, async () => {
      const callback = await startCallback();
      const documents =
        way === 'dynamic registration' ? undefined : await startDocumentServer(callback.url, 'Docs Client');
      const person = new PersonsClient(callback.url, {
        clientMetadataUrl: documents?.url('/clients/good.json'),
        refresh: true,
      });
      try {
        // 1. Refused: the client finds svc-mcp's own authorization server and asks for the person.
        await expect(connect(person)).rejects.toThrow(UnauthorizedError);
        const asked = person.authorizationUrl as URL;
        expect(asked.origin).toBe(ownKeyServer.origin);
        expect(asked.searchParams.get('resource')).toBe(ownKeyServer.resource);
        expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
        const clientId = person.information?.client_id;
        if (documents) expect(clientId).toBe(documents.url('/clients/good.json'));
        else expect(clientId).toMatch(/^[\w-]{20,}$/);

        // 2. The person, in the browser: the key page, then what the service says of the key.
        const page = await browser.newPage();
        await page.goto(asked.href, { waitUntil: 'domcontentloaded' });
        expect(await page.textContent('body')).toContain(documents ? 'Docs Client' : 'not verified');
        await page.fill('input[name=api_key]', ANA);
        await page.fill('input[name=budget]', '100');
        await page.click('button[value=allow]');
        await page.waitForSelector('text=Your key works');
        expect(await page.textContent('body')).toMatch(
          /Its plan: 120,000 credits a month \([\d,]+ left this month\)/,
        );
        await page.click('button[value=allow]');
        const params = await callback.received;
        expect(params.get('error'), params.get('error_description') ?? '').toBeNull();
        expect(params.get('iss')).toBe(ownKeyServer.origin);
        await page.close();

        // 3. The client exchanges the code and calls tools; the service sees the person's key.
        await new V2Http(new URL(ownKeyServer.url), { authProvider: person }).finishAuth(params);
        const before = await usedToday(sandbox, ANA);
        const client = await connect(person);
        const result = await client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
        expect(textOf(result as never)).toMatch(/^Fear & Greed \d+/);
        const usage = await client.callTool({ name: 'get_credit_usage', arguments: {} });
        expect(usage.structuredContent).toMatchObject({ you: { budget: 100, spent: 1 } });
        await client.close();
        expect(await usedToday(sandbox, ANA)).toBe(before + 1);

        // 4. Its access token refused, the client refreshes it and goes on.
        const refreshToken = person.saved?.refresh_token;
        expect(refreshToken).toBeTruthy();
        person.saveTokens({ ...(person.saved as NonNullable<typeof person.saved>), access_token: 'expired' });
        const again = await connect(person);
        expect(person.saved?.refresh_token).not.toBe(refreshToken);
        const after = await again.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
        expect(after.isError).toBeFalsy();
        await again.close();
      } finally {
        await documents?.close();
        await new Promise((resolve) => callback.server.close(resolve));
      }
    }, 60_000);
  }
});

/** Where the key page's screenshots go: a directory the test run keeps (git ignores it). */
const SCREENSHOTS = new URL('../../test-results/key-page/', import.meta.url);
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

describe.skipIf(!CHROMIUM_FOUND)('the key page, looked at in Chromium at desktop and phone widths', () => {
  let own: HttpServer & { resource: string };
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false, keys: { [ANA]: 'startup' } });
    own = await startOwnKeyServer(sandbox, {
      SVC_STATE_DIR: newStateDir(),
      SVC_SIGN_IN_KEY_URL: 'https://keys.example.com/api',
    });
  }, 30_000);
  afterAll(async () => {
    await own?.stop();
    await sandbox?.close();
  });

  for (const [name, viewport] of Object.entries(WIDTHS)) {
    it(`${name}: each page fits the width, its buttons in view, and is kept as a screenshot`, async () => {
      const person = new ScriptedSignIn(own.origin, own.resource);
      const { clientId } = await person.register({ client_name: 'Claude' });
      const asked = person.authorizationPath(clientId as string, pkce().challenge);
      const page = await browser.newPage({ viewport });
      try {
        const look = async (shot: string) => {
          const fits = await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
          expect(fits, `${shot} at ${viewport.width}px: no sideways scroll`).toBe(true);
          for (const button of await page.locator('button').all()) {
            const box = await button.boundingBox();
            expect(
              box && box.x >= 0 && box.x + box.width <= viewport.width,
              `${shot}: a button in view`,
            ).toBe(true);
          }
          await page.screenshot({
            path: fileURLToPath(new URL(`${shot}-${name}.png`, SCREENSHOTS)),
            fullPage: true,
          });
        };
        await page.goto(new URL(asked, own.origin).href);
        await look('1-key');
        await page.fill('input[name=api_key]', 'not-a-real-key');
        await page.click('button[value=allow]');
        await page.waitForSelector('.error');
        await look('2-refused');
        await page.fill('input[name=api_key]', ANA);
        await page.fill('input[name=budget]', '100');
        await page.click('button[value=allow]');
        await page.waitForSelector('text=Your key works');
        await look('3-works');
        await page.goto(`${own.origin}/sign-in/forget`);
        await look('4-forget');
      } finally {
        await page.close();
      }
    }, 60_000);
  }
});
