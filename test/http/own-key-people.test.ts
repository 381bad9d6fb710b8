/**
 * Own-key sign-in, each person with their own key: two people sign in by script (the key page's
 * forms by their field names), each call goes to the service with the caller's own key and is
 * charged to it, a person's own budget stops only them, refresh tokens rotate, a reused one revokes
 * the grant, a refused one is left as it was, revocation holds, and signing in again with another
 * key makes a grant of its own. What is kept is private (0600) in a directory others may read.
 * The service's own key-info answer for each key is the witness of what it received.
 */
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { rawRequest } from '../helpers/http.js';
import {
  pkce,
  ScriptedSignIn,
  startOwnKeyServer,
  statusWith,
  type Tokens,
  usedToday,
} from '../helpers/own-key.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { PERSON_KEYS } from '../helpers/secret.js';
import { connectHttp, type HttpServer } from '../helpers/session.js';

const [ANA, BEN] = PERSON_KEYS;
let sandbox: Sandbox;
let server: HttpServer & { resource: string };
/** Made beforehand and readable by others, as a volume or systemd's default StateDirectory is. */
const stateDir = newStateDir();
chmodSync(stateDir, 0o755);

/** `count` calls of a 1-credit tool with `token`: the answers' texts, refusals marked. */
async function calls(token: string, count: number, tool = 'get_fear_and_greed_historical') {
  const session = await connectHttp(server, 'v2', { authorization: `Bearer ${token}` });
  try {
    const texts: string[] = [];
    for (let i = 0; i < count; i++) {
      const result = await session.call(tool, tool.endsWith('historical') ? { limit: 1 + i } : {});
      texts.push(`${result.isError ? 'refused: ' : ''}${textOf(result)}`);
    }
    return texts;
  } finally {
    await session.close();
  }
}

async function usage(token: string) {
  const session = await connectHttp(server, 'v2', { authorization: `Bearer ${token}` });
  try {
    const result = await session.call('get_credit_usage');
    const read = await session.readResource('svc://credits');
    const resource = JSON.parse(read.contents[0]!.text ?? '') as Record<string, unknown>;
    return { figures: result.structuredContent as Record<string, unknown>, text: textOf(result), resource };
  } finally {
    await session.close();
  }
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false, keys: { [ANA]: 'startup', [BEN]: 'hobbyist' } });
  server = await startOwnKeyServer(sandbox, { SVC_STATE_DIR: stateDir, SVC_CACHE: 'off' });
}, 30_000);

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

describe('own-key sign-in: each person calls with their own key', () => {
  let ana: { clientId: string; tokens: Tokens };
  let ben: { clientId: string; tokens: Tokens };

  beforeAll(async () => {
    ana = await new ScriptedSignIn(server.origin, server.resource).signIn(ANA, {
      budget: '3',
      window: 'day',
    });
    ben = await new ScriptedSignIn(server.origin, server.resource).signIn(BEN);
  }, 30_000);

  it('each is charged to their own key; one at their own budget does not stop the other', async () => {
    const [anaBefore, benBefore] = [await usedToday(sandbox, ANA), await usedToday(sandbox, BEN)];
    const anas = await calls(ana.tokens.access_token, 5);
    expect(anas.filter((t) => !t.startsWith('refused'))).toHaveLength(3);
    for (const text of anas.slice(3))
      expect(text).toMatch(/^refused: Refused before sending: .*your own budget of 3/);
    const bens = await calls(ben.tokens.access_token, 4);
    expect(bens.filter((t) => t.startsWith('refused'))).toEqual([]);
    expect((await usedToday(sandbox, ANA)) - anaBefore).toBe(3);
    expect((await usedToday(sandbox, BEN)) - benBefore).toBe(4);
  });

  it('get_credit_usage and svc://credits show each person their own figures', async () => {
    const anas = await usage(ana.tokens.access_token);
    expect(anas.figures).toMatchObject({ spent: 3, you: { window: 'day', budget: 3, spent: 3, left: 0 } });
    expect(anas.text).toContain('Yours today: 3 of your 3 spent, 0 left.');
    expect(anas.resource).toMatchObject({ spent: 3, you: { budget: 3, spent: 3 } });
    const bens = await usage(ben.tokens.access_token);
    expect(bens.figures).toMatchObject({ spent: 4, you: { budget: null, spent: 4, left: null } });
    expect(bens.resource).toMatchObject({ spent: 4 });
  });

  it("key info answers for the caller's own key: its plan's figures, never cached across people", async () => {
    const [anas] = await calls(ana.tokens.access_token, 1, 'get_key_info');
    const [bens] = await calls(ben.tokens.access_token, 1, 'get_key_info');
    expect(anas).toMatch(/left of 120,000/);
    expect(bens).toMatch(/left of 40,000/);
  });

  it('a refresh token rotates; used twice, it revokes the grant and the person must sign in again', async () => {
    const flow = new ScriptedSignIn(server.origin, server.resource);
    const first = await flow.refresh(ben.clientId, ben.tokens.refresh_token as string);
    expect(first.status).toBe(200);
    const rotated = first.body as unknown as Tokens;
    expect(rotated.refresh_token).not.toBe(ben.tokens.refresh_token);
    expect(await statusWith(server.url, rotated.access_token)).toBe(200);
    const reused = await flow.refresh(ben.clientId, ben.tokens.refresh_token as string);
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await statusWith(server.url, rotated.access_token)).toBe(401);
    expect(await statusWith(server.url, ben.tokens.access_token)).toBe(401);
    expect((await flow.refresh(ben.clientId, rotated.refresh_token as string)).status).toBe(400);
  });

  it('a revoked refresh token ends the grant: its access tokens are refused at once', async () => {
    const flow = new ScriptedSignIn(server.origin, server.resource);
    const signedIn = await flow.signIn(BEN);
    expect(await statusWith(server.url, signedIn.tokens.access_token)).toBe(200);
    expect(await flow.revoke(signedIn.clientId, signedIn.tokens.refresh_token as string)).toBe(200);
    expect(await statusWith(server.url, signedIn.tokens.access_token)).toBe(401);
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${signedIn.tokens.access_token}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(await refused.text()).toMatch(/sign in again/);
  });

  it('a refresh naming another resource is refused and leaves the refresh token: the right one then succeeds', async () => {
    const flow = new ScriptedSignIn(server.origin, server.resource);
    const signedIn = await flow.signIn(ANA);
    const refresh = signedIn.tokens.refresh_token as string;
    const elsewhere = await flow.token({
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: signedIn.clientId,
      resource: 'https://elsewhere.example/mcp',
    });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const right = await flow.refresh(signedIn.clientId, refresh);
    expect(right.status).toBe(200);
    expect(await statusWith(server.url, (right.body as unknown as Tokens).access_token)).toBe(200);
    expect(await statusWith(server.url, signedIn.tokens.access_token)).toBe(200);
  });

  it('signing in again with another key (same browser, same client) makes a grant of its own: tokens issued before keep their key', async () => {
    const flow = new ScriptedSignIn(server.origin, server.resource);
    const first = await flow.signIn(ANA);
    const { verifier, challenge } = pkce();
    const again = await flow.authorize(first.clientId, challenge);
    const { redirect } = await flow.giveKey(again.headers.get('location') ?? '', { api_key: BEN });
    const second = await flow.exchange(first.clientId, redirect?.get('code') as string, verifier);
    expect(second.status).toBe(200);
    const benBefore = await usedToday(sandbox, BEN);
    const anaBefore = await usedToday(sandbox, ANA);
    await calls(first.tokens.access_token, 1, 'get_fear_and_greed_latest');
    expect(await usedToday(sandbox, ANA)).toBe(anaBefore + 1);
    expect(await usedToday(sandbox, BEN)).toBe(benBefore);
    await calls(String(second.body.access_token), 1, 'get_fear_and_greed_latest');
    expect(await usedToday(sandbox, BEN)).toBe(benBefore + 1);
    // The first grant's refresh still gives the first key's tokens.
    const refreshed = await flow.refresh(first.clientId, first.tokens.refresh_token as string);
    await calls(String(refreshed.body.access_token), 1, 'get_fear_and_greed_latest');
    expect(await usedToday(sandbox, ANA)).toBe(anaBefore + 2);
  });

  it("/metrics is not a person's: their token gets no one's spend", async () => {
    const response = await rawRequest(`${server.origin}/metrics`, {
      method: 'GET',
      headers: { authorization: `Bearer ${ana.tokens.access_token}` },
    });
    expect(response.status).toBe(403);
    expect(response.text).not.toMatch(/credits_spent/);
  });

  it('every file kept is private (0600) though the state directory is not', () => {
    const files = readdirSync(stateDir).filter((name) => statSync(join(stateDir, name)).isFile());
    expect(files).toEqual(expect.arrayContaining(['sign-in.sqlite', 'sign-in.secret', 'ledger.sqlite']));
    expect(files.filter((name) => name.endsWith('-wal') || name.endsWith('-shm')).length).toBeGreaterThan(0);
    const modes = Object.fromEntries(
      files.map((name) => [name, (statSync(join(stateDir, name)).mode & 0o777).toString(8)]),
    );
    expect(modes).toEqual(Object.fromEntries(files.map((name) => [name, '600'])));
  });

  it('no key is kept in the clear: the state directory holds them sealed', () => {
    const files = readdirSync(stateDir).filter((name) => name.startsWith('sign-in'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = readFileSync(join(stateDir, name)).toString('latin1');
      for (const key of PERSON_KEYS) expect(bytes.includes(key), `${name} holds a key`).toBe(false);
    }
  });
});
