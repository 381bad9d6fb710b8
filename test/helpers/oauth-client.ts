/**
 * An MCP SDK v2 client's side of sign-in, for tests that go through it in a real browser: what the
 * client keeps for its person (OAuthClientProvider), its loopback redirect listener (RFC 8252), and
 * Debian's chromium driven by playwright-core (a browser download fails here).
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FOUND = existsSync(CHROMIUM);
if (!CHROMIUM_FOUND && process.env.CI)
  throw new Error(`CI needs chromium at ${CHROMIUM} for the browser sign-in tests`);
if (!CHROMIUM_FOUND) console.log(`browser sign-in: skipped, no chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/**
 * What an MCP client keeps for its person: its registration, the PKCE verifier, what it discovered,
 * the tokens, and where it was told to send the person's browser.
 */
export class PersonsClient implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  discovered?: OAuthDiscoveryState;
  authorizationUrl?: URL;

  readonly clientMetadataUrl?: string;
  private readonly grantTypes: string[];

  /** `clientMetadataUrl`: its metadata document, used where the server takes one; `refresh`: it asks for refresh tokens. */
  constructor(
    readonly redirectUrl: string,
    { clientMetadataUrl, refresh = false }: { clientMetadataUrl?: string; refresh?: boolean } = {},
  ) {
    this.clientMetadataUrl = clientMetadataUrl;
    this.grantTypes = refresh ? ['authorization_code', 'refresh_token'] : ['authorization_code'];
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'svc-mcp browser test',
      redirect_uris: [this.redirectUrl],
      grant_types: this.grantTypes,
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
export async function startCallback(): Promise<{
  url: string;
  received: Promise<URLSearchParams>;
  server: Server;
}> {
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
