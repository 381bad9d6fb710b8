/**
 * Own-key sign-in across two replicas on one Redis, sharing one SVC_SIGN_IN_SECRET: a person signs
 * in through one and calls and refreshes through the other; a revocation through one is refused on
 * the other at once. A replica with another secret cannot open the keys the others sealed, and a
 * replica on Redis without a secret does not start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { pairOf } from '../helpers/answers.js';
import { newStateDir, textOf } from '../helpers/cli.js';
import { ScriptedSignIn, startOwnKeyServer, statusWith, type Tokens, usedToday } from '../helpers/own-key.js';
import { freePort } from '../helpers/ports.js';
import { redisMissing, type SharedRedis, sharedRedis } from '../helpers/redis.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { PERSON_KEYS } from '../helpers/secret.js';
import { connectHttp, type HttpServer } from '../helpers/session.js';

const missing = redisMissing();
const [ANA] = PERSON_KEYS;
const SECRET = 'a-shared-sign-in-secret-of-32-characters-or-more';

describe.skipIf(missing)('own-key sign-in on two replicas sharing one Redis', () => {
  let redis: SharedRedis;
  let sandbox: Sandbox;
  let replicas: (HttpServer & { resource: string })[] = [];
  let resource: string;

  /** A replica on the shared Redis, answering for the one resource (as behind one load balancer). */
  const replica = (secret = SECRET) =>
    startOwnKeyServer(sandbox, {
      SVC_REDIS_URL: redis.url,
      SVC_REDIS_PREFIX: redis.prefix,
      SVC_SIGN_IN_SECRET: secret,
      SVC_OAUTH_RESOURCE: resource,
      SVC_STATE_DIR: newStateDir(),
      SVC_CACHE: 'off',
    });

  beforeAll(async () => {
    redis = sharedRedis();
    sandbox = await startTestSandbox({ rateLimit: false, keys: { [ANA]: 'startup' } });
    resource = `http://127.0.0.1:${await freePort()}/mcp`;
    replicas = [await replica(), await replica()];
  }, 30_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await sandbox?.close();
  });

  it('signed in through one, the person calls and refreshes through the other', async () => {
    const [one, two] = pairOf(replicas, 'replicas');
    const { clientId, tokens } = await new ScriptedSignIn(one.origin, resource).signIn(ANA);
    const before = await usedToday(sandbox, ANA);
    const session = await connectHttp(two, 'v2', { authorization: `Bearer ${tokens.access_token}` });
    try {
      const result = await session.call('get_fear_and_greed_latest');
      expect(textOf(result)).toMatch(/^Fear & Greed \d+/);
    } finally {
      await session.close();
    }
    expect(await usedToday(sandbox, ANA)).toBe(before + 1);
    const refreshed = await new ScriptedSignIn(two.origin, resource).refresh(
      clientId,
      tokens.refresh_token as string,
    );
    expect(refreshed.status).toBe(200);
    expect(await statusWith(one.url, (refreshed.body as unknown as Tokens).access_token)).toBe(200);
  });

  it('revoked through one, refused on the other at once', async () => {
    const [one, two] = pairOf(replicas, 'replicas');
    const person = new ScriptedSignIn(one.origin, resource);
    const { clientId, tokens } = await person.signIn(ANA);
    expect(await statusWith(two.url, tokens.access_token)).toBe(200);
    expect(await person.revoke(clientId, tokens.refresh_token as string)).toBe(200);
    expect(await statusWith(two.url, tokens.access_token)).toBe(401);
    const refresh = await new ScriptedSignIn(two.origin, resource).refresh(
      clientId,
      tokens.refresh_token as string,
    );
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a replica with another secret cannot open the keys: the person is asked to sign in again', async () => {
    const { tokens } = await new ScriptedSignIn(replicas[0]!.origin, resource).signIn(ANA);
    const other = await replica('another-secret-of-thirty-two-characters-at-least');
    try {
      const response = await fetch(other.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('Your key is no longer kept here: sign in again.');
    } finally {
      await other.stop();
    }
  });

  it('on Redis without SVC_SIGN_IN_SECRET, the server does not start, and says why', () => {
    expect(() =>
      loadConfig({
        SVC_REDIS_URL: redis.url,
        SVC_SIGN_IN: 'own-key',
        SVC_OAUTH_RESOURCE: resource,
      }),
    ).toThrow(/^SVC_SIGN_IN_SECRET is required with SVC_REDIS_URL and SVC_SIGN_IN=own-key/);
  });
});
