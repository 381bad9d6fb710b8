/**
 * The catalog of kept tables on Redis holds what the file catalog holds for an owner: 50 live
 * tables, and 200 entries in all, expired ones included, the oldest out first. It held every entry
 * of a day: an owner keeping a table a call had a hash that every query and every table kept read
 * whole.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { MAX_TABLES } from '../../src/kept/catalog.js';
import { keptId } from '../../src/kept/names.js';
import { RedisCatalog } from '../../src/kept/redis-catalog.js';
import { SILENT_LOG } from '../../src/ops/logs.js';
import { RedisConnection } from '../../src/redis.js';
import { redisMissing, sharedRedis } from '../helpers/redis.js';

describe.skipIf(redisMissing())('the kept tables catalog on Redis', () => {
  it('holds 50 live tables and 200 entries an owner, whatever it kept', async () => {
    const { url, prefix } = sharedRedis();
    const connection = new RedisConnection(url, prefix, SILENT_LOG);
    const client = new Redis(url);
    try {
      const catalog = new RedisCatalog(connection);
      const expires = Date.now() + 600_000;
      for (let i = 0; i < 260; i++) {
        await catalog.add('account-a', {
          id: keptId('account-a', 'get_cryptocurrency_listings_latest', { limit: i + 1 }, 0),
          tool: 'get_cryptocurrency_listings_latest',
          params: { limit: i + 1 },
          columns: [['id', 'integer']],
          rows: i + 1,
          shape: { list: 'items' },
          expires: expires + i,
        });
      }
      const tables = await catalog.list('account-a');
      expect(tables).toHaveLength(200);
      const live = tables.filter((t) => t.expires > Date.now());
      expect(live).toHaveLength(MAX_TABLES);
      expect(live.map((t) => t.rows)).toEqual(Array.from({ length: MAX_TABLES }, (_, i) => 260 - i));
      const [hash] = await client.keys(`${prefix}*tables*`);
      expect(await client.hlen(hash as string)).toBe(200);
    } finally {
      client.disconnect();
      await connection.close();
    }
  });
});
