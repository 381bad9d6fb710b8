import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESTIMATE, FNG, IN_FLIGHT, killWithCallsWaiting, usage } from '../helpers/charging.js';
import { newStateDir } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();
/** The lease a replica holds on its reservations (README, "Replicas"), and some room. */
const LEASE_RUNS_OUT_MS = 15_000 + 10_000;

describe.skipIf(missing)('the Redis ledger charges a killed replica for its sent calls only', () => {
  let redis: TestRedis;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    [redis, upstream] = await Promise.all([startRedis(), startFakeUpstream()]);
  });
  afterAll(async () => {
    await Promise.all([redis?.close(), upstream?.close()]);
  });

  it('SIGKILL with 8 calls sent and more waiting for a turn: 8 counted once the lease runs out', async () => {
    upstream.reply(FNG, { hang: true });
    const env = {
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: upstream.url,
      SVC_CACHE: 'off',
      SVC_CREDIT_BUDGET: '100',
      SVC_REDIS_URL: redis.url,
      SVC_REDIS_PREFIX: 'charging',
      SVC_STATE_DIR: newStateDir(),
    };
    await killWithCallsWaiting(upstream, env);
    await until(async () => (await usage(env)).reserved === 0, LEASE_RUNS_OUT_MS);
    expect(await usage(env)).toMatchObject({ spent: IN_FLIGHT * ESTIMATE, reserved: 0 });
  }, 60_000);
});
