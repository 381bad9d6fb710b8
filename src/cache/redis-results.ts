/**
 * The result store on Redis, shared by every replica: a page asked for on one is served from the
 * result another kept. A result is one string key that Redis expires after its keep time; a sorted
 * set of last uses and a hash of sizes keep all of them within RESULTS_MOST_BYTES, the least
 * recently used out first, in one atomic step when a result is put.
 */
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { type Decoded, decodeResult, encodeResult, type Revive, type StoredResult } from './result-format.js';
import { BaseResultStore, RESULTS_MOST_BYTES, tooLargeToKeep } from './results.js';

/**
 * KEYS: the result, the last uses, the sizes. ARGV: id, the result's first line, keep ms, now ms,
 * the bound, the prefix of a result's key, the result's body. Keeps the result, forgets those Redis
 * expired, then drops the least recently used until all fit the bound.
 */
const PUT = script(`
redis.call('SET', KEYS[1], ARGV[2] .. ARGV[7], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], string.len(ARGV[2]) + string.len(ARGV[7]))
local total = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('EXISTS', ARGV[6] .. id) == 0 then
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
  else
    total = total + tonumber(redis.call('HGET', KEYS[3], id) or '0')
  end
end
local bound = tonumber(ARGV[5])
while total > bound do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if oldest == nil or oldest == ARGV[1] then break end
  total = total - tonumber(redis.call('HGET', KEYS[3], oldest) or '0')
  redis.call('DEL', ARGV[6] .. oldest)
  redis.call('ZREM', KEYS[2], oldest)
  redis.call('HDEL', KEYS[3], oldest)
end
return total
`);

export class RedisResultStore extends BaseResultStore {
  constructor(
    private readonly redis: RedisConnection,
    revive: Revive,
  ) {
    super(revive);
  }

  async put(id: string, result: StoredResult, expires: number): Promise<boolean> {
    const { head, body, bytes } = encodeResult(result, expires);
    if (tooLargeToKeep(body)) return false;
    const now = Date.now();
    if (expires <= now) return true;
    await this.redis.run(
      PUT,
      [this.resultKey(id), this.redis.key('results', 'used'), this.redis.key('results', 'bytes')],
      [id, head, expires - now, now, RESULTS_MOST_BYTES, this.resultKey(''), body],
    );
    this.recent.remember(id, result, bytes, expires);
    return true;
  }

  /** The result from Redis, when it is there and the owner's. */
  protected async read(id: string, owner: string): Promise<Decoded | undefined> {
    const stored = await this.redis.use((redis) => redis.getBuffer(this.resultKey(id)));
    const kept = stored === null ? undefined : decodeResult(stored);
    // The owner is checked on the record itself, before anything of it is handed on.
    if (kept === undefined || kept.header.owner !== owner) return undefined;
    await this.used(id);
    return kept;
  }

  protected async used(id: string): Promise<void> {
    await this.redis.use((redis) => redis.zadd(this.redis.key('results', 'used'), 'XX', Date.now(), id));
  }

  async close(): Promise<void> {}

  private resultKey(id: string): string {
    return this.redis.key('result', id);
  }
}
