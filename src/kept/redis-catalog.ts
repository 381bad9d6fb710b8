/**
 * The catalog of kept tables on Redis, shared by every replica: one hash an owner, a field a table
 * (its name) holding its entry, as many as the file catalog's at most. A table kept through one
 * replica is named, listed and expired the same through every other.
 */
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import {
  candidateNames,
  EXPIRED_KEPT_MS,
  entriesGone,
  type KeptTable,
  overBound,
  ownerKey,
  type TableCatalog,
} from './catalog.js';

/**
 * KEYS: the owner's hash. ARGV: the table's id, now, how long the hash is kept, then the entries
 * of its candidate names in turn (name, JSON). Takes the first name that is free, expired, or the
 * table's own already; keeps the hash at least as long as its newest entry. The name taken, or
 * nil when every one is held.
 */
const ADD = script(`
for i = 4, #ARGV, 2 do
  local held = redis.call('HGET', KEYS[1], ARGV[i])
  local entry = held and cjson.decode(held)
  if entry and entry.id == ARGV[1] then return ARGV[i] end
  if not entry or tonumber(entry.expires) <= tonumber(ARGV[2]) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
    return ARGV[i]
  end
end
return nil
`);

export class RedisCatalog implements TableCatalog {
  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = Date.now,
  ) {}

  private keyOf(owner: string): string {
    return this.redis.key('tables', ownerKey(owner));
  }

  async add(owner: string, table: Omit<KeptTable, 'name'>): Promise<KeptTable> {
    const now = this.now();
    const names = candidateNames(table);
    const entries = names.flatMap((name) => [name, JSON.stringify({ ...table, name })]);
    const keepMs = table.expires + EXPIRED_KEPT_MS - now;
    const name = await this.redis.run(ADD, [this.keyOf(owner)], [table.id, now, keepMs, ...entries]);
    if (typeof name !== 'string') throw new Error('every name of the table is taken');
    const tables = await this.list(owner);
    const over = overBound(tables, now);
    if (over.length > 0) {
      await this.redis.use((redis) =>
        redis.hset(
          this.keyOf(owner),
          Object.fromEntries(over.map((t) => [t.name, JSON.stringify({ ...t, expires: now })])),
        ),
      );
    }
    const expired = new Set(over.map((t) => t.name));
    const gone = entriesGone(
      tables.map((t) => (expired.has(t.name) ? { ...t, expires: now } : t)),
      now,
    );
    if (gone.length > 0) {
      await this.redis.use((redis) => redis.hdel(this.keyOf(owner), ...gone.map((t) => t.name)));
    }
    return tables.find((t) => t.name === name) ?? { ...table, name };
  }

  async list(owner: string): Promise<KeptTable[]> {
    const fields = await this.redis.use((redis) => redis.hgetall(this.keyOf(owner)));
    const now = this.now();
    const tables: KeptTable[] = [];
    const stale: string[] = [];
    for (const [name, text] of Object.entries(fields)) {
      const table = JSON.parse(text) as KeptTable;
      if (table.expires + EXPIRED_KEPT_MS <= now) stale.push(name);
      else tables.push(table);
    }
    if (stale.length > 0) await this.redis.use((redis) => redis.hdel(this.keyOf(owner), ...stale));
    return tables.sort((a, b) => b.expires - a.expires);
  }
}
