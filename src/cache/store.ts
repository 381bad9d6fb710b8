/**
 * Where entries are kept for their endpoint's refresh frequency. The store holds normalised data
 * (what a tool entries with), so a hit costs neither credits nor normalising. In process it is an
 * LRU bounded by size; several replicas share one on Redis.
 */
import { LRUCache } from 'lru-cache';
import { jsonLongerThan } from './json-size.js';
import type { ServiceAnswer } from './result-format.js';

export interface CacheEntry {
  /** The tool's structured data. */
  data: unknown;
  /** When the service answered, milliseconds since the epoch. */
  fetchedAt: number;
  /** What the entry cost when it was fetched (what a hit saves). */
  credits: number;
  /** The service's answer it was normalised from, to keep as sent: never held by a cache store. */
  answer?: ServiceAnswer;
  /**
   * An answer too large for the store: the kept result that holds it (the result store), and
   * whose it is. Such an entry holds no data; a hit reads it from there (cache/shared.ts).
   */
  storedAs?: StoredAs;
}

/** Where a large answer's data is kept: its result's id, and the owner it is kept for. */
export interface StoredAs {
  id: string;
  owner: string;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  /** Keep `entry` for `ttlMs`; an entry too large to keep is not kept. */
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  /** A store shared by several processes says which one is fetching a key, so the others wait for its entry. */
  claims?: FetchClaims;
  close(): Promise<void>;
}

/** Who is fetching a key, across processes: a claim that expires by itself if its holder dies. */
export interface FetchClaims {
  /** Claim the fetch of `key` for at most `ttlMs`; false when another process holds the claim. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** The stored entry once there is one, and whether another process still holds the claim. */
  peek(key: string): Promise<{ entry?: CacheEntry; claimed: boolean }>;
  /** Drop this process's claim (after storing the entry, or on failure). */
  release(key: string): Promise<void>;
}

/** The in-process store's bound: entries are counted by their JSON size. */
export const MEMORY_CACHE_BYTES = 16 * 1024 * 1024;
/** One entry larger than this is never kept: it would push out hundreds of others. */
export const LARGEST_CACHED_BYTES = 2 * 1024 * 1024;

interface Entry {
  entry: CacheEntry;
  bytes: number;
}

export class MemoryCacheStore implements CacheStore {
  private readonly lru = new LRUCache<string, Entry>({
    maxSize: MEMORY_CACHE_BYTES,
    sizeCalculation: (entry, key) => entry.bytes + key.length,
    ttlAutopurge: false,
  });

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.lru.get(key)?.entry;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    const { data, fetchedAt, credits, storedAs } = entry;
    if (storedAs !== undefined) {
      this.lru.set(
        key,
        { entry: { data: undefined, fetchedAt, credits, storedAs }, bytes: 100 },
        { ttl: ttlMs },
      );
      return;
    }
    // A large answer is refused before it is written out whole only to be measured.
    if (jsonLongerThan(data, LARGEST_CACHED_BYTES)) return;
    const bytes = JSON.stringify(data)?.length ?? 0;
    if (bytes > LARGEST_CACHED_BYTES) return;
    this.lru.set(key, { entry: { data, fetchedAt, credits }, bytes }, { ttl: ttlMs });
  }

  async close(): Promise<void> {
    this.lru.clear();
  }
}
