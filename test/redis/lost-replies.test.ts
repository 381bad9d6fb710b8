/**
 * A reservation whose reply never came: Redis frozen past the command timeout while a budgeted call
 * reserves. The call is refused (its credits cannot be counted); once Redis answers again, the hold
 * its script wrote meanwhile is taken back, so the next call has what is left of the budget, not
 * less by what a call that was never sent holds for the reservation's ten minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const missing = redisMissing();
const PATH = '/v3/fear-and-greed/latest';

describe.skipIf(missing)('a reservation whose reply was lost', () => {
  let redis: TestRedis;
  let sandbox: Sandbox;
  let mcp: Session;
  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startTestSandbox({ rateLimit: false })]);
    mcp = await startMcp(
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_REDIS_URL: redis.url,
        SVC_CREDIT_BUDGET: '2',
        SVC_CACHE: 'off',
        SVC_STATE_DIR: newStateDir(),
      }),
    );
  });
  afterAll(async () => {
    redis?.resume();
    await mcp?.close();
    await Promise.all([redis?.close(), sandbox?.close()]);
  });

  it('is taken back once Redis answers again: what is left is whole for the next call', async () => {
    // One call answered first: the connection is up, and 1 of the budget's 2 credits is left.
    expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
    redis.pause();
    let refused: Awaited<ReturnType<Session['call']>>;
    try {
      refused = await mcp.call('get_fear_and_greed_latest');
    } finally {
      redis.resume();
    }
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/credit ledger .* cannot be used/);
    expect(sandbox.stats.byPath.get(PATH)).toBe(1);
    const answered = await mcp.call('get_fear_and_greed_latest');
    expect(answered.isError, textOf(answered)).toBeFalsy();
    expect(sandbox.stats.byPath.get(PATH)).toBe(2);
  });
});
