/**
 * Where answers are kept for their endpoint's refresh frequency. The store holds normalised data
 * (what a tool answers with), so a hit costs neither credits nor normalising. In process it is an
 * LRU bounded by size; several replicas share one on Redis.
 */
import { LRUCache } from 'lru-cache';

export interface CachedAnswer {
  /** The tool's structured data. */
  data: unknown;
  /** When the service answered, milliseconds since the epoch. */
  fetchedAt: number;
  /** What the answer cost when it was fetched (what a hit saves). */
  credits: number;
}

export interface CacheStore {
  get(key: string): Promise<CachedAnswer | undefined>;
  /** Keep `answer` for `ttlMs`; an answer too large to keep is not kept. */
  set(key: string, answer: CachedAnswer, ttlMs: number): Promise<void>;
  /** A store shared by several processes says which one is fetching a key, so the others wait for its answer. */
  claims?: FetchClaims;
  close(): Promise<void>;
}

/** Who is fetching a key, across processes: a claim that expires by itself if its holder dies. */
export interface FetchClaims {
  /** Claim the fetch of `key` for at most `ttlMs`; false when another process holds the claim. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** The stored answer once there is one, and whether another process still holds the claim. */
  peek(key: string): Promise<{ answer?: CachedAnswer; claimed: boolean }>;
  /** Drop this process's claim (after storing the answer, or on failure). */
  release(key: string): Promise<void>;
}

/** The in-process store's bound: answers are counted by their JSON size. */
export const MEMORY_CACHE_BYTES = 16 * 1024 * 1024;
/** One answer larger than this is never kept: it would push out hundreds of others. */
export const LARGEST_CACHED_BYTES = 2 * 1024 * 1024;

interface Entry {
  answer: CachedAnswer;
  bytes: number;
}

export class MemoryCacheStore implements CacheStore {
  private readonly lru = new LRUCache<string, Entry>({
    maxSize: MEMORY_CACHE_BYTES,
    sizeCalculation: (entry, key) => entry.bytes + key.length,
    ttlAutopurge: false,
  });

  async get(key: string): Promise<CachedAnswer | undefined> {
    return this.lru.get(key)?.answer;
  }

  async set(key: string, answer: CachedAnswer, ttlMs: number): Promise<void> {
    const bytes = JSON.stringify(answer.data)?.length ?? 0;
    if (bytes > LARGEST_CACHED_BYTES) return;
    this.lru.set(key, { answer, bytes }, { ttl: ttlMs });
  }

  async close(): Promise<void> {
    this.lru.clear();
  }
}
