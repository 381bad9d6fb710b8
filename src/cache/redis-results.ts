/**
 * The result store on Redis, shared by every replica: a page asked for on one is served from the
 * result another kept. A result is one string key that Redis expires after its keep time. Beside
 * them: sorted sets of last uses (paid results, free ones) and of expiry times, a hash of sizes and
 * one of what they hold in all, which keep them within their bounds (results.ts), the least recently
 * used out first, in one atomic step when a result is put. That step's work is what it puts, drops
 * and finds expired, not how many results are kept: at 10,000 kept results a put walked them all,
 * for about 40 ms of Redis's one thread.
 */
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { type Decoded, decodeResult, encodeResult, type Revive, type StoredResult } from './result-format.js';
import { BaseResultStore, freeShare, RESULTS_MOST_BYTES, tooLargeToKeep } from './results.js';

/** The most expired results one put forgets: the rest wait for the next. */
const EXPIRED_A_PUT = 1_000;

/**
 * KEYS: the result; the last uses of paid results, of free ones; the expiry times; the sizes; what
 * they hold ('all', 'free'). ARGV: id, the result's first line, its body, keep ms, now ms, the
 * bound, free results' share, '1' when it is free, the prefix of a result's key, EXPIRED_A_PUT.
 * Forgets results Redis expired (and this one, when put before), keeps it, then drops free results,
 * least recently used first, until they fit their share and all fit the bound; then, unless this
 * one is free, paid ones. A free result that still does not fit goes itself: -1.
 */
const PUT = script(`
local id, now = ARGV[1], tonumber(ARGV[5])
local paidUses, freeUses, expiry, sizes, held = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local function drop(gone)
  local bytes = tonumber(redis.call('HGET', sizes, gone) or '0')
  if redis.call('ZREM', freeUses, gone) == 1 then redis.call('HINCRBY', held, 'free', -bytes) end
  redis.call('ZREM', paidUses, gone)
  redis.call('ZREM', expiry, gone)
  redis.call('HDEL', sizes, gone)
  redis.call('HINCRBY', held, 'all', -bytes)
  redis.call('DEL', ARGV[9] .. gone)
end
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', expiry, '-inf', now, 'LIMIT', 0, tonumber(ARGV[10]))) do
  drop(gone)
end
if redis.call('HEXISTS', sizes, id) == 1 then drop(id) end
local free = ARGV[8] == '1'
local bytes = string.len(ARGV[2]) + string.len(ARGV[3])
redis.call('SET', KEYS[1], ARGV[2] .. ARGV[3], 'PX', ARGV[4])
redis.call('ZADD', free and freeUses or paidUses, now, id)
redis.call('ZADD', expiry, now + tonumber(ARGV[4]), id)
redis.call('HSET', sizes, id, bytes)
redis.call('HINCRBY', held, 'all', bytes)
if free then redis.call('HINCRBY', held, 'free', bytes) end
local bound, share = tonumber(ARGV[6]), tonumber(ARGV[7])
local function all() return tonumber(redis.call('HGET', held, 'all') or '0') end
local function over() return tonumber(redis.call('HGET', held, 'free') or '0') > share or all() > bound end
local function oldest(uses)
  for _, found in ipairs(redis.call('ZRANGE', uses, 0, 1)) do
    if found ~= id then return found end
  end
end
while over() do
  local gone = oldest(freeUses)
  if gone == nil then break end
  drop(gone)
end
if free then
  if over() then
    drop(id)
    return -1
  end
  return all()
end
while all() > bound do
  local gone = oldest(paidUses)
  if gone == nil then break end
  drop(gone)
end
return all()
`);

export class RedisResultStore extends BaseResultStore {
  constructor(
    private readonly redis: RedisConnection,
    revive: Revive,
    private readonly mostBytes = RESULTS_MOST_BYTES,
  ) {
    super(revive);
  }

  async put(id: string, result: StoredResult, expires: number): Promise<boolean> {
    const { head, body, bytes } = encodeResult(result, expires);
    if (tooLargeToKeep(body)) return false;
    const now = Date.now();
    if (expires <= now) return true;
    const free = result.free === true;
    const held = await this.redis.run(
      PUT,
      [
        this.resultKey(id),
        this.uses(false),
        this.uses(true),
        this.redis.key('results', 'expiry'),
        this.redis.key('results', 'sizes'),
        this.redis.key('results', 'held'),
      ],
      [
        id,
        head,
        body,
        expires - now,
        now,
        this.mostBytes,
        freeShare(this.mostBytes),
        free ? '1' : '0',
        this.resultKey(''),
        EXPIRED_A_PUT,
      ],
    );
    if (Number(held) < 0) return false;
    this.recent.remember(id, result, bytes, expires);
    return true;
  }

  /** The result from Redis, when it is there and the owner's. */
  protected async read(id: string, owner: string): Promise<Decoded | undefined> {
    const stored = await this.redis.use((redis) => redis.getBuffer(this.resultKey(id)));
    const kept = stored === null ? undefined : decodeResult(stored);
    // The owner is checked on the record itself, before anything of it is handed on.
    if (kept === undefined || kept.header.owner !== owner) return undefined;
    await this.used(id, kept.header.free === true);
    return kept;
  }

  protected async used(id: string, free: boolean): Promise<void> {
    await this.redis.use((redis) => redis.zadd(this.uses(free), 'XX', Date.now(), id));
  }

  /** The sorted set of the last uses of paid results, or of free ones. */
  private uses(free: boolean): string {
    return this.redis.key('results', free ? 'free-uses' : 'uses');
  }

  async close(): Promise<void> {}

  private resultKey(id: string): string {
    return this.redis.key('result', id);
  }
}
