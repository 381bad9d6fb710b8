/**
 * The result store on Redis: a page kept by one replica is served by another, free and with no
 * request (a load balancer sends `next` where it likes); a page whose result Redis no longer holds
 * is refused, free, naming the call that asks again. A table kept through one replica is queried
 * through the other, for the same owner only, and expires on both at the same time. Free results (a
 * query's rows) go first, within a quarter of the bound, and never push out one paid for.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisResultStore } from '../../src/cache/redis-results.js';
import type { StoredResult } from '../../src/cache/result-format.js';
import { revive } from '../../src/kept/revive.js';
import { SILENT_LOG } from '../../src/ops/logs.js';
import { RedisConnection } from '../../src/redis.js';
import { newStateDir, textOf } from '../helpers/cli.js';
import { moveClockAhead, restoreClock } from '../helpers/clock.js';
import { startMcp } from '../helpers/in-process.js';
import { redisMissing, type SharedRedis, sharedRedis } from '../helpers/redis.js';
import { heavyCallsEnv, type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const missing = redisMissing();
const LISTINGS = '/v3/cryptocurrency/listings/latest';
type Page = { start: number; items: { id: number }[]; next?: Record<string, unknown> };

describe.skipIf(missing)('kept results across replicas', () => {
  let redis: SharedRedis;
  let sandbox: Sandbox;
  let replicas: Session[] = [];
  const requests = () => sandbox.stats.byPath.get(LISTINGS) ?? 0;
  const page = (result: CallToolResult) => result.structuredContent as Page;

  beforeAll(async () => {
    redis = sharedRedis();
    sandbox = await startTestSandbox({ rateLimit: false });
    replicas = await Promise.all(
      [0, 1].map(() =>
        startMcp(
          heavyCallsEnv(sandbox, {
            SVC_CACHE: 'off',
            SVC_REDIS_URL: redis.url,
            SVC_REDIS_PREFIX: redis.prefix,
            SVC_STATE_DIR: newStateDir(),
          }),
        ),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await sandbox?.close();
  });

  it('a page kept on one replica is served by the other, free and with no request', async () => {
    const [one, other] = replicas as [Session, Session];
    const asked = requests();
    const first = await one.call('get_cryptocurrency_listings_latest', { limit: 300, format: 'json' });
    expect(requests() - asked).toBe(1);
    expect(first._meta).toMatchObject({ credits: 2 });
    const next = page(first).next;
    expect(next?.cursor).toBeDefined();
    const before = requests();
    const second = await other.call('get_cryptocurrency_listings_latest', next);
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(requests()).toBe(before);
    expect(second._meta?.credits).toBe(0);
    const ids = [...page(first).items, ...page(second).items].map((a) => a.id);
    expect(page(second).start).toBe(page(first).items.length + 1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('an answer kept as the service sent it is paged and queried through the other replica', async () => {
    const [one, other] = replicas as [Session, Session];
    // 5,000 points in two currencies: past 2 MB, so Redis holds the service's own body.
    const args = { count: 5000, interval: '5m', convert: 'USD,EUR', format: 'json' };
    const first = await one.call('get_global_metrics_historical', args);
    type History = {
      quotes: { timestamp: string }[];
      next?: Record<string, unknown>;
      kept: { table: string };
    };
    const { quotes, next, kept } = first.structuredContent as History;
    const second = await other.call('get_global_metrics_historical', { ...next, format: 'json' });
    expect(second._meta).toMatchObject({ credits: 0, stored: true });
    const shown = [...quotes, ...(second.structuredContent as History).quotes].map((q) => q.timestamp);
    const queried = await other.call('query_data', {
      sql: `SELECT timestamp FROM ${kept.table} ORDER BY rowid LIMIT ${shown.length}`,
      format: 'json',
    });
    expect((queried.structuredContent as { rows: unknown[][] }).rows.map(([t]) => t)).toEqual(shown);
  });

  it('a table kept through one replica is queried through the other, for its owner only; it expires on both at once', async () => {
    const [one, other] = replicas as [Session, Session];
    const first = await one.call('get_cryptocurrency_listings_latest', { limit: 300, format: 'json' });
    const kept = (first.structuredContent as { kept: { table: string; rows: number; expires: string } }).kept;
    const asked = requests();
    const counted = await other.call('query_data', {
      sql: `SELECT count(*), min(rank) FROM ${kept.table}`,
      format: 'json',
    });
    expect(counted.isError, textOf(counted)).toBeFalsy();
    expect((counted.structuredContent as { rows: unknown[][] }).rows).toEqual([[kept.rows, 1]]);
    expect(requests()).toBe(asked);
    const stranger = await startMcp(
      sandboxEnv(sandbox, 'sandbox-professional', {
        SVC_REDIS_URL: redis.url,
        SVC_REDIS_PREFIX: redis.prefix,
        SVC_STATE_DIR: newStateDir(),
      }),
    );
    try {
      const theirs = await stranger.call('query_data', { sql: `SELECT * FROM ${kept.table}` });
      expect(textOf(theirs)).toMatch(/^No table \w+\. You have no kept tables/);
    } finally {
      await stranger.close();
    }
    moveClockAhead(Date.parse(kept.expires) - Date.now() + 1_000);
    try {
      for (const replica of [one, other]) {
        const expired = await replica.call('query_data', { sql: `SELECT * FROM ${kept.table}` });
        expect(textOf(expired)).toContain(
          `The table ${kept.table} expired at ${kept.expires.slice(0, 10)} ${kept.expires.slice(11, 16)} UTC`,
        );
      }
    } finally {
      restoreClock();
    }
  });

  it('a page whose result Redis no longer holds is refused, free, naming the call that asks again', async () => {
    const [one, other] = replicas as [Session, Session];
    const first = await one.call('get_cryptocurrency_listings_latest', { limit: 300, format: 'json' });
    const next = page(first).next;
    const client = new Redis(redis.url);
    try {
      // Everything this file's replicas wrote, as a Redis that lost its data would have it.
      const written = await client.keys(`${redis.prefix}*`);
      expect(written.length).toBeGreaterThan(0);
      await client.del(...written);
    } finally {
      client.disconnect();
    }
    const before = requests();
    const again = await other.call('get_cryptocurrency_listings_latest', next);
    expect(again.isError).toBe(true);
    expect(requests()).toBe(before);
    expect(again._meta).toMatchObject({ credits: 0 });
    expect(textOf(again)).toMatch(/cannot be served: its kept result is gone/);
    expect(textOf(again)).toContain(`"start":${page(first).items.length + 1}`);
  });
});

describe.skipIf(missing)('the result store on Redis, within its bound', () => {
  it('holds free results within a quarter of it, out first, never pushing out a paid one', async () => {
    const { url, prefix } = sharedRedis();
    const connection = new RedisConnection(url, prefix, SILENT_LOG);
    const store = new RedisResultStore(connection, revive, 40 * 1024);
    let ids = 0;
    const put = async (kb: number, free = false) => {
      const id = `redis-result-${String(++ids).padStart(3, '0')}`;
      const result: StoredResult = {
        tool: 'get_cryptocurrency_listings_latest',
        owner: free ? 'made-up' : 'account-a',
        params: { limit: 5000 },
        data: { padding: 'x'.repeat(kb * 1024) },
        fetchedAt: 0,
        ...(free ? { free } : {}),
      };
      return { id, kept: await store.put(id, result, Date.now() + 60_000) };
    };
    // Read as another replica would, with nothing of them in its memory.
    const there = async (id: string, owner = 'account-a') =>
      (await new RedisResultStore(connection, revive).get(id, owner)) !== undefined;
    try {
      const paid = [await put(9), await put(9), await put(9)].map((p) => p.id);
      const free: string[] = [];
      for (let i = 0; i < 20; i++) free.push((await put(4, true)).id);
      for (const id of paid) expect(await there(id)).toBe(true);
      const freeThere = await Promise.all(free.map((id) => there(id, 'made-up')));
      expect(free.filter((_, i) => freeThere[i])).toEqual(free.slice(-2));
      // A paid result past the bound pushes the free ones out before any paid one.
      paid.push((await put(9)).id);
      for (const id of free.slice(-2)) expect(await there(id, 'made-up')).toBe(false);
      for (const id of paid) expect(await there(id)).toBe(true);
      // Now a free result would push out a paid one: it is not kept instead.
      const over = await put(4, true);
      expect(over.kept).toBe(false);
      expect(await there(over.id, 'made-up')).toBe(false);
      for (const id of paid) expect(await there(id)).toBe(true);
    } finally {
      await connection.close();
    }
  });
  it('counts a result put again once, and forgets what Redis expired', async () => {
    const { url, prefix } = sharedRedis();
    const connection = new RedisConnection(url, prefix, SILENT_LOG);
    const store = new RedisResultStore(connection, revive, 40 * 1024);
    const result: StoredResult = {
      tool: 'get_cryptocurrency_listings_latest',
      owner: 'account-a',
      params: { limit: 5000 },
      data: { padding: 'x'.repeat(9 * 1024) },
      fetchedAt: 0,
    };
    const there = async (id: string) =>
      (await new RedisResultStore(connection, revive).get(id, 'account-a')) !== undefined;
    try {
      // The same result, put by ten replicas: 9 KB, not 90, so the next three still fit beside it.
      for (let i = 0; i < 10; i++)
        expect(await store.put('redis-again-0000', result, Date.now() + 60_000)).toBe(true);
      const short = ['redis-short-0001', 'redis-short-0002'];
      for (const id of short) expect(await store.put(id, result, Date.now() + 300)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      // Expired, they hold nothing: three more fit beside the first.
      const more = ['redis-more-00001', 'redis-more-00002', 'redis-more-00003'];
      for (const id of more) expect(await store.put(id, result, Date.now() + 60_000)).toBe(true);
      for (const id of ['redis-again-0000', ...more]) expect(await there(id)).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
