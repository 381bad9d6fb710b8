/**
 * The cache on Redis, shared by every replica: an answer cached by one is a hit on the others.
 * Each answer is one string key (a hash of the cache key, so keys stay short whatever the
 * parameters) that Redis expires after the endpoint's refresh frequency; answers over the size
 * bound are not kept. A short claim key per cache key says which replica is fetching it, so that
 * the others wait for that answer rather than asking the service again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { type CachedAnswer, type CacheStore, type FetchClaims, LARGEST_CACHED_BYTES } from './store.js';

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
        const [answer, holder] = await this.redis.use((redis) =>
          redis.mget(this.answerKey(key), this.claimKey(key)),
        );
        return { answer: parseAnswer(answer), claimed: holder !== null && holder !== this.token };
      },
      release: async (key) => {
        await this.redis.run(RELEASE_CLAIM, [this.claimKey(key)], [this.token]);
      },
    };
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    return parseAnswer(await this.redis.use((redis) => redis.get(this.answerKey(key))));
  }

  async set(key: string, answer: CachedAnswer, ttlMs: number): Promise<void> {
    const text = JSON.stringify(answer);
    if (text.length > LARGEST_CACHED_BYTES) return;
    const ttl = Math.max(1, Math.round(ttlMs));
    await this.redis.use((redis) => redis.set(this.answerKey(key), text, 'PX', ttl));
  }

  async close(): Promise<void> {}

  private answerKey(key: string): string {
    return this.redis.key('cache', digest(key));
  }

  private claimKey(key: string): string {
    return this.redis.key('fetching', digest(key));
  }
}

function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A stored answer, or undefined for none (or one that is not an answer: a miss, never a fault). */
function parseAnswer(text: string | null): CachedAnswer | undefined {
  if (text === null) return undefined;
  try {
    const answer = JSON.parse(text) as Partial<CachedAnswer>;
    if (typeof answer?.fetchedAt !== 'number' || typeof answer.credits !== 'number') return undefined;
    if (answer.data === undefined) return undefined;
    return answer as CachedAnswer;
  } catch {
    return undefined;
  }
}
