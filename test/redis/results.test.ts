/**
 * The result store on Redis: a page kept by one replica is served by another, free and with no
 * request (a load balancer sends `next` where it likes); a page whose result Redis no longer holds
 * is asked of the service again, charged, and says so.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const missing = redisMissing();
const LISTINGS = '/v3/cryptocurrency/listings/latest';
type Page = { start: number; items: { id: number }[]; next?: Record<string, unknown> };

describe.skipIf(missing)('kept results across replicas', () => {
  let redis: TestRedis;
  let sandbox: Sandbox;
  let replicas: Session[] = [];
  const requests = () => sandbox.stats.byPath.get(LISTINGS) ?? 0;
  const page = (result: CallToolResult) => result.structuredContent as Page;

  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startTestSandbox({ rateLimit: false })]);
    replicas = await Promise.all(
      [0, 1].map(() =>
        startMcp(
          heavyCallsEnv(sandbox, {
            SVC_CACHE: 'off',
            SVC_REDIS_URL: redis.url,
            SVC_STATE_DIR: newStateDir(),
          }),
        ),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await Promise.all([redis?.close(), sandbox?.close()]);
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

  it('a page whose result Redis no longer holds is refused, free, naming the call that asks again', async () => {
    const [one, other] = replicas as [Session, Session];
    const first = await one.call('get_cryptocurrency_listings_latest', { limit: 300, format: 'json' });
    const next = page(first).next;
    const client = new Redis(redis.url);
    try {
      await client.flushall();
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
