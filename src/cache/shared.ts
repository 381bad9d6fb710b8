/**
 * Entries shared between calls: a fresh cached entry, or a join onto an identical call already in
 * flight, so that 100 identical concurrent calls make one upstream request. The shared request
 * runs until every caller waiting on it has cancelled; one caller cancelling leaves it running for
 * the others. A failed request is never cached.
 *
 * Across processes (a store on Redis), the process that claims a key fetches it and the others
 * poll the store until its entry is there; a claim that fails, expires or outlasts the wait
 * lets them fetch for themselves, so a lost replica costs at most a duplicate request.
 *
 * An entry is fresh for its endpoint's refresh frequency; the store keeps it `staleMs` longer
 * (SVC_STALE_MAX_SECONDS), within the same memory bound, to stand in when the service fails.
 */
import type { CacheEntry, CacheStore, FetchClaims, StoredAs } from './store.js';

/** How often a waiting process looks for the other's entry. */
const POLL_MS = 20;

export interface Fetched extends CacheEntry {
  /**
   * `upstream`: this call made the request; `cache`: a stored entry; `joined`: another call's
   * request; `stale`: a stored entry past its freshness, standing in for a service that failed.
   */
  via: 'upstream' | 'cache' | 'joined' | 'stale';
}

/**
 * Reads a large answer's entry (`storedAs`): its data from the result store, or undefined when it
 * is gone (then the call is a miss).
 */
export type Open = (entry: CacheEntry) => Promise<CacheEntry | undefined>;

interface Produced {
  entry: CacheEntry;
  via: Fetched['via'];
}

interface Flight {
  promise: Promise<Produced>;
  controller: AbortController;
  waiting: number;
}

export class SharedCache {
  private readonly flights = new Map<string, Flight>();

  constructor(
    private readonly store: CacheStore,
    /** SVC_CACHE: off means every call makes its own request. */
    private readonly enabled: boolean,
    /** How long another process may hold a claim, and how long this one waits on it (time-bounds.ts). */
    private readonly claimMs: number,
    /** How long past its freshness an entry is kept to stand in for a failing service (0: not at all). */
    private readonly staleMs = 0,
  ) {}

  /**
   * A stored entry past its freshness but within the stale bound: what stands in when the service
   * fails. A large answer's entry (`storedAs`) does not: its result may be gone by then.
   */
  async stale(key: string, ttlMs: number): Promise<CacheEntry | undefined> {
    if (!this.enabled || ttlMs <= 0 || this.staleMs <= 0) return undefined;
    const stored = await this.store.get(key).catch(() => undefined);
    if (stored?.storedAs !== undefined) return undefined;
    return stored && Date.now() - stored.fetchedAt < ttlMs + this.staleMs ? stored : undefined;
  }

  /** Whether a call for `key` would be answered from the store now (free), without fetching anything. */
  async cached(key: string, ttlMs: number): Promise<boolean> {
    if (!this.enabled || ttlMs <= 0) return false;
    return fresh(await this.store.get(key).catch(() => undefined), ttlMs);
  }

  /**
   * Notes that the answer for `key` (too large for the store) is kept as `storedAs` says: until its
   * endpoint's refresh, the same call is answered from there (`open`), as from the store.
   */
  async refer(key: string, entry: { fetchedAt: number; credits: number; storedAs: StoredAs }, ttlMs: number) {
    if (!this.enabled || ttlMs <= 0) return;
    const current = await this.store.get(key).catch(() => undefined);
    if (current !== undefined && current.fetchedAt >= entry.fetchedAt) return;
    await this.store.set(key, { ...entry, data: undefined }, ttlMs).catch(() => {});
  }

  /**
   * The entry for `key`: from the store while it is fresh, else from an identical call in flight,
   * else from `produce` (which receives the shared request's signal). `ttlMs` 0: live data, never shared.
   */
  async fetch(
    key: string,
    ttlMs: number,
    signal: AbortSignal | undefined,
    produce: (signal: AbortSignal) => Promise<CacheEntry>,
    open: Open = async () => undefined,
  ): Promise<Fetched> {
    if (!this.enabled || ttlMs <= 0) {
      return { ...(await produce(signal ?? new AbortController().signal)), via: 'upstream' };
    }
    const stored = await usable(await this.store.get(key).catch(() => undefined), ttlMs, open);
    if (stored) return { ...stored, via: 'cache' };
    let flight = this.flights.get(key);
    const joined = flight !== undefined;
    if (!flight) {
      const controller = new AbortController();
      const promise = this.produceOnce(key, ttlMs, controller.signal, produce, open);
      flight = { promise, controller, waiting: 0 };
      const started = flight;
      this.flights.set(key, started);
      promise.then(
        () => this.flights.delete(key),
        () => this.flights.delete(key),
      );
    }
    const produced = await wait(flight, signal);
    return { ...produced.entry, via: joined ? 'joined' : produced.via };
  }

  /** Fetch and store, unless another process is fetching the same key: then its entry. */
  private async produceOnce(
    key: string,
    ttlMs: number,
    signal: AbortSignal,
    produce: (signal: AbortSignal) => Promise<CacheEntry>,
    open: Open,
  ): Promise<Produced> {
    const claims = this.store.claims;
    // Without the shared store (Redis down), each process fetches for itself.
    const claimed = claims ? await claims.claim(key, this.claimMs).catch(() => undefined) : undefined;
    if (claims && claimed === false) {
      const entry = await entryOfOther(claims, key, this.claimMs, ttlMs, signal, open);
      if (entry) return { entry, via: 'joined' };
    } else if (claimed) {
      // The previous holder may have stored its entry just before letting go.
      const stored = await usable(await this.store.get(key).catch(() => undefined), ttlMs, open);
      if (stored) {
        await claims?.release(key).catch(() => {});
        return { entry: stored, via: 'cache' };
      }
    }
    try {
      const entry = await produce(signal);
      await this.store.set(key, entry, ttlMs + this.staleMs).catch(() => {});
      return { entry, via: 'upstream' };
    } finally {
      if (claimed) await claims?.release(key).catch(() => {});
    }
  }
}

/** The entry another process is fetching, or undefined once it gives up its claim without one. */
async function entryOfOther(
  claims: FetchClaims,
  key: string,
  claimMs: number,
  ttlMs: number,
  signal: AbortSignal,
  open: Open,
): Promise<CacheEntry | undefined> {
  const deadline = performance.now() + claimMs;
  while (performance.now() < deadline) {
    await sleep(POLL_MS, signal);
    const seen = await claims.peek(key).catch(() => undefined);
    const entry = await usable(seen?.entry, ttlMs, open);
    if (entry) return entry;
    if (!seen?.claimed) return undefined;
  }
  return undefined;
}

/** Whether a stored entry is still within its endpoint's refresh frequency. */
function fresh(entry: CacheEntry | undefined, ttlMs: number): entry is CacheEntry {
  return entry !== undefined && Date.now() - entry.fetchedAt < ttlMs;
}

/** A fresh entry as a call reads it: a large answer's from where it is kept, while it is. */
async function usable(entry: CacheEntry | undefined, ttlMs: number, open: Open) {
  if (!fresh(entry, ttlMs)) return undefined;
  return entry.storedAs === undefined ? entry : open(entry);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** The flight's entry, or a rejection as soon as this caller cancels (the last one out aborts the request). */
function wait(flight: Flight, signal: AbortSignal | undefined): Promise<Produced> {
  flight.waiting++;
  if (!signal) return flight.promise;
  return new Promise((resolve, reject) => {
    const leave = () => {
      flight.waiting--;
      if (flight.waiting === 0) flight.controller.abort(signal.reason);
      reject(signal.reason ?? new Error('cancelled'));
    };
    if (signal.aborted) return leave();
    signal.addEventListener('abort', leave, { once: true });
    flight.promise.then(
      (entry) => {
        signal.removeEventListener('abort', leave);
        resolve(entry);
      },
      (error) => {
        signal.removeEventListener('abort', leave);
        reject(error);
      },
    );
  });
}
