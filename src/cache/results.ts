/**
 * The result store: the whole of a call's data, kept so that `next` serves its following pages
 * free, from any process: on one machine in files under the state directory (a one-shot
 * `svc-mcp call` and a host's server share them; file-results.ts), across replicas on Redis
 * (redis-results.ts). Bounded: RESULT_MOST_BYTES a result (a larger one is not kept),
 * SVC_RESULTS_MAX_MB in all, the least recently used out first (on one machine, within
 * SCAN_EVERY_MS of another process's writes), free results before paid ones and within freeShare;
 * each is served for its keep time (at least KEEP_MIN_MS) and no longer. A result is only ever
 * served to the account that paid for it. What this process put is also kept parsed in memory
 * (RecentResults), so that its following pages are not read and parsed whole again each.
 */
import { LRUCache } from 'lru-cache';
import { cpuTurns } from '../cpu-turns.js';
import {
  type Decoded,
  type KeptBody,
  keptBodyOf,
  keptBodyOfResult,
  type Revive,
  resultOf,
  type StoredResult,
} from './result-format.js';

/** The largest result kept (the largest answer the client reads, upstream/request.ts). */
export const RESULT_MOST_BYTES = 32 * 1024 * 1024;

/** A result's body too large to keep: its first line aside, so that any answer the client reads is kept. */
export function tooLargeToKeep(body: Buffer): boolean {
  return body.length > RESULT_MOST_BYTES;
}

/** What all results together may hold: SVC_RESULTS_MAX_MB's default. */
export const RESULTS_MOST_BYTES = 256 * 1024 * 1024;

/**
 * What free results (StoredResult.free) may hold together: a quarter of the store, at least one
 * result of RESULT_MOST_BYTES at the least SVC_RESULTS_MAX_MB takes. Anyone, even a key made up
 * for it, can make them for nothing: they go first, and never push out a result that was paid for.
 */
export function freeShare(mostBytes: number): number {
  return Math.floor(mostBytes / 4);
}

/** The least time a result is kept, whatever its endpoint's refresh. */
export const KEEP_MIN_MS = 10 * 60 * 1000;
/**
 * The JSON size of the results one process holds parsed in memory besides the store: their objects
 * take two to three times as much. Every answer with rows is kept, so this is held after any burst.
 */
export const RESULTS_IN_MEMORY_BYTES = 4 * 1024 * 1024;
/**
 * The largest result held parsed in memory: a larger one (its objects take several times its JSON)
 * is read from the store for each of its later pages, so that one heavy answer does not hold a
 * hundred megabytes for its keep time.
 */
export const RESULT_IN_MEMORY_MOST_BYTES = 2 * 1024 * 1024;
/**
 * How long the last result read from the store stays in memory after its last use: about the time a
 * model takes to read a page and ask for the next.
 */
export const LAST_READ_HOLD_MS = 30_000;
/** How long a file store goes at most, while it writes, without reading what the directory holds. */
export const SCAN_EVERY_MS = 10_000;

export interface ResultStore {
  /**
   * Keeps `result` under `id` (keptId: the same answer, the same id) until `expires` (milliseconds
   * since the epoch; keepUntil gives it): false when it is too large to keep.
   */
  put(id: string, result: StoredResult, expires: number): Promise<boolean>;
  /** The result kept under `id` for `owner`, unless it is gone (or was never the owner's). */
  get(id: string, owner: string): Promise<StoredResult | undefined>;
  /** Its body, for the query engine to read its rows from (result-format.ts). */
  body(id: string, owner: string): Promise<KeptBody | undefined>;
  close(): Promise<void>;
}

export const RESULT_ID = /^[A-Za-z0-9_-]{16}$/;

/** When a result kept now for `keepMs` (its endpoint's refresh) expires: at least KEEP_MIN_MS on. */
export function keepUntil(keepMs: number, now = Date.now()): number {
  return now + Math.max(keepMs, KEEP_MIN_MS);
}

/**
 * The results this process put lately, parsed: within RESULTS_IN_MEMORY_BYTES of their JSON, none
 * over RESULT_IN_MEMORY_MOST_BYTES, the least recently used out first, each until it expires in the
 * store. A kept result never changes,
 * so the copy here is the store's; a store's get asks here first.
 */
export class RecentResults {
  private readonly kept = new LRUCache<string, { result: StoredResult; expires: number; bytes: number }>({
    maxSize: RESULTS_IN_MEMORY_BYTES,
    sizeCalculation: (entry) => entry.bytes,
  });

  constructor(private readonly now: () => number = () => Date.now()) {}

  remember(id: string, result: StoredResult, bytes: number, expires: number): void {
    if (bytes > RESULT_IN_MEMORY_MOST_BYTES) return;
    const { answer: _, ...parsed } = result;
    this.kept.set(id, { result: parsed, expires, bytes });
  }

  /** The result kept here under `id` for `account`, unless it has expired (or is not here). */
  recall(id: string, owner: string): StoredResult | undefined {
    const entry = this.kept.get(id);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.kept.delete(id);
      return undefined;
    }
    return entry.result.owner === owner ? entry.result : undefined;
  }
}

/**
 * The last result read from the store, held LAST_READ_HOLD_MS after each use, one at most: pages
 * asked one after another read it (and normalise it again, when it was kept as the service sent it)
 * once, rather than once a page.
 */
class LastRead {
  private held: { id: string; result: StoredResult; expires: number } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly now: () => number) {}

  hold(id: string, result: StoredResult, expires: number): void {
    this.held = { id, result, expires };
    this.touch();
  }

  /** The result held under `id` for `owner`, unless it has expired (or is not held). */
  recall(id: string, owner: string): StoredResult | undefined {
    const held = this.held;
    if (held?.id !== id || held.result.owner !== owner) return undefined;
    if (held.expires <= this.now()) {
      this.held = undefined;
      return undefined;
    }
    this.touch();
    return held.result;
  }

  private touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.held = undefined;
    }, LAST_READ_HOLD_MS);
    this.timer.unref();
  }
}

/**
 * What both result stores do alike: a result this process put is served from memory
 * (RecentResults) for its keep time; any other is read where the store keeps it, its owner checked
 * on its first line before anything of it is handed on, and then held a moment (LastRead).
 */
export abstract class BaseResultStore implements ResultStore {
  protected readonly recent: RecentResults;
  private readonly lastRead: LastRead;

  constructor(
    protected readonly revive: Revive,
    now: () => number = () => Date.now(),
  ) {
    this.recent = new RecentResults(now);
    this.lastRead = new LastRead(now);
  }

  abstract put(id: string, result: StoredResult, expires: number): Promise<boolean>;
  abstract close(): Promise<void>;
  /** The stored result under `id`, when it is there, live and `owner`'s (its use then noted). */
  protected abstract read(id: string, owner: string): Promise<Decoded | undefined>;
  /** Notes a result's last use: the least recently used go first. */
  protected abstract used(id: string, free: boolean): Promise<void>;

  /** Reads under way, by id and owner: calls that ask for one result at once read and parse it once. */
  private readonly reading = new Map<string, Promise<StoredResult | undefined>>();

  async get(id: string, owner: string): Promise<StoredResult | undefined> {
    if (!RESULT_ID.test(id)) return undefined;
    const recent = this.recent.recall(id, owner) ?? this.lastRead.recall(id, owner);
    if (recent !== undefined) {
      await this.used(id, recent.free === true);
      return recent;
    }
    const key = `${id} ${owner}`;
    let reading = this.reading.get(key);
    if (reading === undefined) {
      reading = this.readResult(id, owner).finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
    }
    return reading;
  }

  private async readResult(id: string, owner: string): Promise<StoredResult | undefined> {
    const kept = await this.read(id, owner);
    if (kept === undefined) return undefined;
    // Normalising a large answer again is heavy work: it waits for its turn, as a fetched one does.
    const result = await cpuTurns.run(kept.body.length, () => resultOf(kept, this.revive));
    this.lastRead.hold(id, result, kept.header.expires);
    return result;
  }

  async body(id: string, owner: string): Promise<KeptBody | undefined> {
    if (!RESULT_ID.test(id)) return undefined;
    const recent = this.recent.recall(id, owner);
    if (recent !== undefined) return keptBodyOfResult(recent);
    const kept = await this.read(id, owner);
    return kept && keptBodyOf(kept);
  }
}
