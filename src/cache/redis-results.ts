/**
 * The result store on Redis, shared by every replica: a page asked for on one is served from the
 * result another kept. A result is one string key that Redis expires after its keep time; sorted
 * sets of last uses (paid results, free ones) and a hash of sizes keep all of them within their
 * bounds (results.ts), the least recently used out first, in one atomic step when a result is put.
 */
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { type Decoded, decodeResult, encodeResult, type Revive, type StoredResult } from './result-format.js';
import { BaseResultStore, freeShare, RESULTS_MOST_BYTES, tooLargeToKeep } from './results.js';

/**
 * KEYS: the result, the last uses of paid results, the sizes, the last uses of free ones. ARGV: id,
 * the result's first line, keep ms, now ms, the bound, the prefix of a result's key, the result's
 * body, '1' when it is free, free results' share. Keeps the result, forgets those Redis expired,
 * then drops as results.ts `leaving` does: free ones first, least recently used first, until they
 * fit their share and all fit the bound; then, unless the result is free, paid ones. A free result
 * that still does not fit goes itself: -1.
 */
const PUT = script(`
local free = ARGV[8] == '1'
redis.call('SET', KEYS[1], ARGV[2] .. ARGV[7], 'PX', ARGV[3])
redis.call('ZADD', free and KEYS[4] or KEYS[2], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], string.len(ARGV[2]) + string.len(ARGV[7]))
local function held(uses)
  local sum = 0
  for _, id in ipairs(redis.call('ZRANGE', uses, 0, -1)) do
    if redis.call('EXISTS', ARGV[6] .. id) == 0 then
      redis.call('ZREM', uses, id)
      redis.call('HDEL', KEYS[3], id)
    else
      sum = sum + tonumber(redis.call('HGET', KEYS[3], id) or '0')
    end
  end
  return sum
end
local function drop(uses, id)
  local bytes = tonumber(redis.call('HGET', KEYS[3], id) or '0')
  redis.call('DEL', ARGV[6] .. id)
  redis.call('ZREM', uses, id)
  redis.call('HDEL', KEYS[3], id)
  return bytes
end
local paid = held(KEYS[2])
local freeHeld = held(KEYS[4])
local bound = tonumber(ARGV[5])
local share = tonumber(ARGV[9])
local function over() return freeHeld > share or paid + freeHeld > bound end
for _, id in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  if not over() then break end
  if id ~= ARGV[1] then freeHeld = freeHeld - drop(KEYS[4], id) end
end
if free then
  if over() then
    drop(KEYS[4], ARGV[1])
    return -1
  end
  return paid + freeHeld
end
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if paid + freeHeld <= bound then break end
  if id ~= ARGV[1] then paid = paid - drop(KEYS[2], id) end
end
return paid + freeHeld
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
      [this.resultKey(id), this.uses(false), this.redis.key('results', 'bytes'), this.uses(true)],
      [
        id,
        head,
        expires - now,
        now,
        this.mostBytes,
        this.resultKey(''),
        body,
        free ? '1' : '0',
        freeShare(this.mostBytes),
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
    return this.redis.key('results', free ? 'free-used' : 'used');
  }

  async close(): Promise<void> {}

  private resultKey(id: string): string {
    return this.redis.key('result', id);
  }
}
