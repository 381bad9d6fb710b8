/**
 * The cache on Redis, shared by every replica: an entry cached by one is a hit on the others.
 * Each entry is one string key (a hash of the cache key, so keys stay short whatever the
 * parameters) that Redis expires after the endpoint's refresh frequency; entries over the size
 * bound are not kept. A short claim key per cache key says which replica is fetching it, so that
 * the others wait for that entry rather than asking the service again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { jsonLongerThan } from './json-size.js';
import { type CacheEntry, type CacheStore, type FetchClaims, LARGEST_CACHED_BYTES } from './store.js';

/** KEYS: claim. ARGV: token. Drops the claim only if this process still holds it. */
const RELEASE_CLAIM = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

export class RedisCacheStore implements CacheStore {
  readonly claims: FetchClaims;
  /** This process, as its claims name it. */
  private readonly token = randomUUID();

  constructor(private readonly redis: RedisConnection) {
    this.claims = {
      claim: async (key, ttlMs) => {
        const set = await this.redis.use((redis) =>
          redis.set(this.claimKey(key), this.token, 'PX', ttlMs, 'NX'),
        );
        return set === 'OK';
      },
      peek: async (key) => {
        const [entry, holder] = await this.redis.use((redis) =>
          redis.mget(this.entryKey(key), this.claimKey(key)),
        );
        return { entry: parseEntry(entry ?? null), claimed: holder != null && holder !== this.token };
      },
      release: async (key) => {
        await this.redis.run(RELEASE_CLAIM, [this.claimKey(key)], [this.token]);
      },
    };
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return parseEntry(await this.redis.use((redis) => redis.get(this.entryKey(key))));
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    const { data, fetchedAt, credits, storedAs } = entry;
    if (storedAs === undefined && jsonLongerThan(data, LARGEST_CACHED_BYTES)) return;
    const text = JSON.stringify(
      storedAs === undefined ? { data, fetchedAt, credits } : { fetchedAt, credits, storedAs },
    );
    if (text.length > LARGEST_CACHED_BYTES) return;
    const ttl = Math.max(1, Math.round(ttlMs));
    await this.redis.use((redis) => redis.set(this.entryKey(key), text, 'PX', ttl));
  }

  async close(): Promise<void> {}

  private entryKey(key: string): string {
    return this.redis.key('cache', digest(key));
  }

  private claimKey(key: string): string {
    return this.redis.key('fetching', digest(key));
  }
}

function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A stored entry, or undefined for none (or one that is not an entry: a miss, never a fault). */
function parseEntry(text: string | null): CacheEntry | undefined {
  if (text === null) return undefined;
  try {
    const entry = JSON.parse(text) as Partial<CacheEntry>;
    if (typeof entry?.fetchedAt !== 'number' || typeof entry.credits !== 'number') return undefined;
    const { storedAs } = entry;
    if (storedAs !== undefined) {
      if (typeof storedAs?.id !== 'string' || typeof storedAs.owner !== 'string') return undefined;
      return { data: undefined, fetchedAt: entry.fetchedAt, credits: entry.credits, storedAs };
    }
    if (entry.data === undefined) return undefined;
    return entry as CacheEntry;
  } catch {
    return undefined;
  }
}
