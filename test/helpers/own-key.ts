/**
 * Own-key sign-in as a script goes through it (as the outside check does, and as a browser
 * would): register, ask for a code with PKCE, post the key page's forms by their field names, take
 * the code from the redirect, exchange it. Each step is its own method, so that hostile tests can
 * change one; every page and token answer is recorded, so the key-leak scan covers them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Env } from './cli.js';
import { startHttpServer } from './in-process.js';
import { freePort } from './ports.js';
import { record } from './recorder.js';
import type { Sandbox } from './sandbox.js';
import type { HttpServer } from './session.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
/** The test CA the client documents' https server is under (test/fixtures/tls). */
export const TLS_DIR = new URL('../fixtures/tls/', import.meta.url);

/** A server in own-key mode on a sandbox (people's keys go to it), its resource on its own port. */
export async function startOwnKeyServer(
  sandbox: Sandbox,
  env: Env = {},
  options: { trust?: string[]; port?: number } = {},
): Promise<HttpServer & { resource: string }> {
  const port = options.port ?? (await freePort());
  const resource = env.SVC_OAUTH_RESOURCE ?? `http://127.0.0.1:${port}/mcp`;
  const server = await startHttpServer(
    { SVC_BASE_URL: sandbox.url, SVC_SIGN_IN: 'own-key', SVC_OAUTH_RESOURCE: resource, ...env },
    { port, ownKey: { trust: options.trust } },
  );
  return Object.assign(server, { resource });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Credits the service counted today for `key`, by its own key-info answer (free): the witness. */
export async function usedToday(sandbox: Sandbox, key: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/v1/key/info`, { headers: { 'X-SVC_PRO_API_KEY': key } });
  const body = (await response.json()) as { data: { usage: { current_day: { credits_used: number } } } };
  return body.data.usage.current_day.credits_used;
}

/** The HTTP status of an MCP request (tools/list) with `token`. */
export async function statusWith(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.body?.cancel();
  return response.status;
}

/** A page's form: where it posts and its hidden fields. */
export interface Form {
  action: string;
  hidden: Record<string, string>;
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export class ScriptedSignIn {
  private readonly cookies = new Map<string, string>();

  /** `origin`: where requests go (a replica's own address); `resource`: the URL tokens are for. */
  constructor(
    readonly origin: string,
    readonly resource: string,
  ) {}

  /** A request from this person's browser: its cookies sent, new ones kept, redirects not followed. */
  async send(path: string, init: RequestInit = {}): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0)
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(path, this.origin), { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await response.text();
    record('own-key sign-in', `${response.status} ${path.split('?')[0]} ${text}`);
    return { status: response.status, headers: response.headers, text };
  }

  /** Dynamic registration (RFC 7591) of a public client; its client_id. */
  async register(metadata: Record<string, unknown> = {}): Promise<Answer & { clientId?: string }> {
    const answer = await this.send('/reg', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'scripted client',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...metadata,
      }),
    });
    const clientId =
      answer.status === 201 ? (JSON.parse(answer.text) as { client_id: string }).client_id : undefined;
    return { ...answer, clientId };
  }

  /** The authorization request: the redirect to the key page, or to the client with an error. */
  authorize(clientId: string, challenge: string, extra: Record<string, string> = {}): Promise<Answer> {
    return this.send(this.authorizationPath(clientId, challenge, extra));
  }

  /** The authorization request's path and query, as a client sends the person's browser to it. */
  authorizationPath(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp offline_access',
      resource: this.resource,
      state: 'state-1',
      ...extra,
    });
    return `/auth?${query}`;
  }

  /** Posts a form's fields (its hidden ones with `fields`), urlencoded, as a browser submits it. */
  submit(form: Form, fields: Record<string, string>): Promise<Answer> {
    return this.send(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.hidden, ...fields }),
    });
  }

  /** From the key page to the client's redirect: the key, then the confirmation; the redirect's parameters. */
  async giveKey(
    keyPage: string,
    fields: Record<string, string>,
  ): Promise<{ keyAnswer: Answer; redirect?: URLSearchParams }> {
    const first = await this.send(keyPage);
    const keyAnswer = await this.submit(formOf(first.text), { decision: 'allow', ...fields });
    if (keyAnswer.status !== 200 || !keyAnswer.text.includes('Your key works')) return { keyAnswer };
    const confirmed = await this.submit(formOf(keyAnswer.text), { decision: 'allow' });
    return { keyAnswer, redirect: await this.followToClient(confirmed) };
  }

  /** Follows the provider's redirects until one leaves for the client's redirect URI. */
  async followToClient(answer: Answer): Promise<URLSearchParams> {
    let location = answer.headers.get('location') ?? '';
    for (let hops = 0; hops < 5 && !location.startsWith(REDIRECT_URI); hops++) {
      location = (await this.send(location)).headers.get('location') ?? '';
    }
    if (!location.startsWith(REDIRECT_URI)) throw new Error(`never sent back to the client: ${location}`);
    return new URL(location).searchParams;
  }

  /** A token request (code or refresh), its JSON answer. */
  async token(fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await this.send('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
  }

  exchange(clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) {
    return this.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      ...extra,
    });
  }

  refresh(clientId: string, refreshToken: string) {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
  }

  async revoke(clientId: string, token: string): Promise<number> {
    const answer = await this.send('/token/revocation', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: clientId }),
    });
    return answer.status;
  }

  /** The whole sign-in with `key` (and the key page's other `fields`): the client and its tokens. */
  async signIn(
    key: string,
    fields: Record<string, string> = {},
  ): Promise<{ clientId: string; tokens: Tokens }> {
    const { clientId } = await this.register();
    if (!clientId) throw new Error('registration refused');
    const { verifier, challenge } = pkce();
    const asked = await this.authorize(clientId, challenge);
    const { keyAnswer, redirect } = await this.giveKey(asked.headers.get('location') ?? '', {
      api_key: key,
      ...fields,
    });
    const code = redirect?.get('code');
    if (!code) throw new Error(`no code: ${keyAnswer.status} ${keyAnswer.text.slice(0, 300)}`);
    const { status, body } = await this.exchange(clientId, code, verifier);
    if (status !== 200) throw new Error(`token refused: ${JSON.stringify(body)}`);
    return { clientId, tokens: body as unknown as Tokens };
  }
}

/** The one form of a key page: its action and hidden fields. */
export function formOf(html: string): Form {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
  const hidden: Record<string, string> = {};
  for (const [, name = '', value = ''] of html.matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
  ))
    hidden[name] = value;
  return { action: action.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))), hidden };
}

/** The line a key page shows when it refuses what was given. */
export function problemOf(html: string): string | undefined {
  return /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
}
