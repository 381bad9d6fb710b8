/**
 * The result store on Redis: a page kept by one replica is served by another, free and with no
 * request (a load balancer sends `next` where it likes); a page whose result Redis no longer holds
 * is refused, free, naming the call that asks again. A table kept through one replica is queried
 * through the other, for the same owner only, and expires on both at the same time.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
