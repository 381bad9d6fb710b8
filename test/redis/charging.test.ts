/**
 * The Redis ledger charges what reached the service, against a counting fake upstream: a killed
 * replica's sent calls once its lease runs out; calls whose reservations were reaped while they
 * waited for a turn are reserved again before they are sent, or refused; a call whose turn comes
 * while Redis is gone is refused before it is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf } from '../../src/guard/accounts.js';
import { RedisLedger } from '../../src/guard/redis-ledger.js';
import { SILENT_LOG } from '../../src/ops/logs.js';
import { RedisConnection } from '../../src/redis.js';
import { pairOf } from '../helpers/answers.js';
import {
  ESTIMATE,
  FNG,
  FNG_ANSWER,
  IN_FLIGHT,
  killWithCallsWaiting,
  settledUsage,
  usage,
} from '../helpers/charging.js';
import { creditUsage, newStateDir, textOf } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();
/** The servers' clock (SVC_NOW), and so the day window their calls count in. */
const WINDOW = 'day:2026-11-22';
/** The lease a replica holds on its reservations (docs/team.md), and some room. */
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

  /**
   * A server's settings: the fake upstream, the budget, a prefix of the test's own on the shared
   * Redis, and a minute per request, so that calls held at the upstream end only when the test ends them.
   */
  const settings = (prefix: string, budget: number) => ({
    SVC_API_KEY: SECRET_KEY,
    SVC_BASE_URL: upstream.url,
    SVC_CACHE: 'off',
    SVC_CREDIT_BUDGET: String(budget),
    SVC_REDIS_URL: redis.url,
    SVC_REDIS_PREFIX: prefix,
    SVC_STATE_DIR: newStateDir(),
    SVC_TIMEOUT_MS: '60000',
    SVC_NOW: NOW,
  });

  /**
   * The server's 8 upstream turns taken by calls the hanging upstream holds, until `end` cancels
   * them (each charged its estimate) and the calls waiting behind them get their turns.
   */
  async function holdEveryTurn(mcp: Session): Promise<{ end(): Promise<void> }> {
    const before = upstream.requests.length;
    const cancels = Array.from({ length: IN_FLIGHT }, () => new AbortController());
    const sent = cancels.map((cancel) =>
      mcp.client
        .callTool({ name: 'get_fear_and_greed_latest', arguments: {} }, undefined, { signal: cancel.signal })
        .catch((error: Error) => error),
    );
    await until(() => upstream.requests.length - before === IN_FLIGHT);
    return {
      async end() {
        for (const cancel of cancels) cancel.abort();
        await Promise.all(sent);
      },
    };
  }

  it('SIGKILL with 8 calls sent and more waiting for a turn: 8 counted once the lease runs out', async () => {
    upstream.reply(FNG, { hang: true });
    const env = settings('charging', 100);
    await killWithCallsWaiting(upstream, env);
    await settledUsage(env, LEASE_RUNS_OUT_MS);
    expect(await usage(env)).toMatchObject({ spent: IN_FLIGHT * ESTIMATE, reserved: 0 });
  }, 60_000);

  it('calls whose reservations were reaped while they waited for a turn are reserved again before they are sent, or refused', async () => {
    upstream.reply(FNG, { hang: true });
    const budget = IN_FLIGHT + 2;
    const env = settings('lease', budget * ESTIMATE);
    const mcp = await startMcp(env);
    const admin = new RedisConnection(redis.url, 'lease', SILENT_LOG);
    const ledger = new RedisLedger(admin);
    const account = accountOf(SECRET_KEY);
    try {
      const before = upstream.requests.length;
      const held = await holdEveryTurn(mcp);
      const waiting = [mcp.call('get_fear_and_greed_latest'), mcp.call('get_fear_and_greed_latest')];
      await until(async () => (await creditUsage(mcp)).reserved === budget * ESTIMATE);
      // The server's lease runs out, as when it is cut from Redis for longer than the lease, and
      // another process reaps at once: the 8 sent count as spent, the 2 waiting are dropped as never
      // sent. (The server renews its lease every 5 s: should it do so in between, this is tried again.)
      await until(async () => {
        await admin.use((r) => r.del(admin.key('ledger', 'owners')));
        return (await ledger.figures(account, WINDOW)).reserved === 0;
      }, 15_000);
      expect(await ledger.figures(account, WINDOW)).toMatchObject({ spent: IN_FLIGHT * ESTIMATE });
      // Another replica's call takes one of the 2 credits left; then the 8 sent end, and the 2 get their turn.
      const other = await ledger.reserve({
        account,
        window: WINDOW,
        tool: 'get_fear_and_greed_latest',
        amount: 1,
      });
      if (!other.ok) throw new Error("the other replica's call did not fit");
      await ledger.settle(other.id, 1);
      upstream.reply(FNG, FNG_ANSWER);
      await held.end();
      const [first, second] = pairOf(await Promise.all(waiting), 'answers');
      const answers = [first, second].filter((result) => !result.isError);
      const refusals = [first, second].filter((result) => result.isError).map(textOf);
      expect(answers).toHaveLength(1);
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatch(
        /^Refused before sending: this call's reservation was dropped while it waited for its turn .* 0 credits of the budget of 10 are left/,
      );
      // Every request the service received is counted once, the other replica's credit beside
      // them; the refused call sent none.
      expect(upstream.requests.length - before).toBe(IN_FLIGHT + 1);
      expect(await usage(env)).toMatchObject({ spent: budget * ESTIMATE, reserved: 0, left: 0 });
    } finally {
      await admin.close();
      await mcp.close();
    }
  }, 60_000);

  it('a call whose turn comes while Redis is gone is refused, not sent: its mark could not be written', async () => {
    upstream.reply(FNG, { hang: true });
    const env = settings('gone', 100);
    const mcp = await startMcp(env);
    try {
      const before = upstream.requests.length;
      const held = await holdEveryTurn(mcp);
      const waiting = mcp.call('get_fear_and_greed_latest');
      await until(async () => (await creditUsage(mcp)).reserved === (IN_FLIGHT + 1) * ESTIMATE);
      await redis.stop();
      upstream.reply(FNG, FNG_ANSWER);
      await held.end();
      const refused = await waiting;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /^The credit ledger at redis:\/\/.* cannot be used .* budgeted calls are refused/,
      );
      expect(upstream.requests.length - before).toBe(IN_FLIGHT);
    } finally {
      await redis.start();
      await mcp.close();
    }
  }, 60_000);
});
