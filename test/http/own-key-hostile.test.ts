/**
 * Own-key sign-in against someone who means harm, or a client that gets it wrong: codes replayed or
 * exchanged with the wrong verifier, redirect URIs not registered, tokens for another resource,
 * expired or revoked tokens, client documents at loopback, private or metadata addresses, documents
 * too large or too slow, markup in a client's name, forms without their token, and a flood of wrong
 * keys. Each is refused with a clear answer, and the service receives nothing it should not.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TRUSTED_MS } from '../../src/sign-in/trusted-tokens.js';
import { pairOf } from '../helpers/answers.js';
import { newStateDir } from '../helpers/cli.js';
import { type DocumentServer, startDocumentServer, TEST_CA } from '../helpers/client-documents.js';
import { errorMessage, rawRequest } from '../helpers/http.js';
import {
  formOf,
  pkce,
  problemOf,
  REDIRECT_URI,
  ScriptedSignIn,
  startOwnKeyServer,
  statusWith,
  type Tokens,
} from '../helpers/own-key.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { PERSON_KEYS } from '../helpers/secret.js';
import type { HttpServer } from '../helpers/session.js';

const [ANA] = PERSON_KEYS;
const MARKUP = '<img src=x onerror=alert(1)> "Claude"';
let sandbox: Sandbox;
let server: HttpServer & { resource: string };
const stateDir = newStateDir();
let documents: DocumentServer;

const keyChecks = () => sandbox.stats.byPath.get('/v1/key/info') ?? 0;
const flow = () => new ScriptedSignIn(server.origin, server.resource);

/** A registered client's code, up to the exchange: the flow, client, code and verifier. */
async function codeFor(key = ANA) {
  const person = flow();
  const { clientId } = await person.register();
  const { verifier, challenge } = pkce();
  const asked = await person.authorize(clientId as string, challenge);
  const { redirect } = await person.giveKey(asked.headers.get('location') ?? '', { api_key: key });
  return { person, clientId: clientId as string, code: redirect?.get('code') as string, verifier };
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false, keys: { [ANA]: 'startup' } });
  documents = await startDocumentServer(REDIRECT_URI, MARKUP);
  server = await startOwnKeyServer(
    sandbox,
    {
      SVC_STATE_DIR: stateDir,
      SVC_SIGN_IN_LOOPBACK_CLIENTS: 'on',
      SVC_SIGN_IN_REDIRECT_HOSTS: 'claude.ai',
    },
    { trust: [TEST_CA] },
  );
}, 30_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([sandbox?.close(), documents?.close()]);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('discovery', () => {
  it('a request without a token is led to this server as its own authorization server', async () => {
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    await refused.body?.cancel();
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] as string;
    expect(metadataUrl).toBe(`${server.origin}/.well-known/oauth-protected-resource/mcp`);
    const resource = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: server.resource, authorization_servers: [server.origin] });
    const described = await fetch(`${server.origin}/.well-known/oauth-authorization-server`);
    expect(await described.json()).toMatchObject({
      issuer: server.origin,
      registration_endpoint: `${server.origin}/reg`,
      revocation_endpoint: `${server.origin}/token/revocation`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('behind a proxy, requests for the public host are answered, and others refused (DNS rebinding)', async () => {
    const proxied = await startOwnKeyServer(sandbox, {
      SVC_STATE_DIR: newStateDir(),
      SVC_OAUTH_RESOURCE: 'https://mcp.example.com/mcp',
    });
    try {
      const ask = (host: string) =>
        rawRequest(`${proxied.origin}/.well-known/oauth-authorization-server`, {
          method: 'GET',
          headers: { host },
        });
      const answered = await ask('mcp.example.com');
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.text)).toMatchObject({ issuer: 'https://mcp.example.com' });
      const refused = await ask('evil.example');
      expect(refused.status).toBe(403);
      expect(errorMessage(refused)).toContain('Host "evil.example" is not allowed');
    } finally {
      await proxied.stop();
    }
  });

  it('an https resource means Secure cookies and https endpoints, whatever a proxy sends', async () => {
    const proxied = await startOwnKeyServer(sandbox, {
      SVC_STATE_DIR: newStateDir(),
      SVC_OAUTH_RESOURCE: 'https://mcp.example.com/mcp',
    });
    try {
      const proxies: Record<string, string>[] = [
        {},
        { 'x-forwarded-proto': 'http' },
        { 'x-forwarded-host': 'evil.example' },
      ];
      for (const forwarded of proxies) {
        const headers = { host: 'mcp.example.com', ...forwarded };
        const discovery = await rawRequest(`${proxied.origin}/.well-known/oauth-authorization-server`, {
          method: 'GET',
          headers,
        });
        const document = JSON.parse(discovery.text) as Record<string, unknown>;
        expect(document.token_endpoint, JSON.stringify(forwarded)).toBe('https://mcp.example.com/token');
        expect(document.authorization_endpoint).toBe('https://mcp.example.com/auth');
        const person = new ScriptedSignIn(proxied.origin, proxied.resource);
        const registered = await rawRequest(`${proxied.origin}/reg`, {
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
        });
        const { client_id: clientId } = JSON.parse(registered.text) as { client_id: string };
        const query = new URLSearchParams({
          client_id: clientId,
          response_type: 'code',
          redirect_uri: REDIRECT_URI,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          scope: 'mcp',
          resource: person.resource,
        });
        const asked = await rawRequest(`${proxied.origin}/auth?${query}`, { method: 'GET', headers });
        expect(asked.status).toBe(303);
        const cookies = [asked.headers['set-cookie'] ?? []].flat();
        expect(cookies.length).toBeGreaterThan(0);
        for (const cookie of cookies) expect(cookie, JSON.stringify(forwarded)).toMatch(/; secure/i);
      }
    } finally {
      await proxied.stop();
    }
  });

  it("the provider's error pages say what failed, as text that is never sniffed", async () => {
    const answer = await flow().send('/auth?client_id=nobody');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.text).toMatch(/^Sign-in failed: /);
  });

  it('no implicit flow and no plain PKCE: such requests go back to the client with an error', async () => {
    const person = flow();
    const { clientId } = await person.register();
    for (const [extra, error] of [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
    ] as const) {
      const asked = await person.authorize(clientId as string, pkce().challenge, extra);
      const location = asked.headers.get('location') ?? asked.text;
      expect(location, JSON.stringify(extra)).toContain(`error=${error}`);
      expect(location).not.toContain('code=');
    }
  });
});

describe('codes and tokens', () => {
  it('a code used twice is refused, and the tokens it gave are revoked', async () => {
    const { person, clientId, code, verifier } = await codeFor();
    const first = await person.exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    const again = await person.exchange(clientId, code, verifier);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await statusWith(server.url, (first.body as unknown as Tokens).access_token)).toBe(401);
  });

  it('a code with the wrong PKCE verifier is refused', async () => {
    const { person, clientId, code } = await codeFor();
    const wrong = await person.exchange(clientId, code, pkce().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a redirect URI the client did not register is refused on the page, not redirected to', async () => {
    const person = flow();
    const { clientId } = await person.register();
    const asked = await person.authorize(clientId as string, pkce().challenge, {
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
    });
    expect(asked.status).toBe(400);
    expect(asked.headers.get('location')).toBeNull();
    expect(asked.text).toMatch(/^Sign-in failed: invalid_redirect_uri/);
  });

  it('registration takes https redirects on the allowed hosts, and loopback ones; no others', async () => {
    const refused = await flow().register({ redirect_uris: ['https://evil.example/callback'] });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({
      error: 'invalid_redirect_uri',
      error_description: expect.stringContaining('https on claude.ai'),
    });
    const plain = await flow().register({ redirect_uris: ['http://claude.ai/callback'] });
    expect(plain.status).toBe(400);
    const allowed = await flow().register({ redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
    expect(allowed.status).toBe(201);
  });

  it('a code for another resource is refused: tokens are for this server only', async () => {
    const person = flow();
    const { clientId } = await person.register();
    const asked = await person.authorize(clientId as string, pkce().challenge, {
      resource: 'https://other.example/mcp',
    });
    const back = new URL(asked.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('an access token past its hour is refused; after 30 days unused, the client and its grant are forgotten', async () => {
    const { person, clientId, code, verifier } = await codeFor();
    const tokens = (await person.exchange(clientId, code, verifier)).body as unknown as Tokens;
    expect(await statusWith(server.url, tokens.access_token)).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61 * 60_000);
    expect(await statusWith(server.url, tokens.access_token)).toBe(401);
    const refreshed = await person.refresh(clientId, tokens.refresh_token as string);
    expect(refreshed.status).toBe(200);
    vi.setSystemTime(Date.now() + 31 * 24 * 3600_000);
    const late = await person.refresh(
      clientId,
      (refreshed.body as unknown as Tokens).refresh_token as string,
    );
    // The registration went with the grant: the client must register again, and its person sign in.
    expect(late).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('a revoked access token is refused at once', async () => {
    const { person, clientId, code, verifier } = await codeFor();
    const tokens = (await person.exchange(clientId, code, verifier)).body as unknown as Tokens;
    // Used first, so that the server has it among the tokens it checked a moment ago.
    expect(await statusWith(server.url, tokens.access_token)).toBe(200);
    expect(await person.revoke(clientId, tokens.access_token)).toBe(200);
    expect(await statusWith(server.url, tokens.access_token)).toBe(401);
  });

  it('a second server on the machine (the same state directory) stops trusting a revoked token within its trust', async () => {
    const other = await startOwnKeyServer(sandbox, {
      SVC_STATE_DIR: stateDir,
      SVC_OAUTH_RESOURCE: server.resource,
    });
    try {
      const { person, clientId, code, verifier } = await codeFor();
      const tokens = (await person.exchange(clientId, code, verifier)).body as unknown as Tokens;
      // Checked there first, so that the other server trusts it a moment without a lookup.
      expect(await statusWith(other.url, tokens.access_token)).toBe(200);
      expect(await person.revoke(clientId, tokens.access_token)).toBe(200);
      expect(await statusWith(server.url, tokens.access_token)).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, TRUSTED_MS + 100));
      expect(await statusWith(other.url, tokens.access_token)).toBe(401);
    } finally {
      await other.stop();
    }
  });

  it('a token that is not one of ours is refused with the challenge that leads to sign-in', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    await response.body?.cancel();
  });
});

describe('client ID metadata documents', () => {
  it('a document on loopback, private, link-local or metadata addresses is refused without a request', async () => {
    const closed = await startOwnKeyServer(sandbox, { SVC_STATE_DIR: newStateDir() }, { trust: [TEST_CA] });
    try {
      const before = documents.requests.get('/clients/good.json') ?? 0;
      const port = new URL(documents.origin).port;
      for (const id of [
        documents.url('/clients/good.json'),
        `https://localhost:${port}/clients/good.json`,
        'https://10.0.0.7/clients/good.json',
        'https://192.168.1.1/clients/good.json',
        'https://169.254.169.254/latest/meta-data',
        'https://[fd00::1]/clients/good.json',
      ]) {
        const person = new ScriptedSignIn(closed.origin, closed.resource);
        const asked = await person.authorize(id, pkce().challenge);
        expect(asked.status, id).toBe(400);
        expect(asked.text, id).toMatch(/^Sign-in failed: invalid_client/);
      }
      expect(documents.requests.get('/clients/good.json') ?? 0).toBe(before);
    } finally {
      await closed.stop();
    }
  });

  it('a good document is fetched once, and the page names its host and shows its name escaped', async () => {
    const id = documents.url('/clients/good.json');
    const person = flow();
    const asked = await person.authorize(id, pkce().challenge);
    expect(asked.status).toBe(303);
    const page = await person.send(asked.headers.get('location') ?? '');
    expect(page.text).toContain('&#60;img src&#61;x onerror&#61;alert(1)&#62; &#34;Claude&#34;');
    expect(page.text).not.toContain('<img');
    expect(page.text).toContain(`published by <strong>127.0.0.1:${new URL(id).port}</strong>`);
    expect(page.text).not.toContain('not verified');
    await flow().authorize(id, pkce().challenge);
    expect(documents.requests.get('/clients/good.json')).toBe(1);
  });

  it('a document naming another client_id, one over 64 KB, or one that never ends is refused', async () => {
    for (const path of ['/clients/other.json', '/clients/big.json', '/clients/slow.json']) {
      const asked = await flow().authorize(documents.url(path), pkce().challenge);
      expect(asked.status, path).toBe(400);
      expect(asked.text, path).toMatch(/^Sign-in failed: invalid_client/);
      expect(documents.requests.get(path), `${path}: fetched once, its failure kept`).toBe(1);
    }
  }, 20_000);
});

describe('the key page', () => {
  it("a registered client's markup is shown escaped, marked as not verified", async () => {
    const person = flow();
    const { clientId } = await person.register({ client_name: MARKUP });
    const asked = await person.authorize(clientId as string, pkce().challenge);
    const page = await person.send(asked.headers.get('location') ?? '');
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/script-src/);
    expect(page.text).not.toMatch(/<script|<img/);
    expect(page.text).toContain('&#60;img src&#61;x');
    expect(page.text).toContain('not verified');
  });

  it("a form posted without its token, or with another sign-in's, is refused and nothing is checked", async () => {
    const [one, two] = [flow(), flow()];
    const pages = [];
    for (const person of [one, two]) {
      const { clientId } = await person.register();
      const asked = await person.authorize(clientId as string, pkce().challenge);
      pages.push(await person.send(asked.headers.get('location') ?? ''));
    }
    const [formOne, formTwo] = pairOf(
      pages.map((page) => formOf(page.text)),
      'key pages',
    );
    const before = keyChecks();
    const without = await one.submit(
      { action: formOne.action, hidden: {} },
      { api_key: ANA, decision: 'allow' },
    );
    expect(without.status).toBe(403);
    expect(without.text).toContain('This form is not from this sign-in');
    const stale = await one.submit(
      { action: formOne.action, hidden: formTwo.hidden },
      { api_key: ANA, decision: 'allow' },
    );
    expect(stale.status).toBe(403);
    expect(keyChecks()).toBe(before);
  });

  it('a key of 1 MB is refused as too long, on an answer the browser gets', async () => {
    const person = flow();
    const { clientId } = await person.register();
    const asked = await person.authorize(clientId as string, pkce().challenge);
    const page = await person.send(asked.headers.get('location') ?? '');
    const before = keyChecks();
    const answer = await person.submit(formOf(page.text), {
      api_key: 'k'.repeat(1_000_000),
      decision: 'allow',
    });
    expect(answer.status).toBe(413);
    expect(problemOf(answer.text)).toBe(
      'That is too long for a key: a key is up to 256 characters, and the form at most 8 KB.',
    );
    expect(keyChecks()).toBe(before);
  });

  it('Deny sends the person back to the client with access_denied, and nothing is kept', async () => {
    const person = flow();
    const { clientId } = await person.register();
    const asked = await person.authorize(clientId as string, pkce().challenge);
    const page = await person.send(asked.headers.get('location') ?? '');
    const denied = await person.submit(formOf(page.text), { api_key: ANA, decision: 'deny' });
    const back = await person.followToClient(denied);
    expect(back.get('error')).toBe('access_denied');
    expect(back.get('code')).toBeNull();
  });

  it('a wrong key gets the page again with one line; a flood from one address is limited', async () => {
    const own = await startOwnKeyServer(sandbox, { SVC_STATE_DIR: newStateDir() });
    try {
      const person = new ScriptedSignIn(own.origin, own.resource);
      const { clientId } = await person.register();
      const asked = await person.authorize(clientId as string, pkce().challenge);
      let page = await person.send(asked.headers.get('location') ?? '');
      const before = keyChecks();
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        page = await person.submit(formOf(page.text), { api_key: `wrong-key-${i}`, decision: 'allow' });
        statuses.push(page.status);
        if (i === 0)
          expect(problemOf(page.text)).toBe(
            'The service did not accept this key: it is not a valid API key (check that it was copied whole). Check it and try again.',
          );
      }
      expect(statuses).toEqual([...Array(10).fill(400), ...Array(4).fill(429)]);
      expect(problemOf(page.text)).toMatch(/^Too many keys tried from this address/);
      expect(keyChecks() - before).toBe(10);
    } finally {
      await own.stop();
    }
  });
});
