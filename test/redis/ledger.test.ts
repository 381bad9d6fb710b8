/**
 * The Redis ledger's rules against a real redis-server, in-process: the same rules as the file
 * ledger (reserve only within the budget, settle, release, hits, reservations of a process gone
 * counted as spent when sent and dropped when not), scripts sent again after Redis forgets them, and the services' readiness.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { RedisLedger } from '../../src/guard/redis-ledger.js';
import { SILENT_LOG } from '../../src/ops/logs.js';
import { RedisConnection } from '../../src/redis.js';
import { createServices } from '../../src/services/index.js';
import { newStateDir } from '../helpers/cli.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();

describe.skipIf(missing)('the ledger on Redis', () => {
  let redis: TestRedis;
  const connections: RedisConnection[] = [];
  const stateDir = newStateDir();

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await redis?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  function connect(prefix: string): RedisConnection {
    const connection = new RedisConnection(redis.url, prefix, SILENT_LOG);
    connections.push(connection);
    return connection;
  }

  const call = { account: 'key:0123456789abcdef', window: 'day:2026-11-22', tool: 'get_svc100_index_latest' };

  it('reserves only while spent + reserved + amount stays within the budget; settles and releases', async () => {
    const ledger = new RedisLedger(connect('rules'));
    const first = await ledger.reserve({ ...call, amount: 5, budget: 10 });
    const second = await ledger.reserve({ ...call, amount: 5, budget: 10 });
    expect(first.ok && second.ok).toBe(true);
    expect(await ledger.reserve({ ...call, amount: 1, budget: 10 })).toEqual({
      ok: false,
      spent: 0,
      reserved: 10,
    });
    expect(await ledger.figures(call.account, call.window)).toMatchObject({ spent: 0, reserved: 10 });

    if (!first.ok || !second.ok) return;
    await ledger.settle(first.id, 3);
    await ledger.release(second.id);
    expect(await ledger.figures(call.account, call.window)).toEqual({
      spent: 3,
      reserved: 0,
      by_tool: { [call.tool]: { calls: 1, credits: 3, cache_hits: 0 } },
      cache_hits: 0,
      credits_saved: 0,
    });
    expect((await ledger.reserve({ ...call, amount: 7, budget: 10 })).ok).toBe(true);
    expect((await ledger.reserve({ ...call, amount: 1, budget: 10 })).ok).toBe(false);
    // Without a budget every reservation fits.
    expect((await ledger.reserve({ ...call, amount: 1000 })).ok).toBe(true);

    await ledger.recordHit(call.account, call.window, call.tool, 3);
    expect(await ledger.figures(call.account, call.window)).toMatchObject({
      cache_hits: 1,
      credits_saved: 3,
      by_tool: { [call.tool]: { calls: 1, credits: 3, cache_hits: 1 } },
    });
    await ledger.close();
  });

  it('counts a sent reservation as spent once the process that held it is gone, and drops one never sent', async () => {
    const gone = new RedisLedger(connect('reaped'), { leaseMs: 300 });
    const other = new RedisLedger(connect('reaped'));
    const held = await gone.reserve({ ...call, amount: 4, budget: 10 });
    const waiting = await gone.reserve({ ...call, amount: 2, budget: 10 });
    // Sent, answered free, and waiting to try again: not sent.
    const retrying = await gone.reserve({ ...call, amount: 3, budget: 10 });
    expect(held.ok && waiting.ok && retrying.ok).toBe(true);
    if (held.ok) await gone.markSent(held.id);
    if (retrying.ok) {
      await gone.markSent(retrying.id);
      await gone.markUnsent(retrying.id);
    }
    // Closing stops the lease's renewal without settling: as if the process had died.
    await gone.close();
    expect(await other.figures(call.account, call.window)).toMatchObject({ spent: 0, reserved: 9 });
    // The lease runs out and another process counts the sent reservation as spent.
    await until(async () => (await other.figures(call.account, call.window)).reserved === 0);
    expect(await other.figures(call.account, call.window)).toMatchObject({
      spent: 4,
      reserved: 0,
      by_tool: { [call.tool]: { calls: 1, credits: 4 } },
    });
    // Settling it late changes nothing: it was counted in full.
    if (held.ok) await gone.settle(held.id, 1);
    expect((await other.figures(call.account, call.window)).spent).toBe(4);
  });

  it('sends its scripts again when Redis has forgotten them; keeps day windows a week, totals for ever', async () => {
    const connection = connect('scripts');
    const ledger = new RedisLedger(connection);
    await ledger.recordHit(call.account, call.window, call.tool, 1);
    await connection.use((client) => client.script('FLUSH'));
    await ledger.recordHit(call.account, call.window, call.tool, 1);
    await ledger.recordHit(call.account, 'total', call.tool, 1);
    expect((await ledger.figures(call.account, call.window)).cache_hits).toBe(2);
    const ttl = (window: string) =>
      connection.use((client) => client.pttl(connection.key('ledger', call.account, window)));
    expect(await ttl(call.window)).toBeGreaterThan(7 * 86_400_000);
    expect(await ttl('total')).toBe(-1);
  });

  it('the first command after Redis is back succeeds, however long it was down', async () => {
    const connection = connect('back');
    await connection.ping();
    await redis.stop();
    // Down for 3 s: the reconnection back-off has grown to its longest (2 s) meanwhile.
    const downUntil = Date.now() + 3_000;
    while (Date.now() < downUntil) {
      await expect(connection.ping()).rejects.toThrow(/^Redis is unreachable: /);
      // Pacing, not waiting for a condition: the outage lasts its 3 s whatever happens.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await redis.start();
    await connection.ping();
  });

  it('the first command after a restarted Redis has loaded its data succeeds, when the connection met the load', async () => {
    // A Redis of its own, with data that takes a moment to load (300,000 keys).
    const loading = await startRedis();
    const connection = new RedisConnection(loading.url, 'loading', SILENT_LOG);
    try {
      // In batches, each well within the connection's command timeout on a busy machine.
      for (let from = 1; from <= 300_000; from += 30_000) {
        const fill = `for i = ${from}, ${from + 29_999} do redis.call('SET', 'k' .. i, 'v') end`;
        await connection.use((r) => r.eval(fill, 0));
      }
      await loading.stop();
      // Commands keep coming while it is down and while it loads: the background attempts meet the load.
      let poking = true;
      const pokes = (async () => {
        while (poking) {
          await connection.ping().catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await loading.start();
      poking = false;
      // At once, beside the last poke still waiting: it is the first command once Redis is ready.
      await connection.ping();
      await pokes;
    } finally {
      await connection.close();
      await loading.close();
    }
  });

  it('a reservation is one round trip to Redis: the marker is checked inside the reserve script', async () => {
    const admin = connect('admin');
    const ledger = new RedisLedger(connect('trips'));
    // Commands sent from outside (scripts count once, not their commands inside): EVALSHA, EVAL, GET...
    const sent = async () => {
      const info = String(await admin.use((r) => r.info('commandstats')));
      const calls = [...info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)];
      return Object.fromEntries(calls.map(([, name, n]) => [name, Number(n)]));
    };
    await ledger.reserve({ ...call, amount: 1, budget: 100 });
    const before = await sent();
    const reserved = await ledger.reserve({ ...call, amount: 1, budget: 100 });
    const after = await sent();
    expect(reserved.ok).toBe(true);
    expect((after.evalsha ?? 0) + (after.eval ?? 0) - (before.evalsha ?? 0) - (before.eval ?? 0)).toBe(1);
  });

  it('services.ready() says whether Redis and the ledger can be used, and recovers with Redis', async () => {
    // A real sandbox to be the upstream the readiness check reaches.
    const sandbox = await startTestSandbox();
    const services = await createServices(
      loadConfig({
        ...sandboxEnv(sandbox),
        SVC_REDIS_URL: redis.url,
        SVC_REDIS_PREFIX: 'ready',
        SVC_STATE_DIR: stateDir,
        SVC_LOG_LEVEL: 'silent',
      }),
    );
    try {
      expect(await services.ready()).toEqual({
        ok: true,
        checks: { upstream: 'ok', ledger: 'ok', redis: 'ok' },
      });
      await redis.stop();
      const down = await services.ready();
      expect(down.ok).toBe(false);
      expect(down.checks.redis).toMatch(/^Redis is unreachable: /);
      expect(down.checks.ledger).toMatch(/^Redis is unreachable: /);
      await redis.start();
      let again = down;
      await until(async () => {
        again = await services.ready();
        return again.ok;
      }, 15_000);
      expect(again).toEqual({ ok: true, checks: { upstream: 'ok', ledger: 'ok', redis: 'ok' } });
    } finally {
      await services.close();
      await sandbox.close();
    }
  });
});
