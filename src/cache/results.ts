/**
 * The result store: the whole of a call's data, kept so that `next` serves its following pages
 * free, from any process: on one machine in files under the state directory (a one-shot
 * `svc-mcp call` and a host's server share them), across replicas on Redis (redis-results.ts).
 * Bounded: RESULT_MOST_BYTES a result (a larger one is not kept), SVC_RESULTS_MAX_MB in all, the
 * least recently used out first (on one machine, within SCAN_EVERY_MS of another process's
 * writes), free results before paid ones (leaving); each is served for its keep time (at least
 * KEEP_MIN_MS) and no longer. A result is only
 * ever served to the account that paid for it. What this process put is also kept parsed in memory
 * (RecentResults), so that its following pages are not read and parsed whole again each.
 */
import { readdirSync, statSync } from 'node:fs';
import { readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { cpuTurns } from '../cpu-turns.js';
import { makeStateDir } from '../state-dir.js';
import {
  type Decoded,
  decodeResult,
  encodeResult,
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

/** A kept result as a store's bound sees it. */
export interface Held {
  name: string;
  bytes: number;
  /** Its last use, in milliseconds. */
  used: number;
  free: boolean;
}

/**
 * The results that go for the rest to be within `mostBytes` once `keep` (just put) is in: any
 * unused for a day; free ones, least recently used first, until they fit their share and all fit
 * the bound; then, unless `keep` is free, paid ones alike. A free `keep` that still does not fit
 * goes itself: it is not kept.
 */
export function leaving(
  files: readonly Held[],
  keep: string,
  mostBytes: number,
  dayAgo: number,
): Set<string> {
  const gone = new Set<string>();
  let total = 0;
  let free = 0;
  for (const file of files) {
    total += file.bytes;
    if (file.free) free += file.bytes;
  }
  const drop = (file: Held) => {
    gone.add(file.name);
    total -= file.bytes;
    if (file.free) free -= file.bytes;
  };
  const over = () => total > mostBytes || free > freeShare(mostBytes);
  const others = files.filter((f) => f.name !== keep).sort((a, b) => a.used - b.used);
  for (const file of others) if (file.used <= dayAgo || (file.free && over())) drop(file);
  const kept = files.find((f) => f.name === keep);
  if (kept?.free) {
    if (over()) drop(kept);
    return gone;
  }
  for (const file of others) if (!file.free && !gone.has(file.name) && total > mostBytes) drop(file);
  return gone;
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

/**
 * The result store of one machine: a file a result under `<stateDir>/results`, `<id>.result`, or
 * `<id>.free.result` for a free one. The directory is read (each file's size and last use) only
 * when what it holds may have passed its bounds: this process counts what it writes on top of the
 * last reading, and reads again at the latest SCAN_EVERY_MS after it, for what other processes
 * wrote meanwhile. A burst of calls then does not stat every kept result at each put, on the
 * server's thread.
 */
export class FileResultStore extends BaseResultStore {
  private readonly dir: string;
  /** The directory's bytes at the last reading, plus what this process wrote since; and of free results. */
  private held = { all: 0, free: 0 };
  /** When the directory was last read; 0 before the first put. */
  private scannedAt = 0;

  constructor(
    stateDir: string,
    revive: Revive,
    private readonly bounds = { mostBytes: RESULTS_MOST_BYTES, scanEveryMs: SCAN_EVERY_MS },
    private readonly now: () => number = () => Date.now(),
  ) {
    super(revive, now);
    this.dir = join(stateDir, 'results');
  }

  async put(id: string, result: StoredResult, expires: number): Promise<boolean> {
    const { head, body, bytes } = encodeResult(result, expires);
    if (tooLargeToKeep(body)) return false;
    makeStateDir(this.dir);
    const free = result.free === true;
    const temp = join(this.dir, `${id}.${process.pid}.tmp`);
    try {
      await writeFile(temp, [head, body], { mode: 0o600 });
      await rename(temp, this.path(id, free));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.held.all += bytes;
    if (free) this.held.free += bytes;
    const { mostBytes, scanEveryMs } = this.bounds;
    const now = this.now();
    const over = this.held.all > mostBytes || this.held.free > freeShare(mostBytes);
    if (over || now - this.scannedAt >= scanEveryMs) {
      this.scannedAt = now;
      if (!(await this.sweep(id, free).catch(() => true))) return false;
    }
    this.recent.remember(id, result, bytes, expires);
    return true;
  }

  /** The file of the result kept under `id` for `owner`, unless it expired (then removed) or is another's. */
  protected async read(id: string, owner: string): Promise<Decoded | undefined> {
    let free = false;
    let stored = await readFile(this.path(id, free)).catch(() => undefined);
    if (stored === undefined) {
      free = true;
      stored = await readFile(this.path(id, free)).catch(() => Buffer.alloc(0));
    }
    const kept = decodeResult(stored);
    if (kept === undefined) return undefined;
    if (kept.header.expires <= this.now()) {
      await rm(this.path(id, free), { force: true });
      return undefined;
    }
    if (kept.header.owner !== owner) return undefined;
    await this.used(id, free);
    return kept;
  }

  /** Its last use, which the sweep reads. */
  protected async used(id: string, free: boolean): Promise<void> {
    const now = new Date();
    await utimes(this.path(id, free), now, now).catch(() => {});
  }

  async close(): Promise<void> {}

  private path(id: string, free: boolean): string {
    return join(this.dir, free ? `${id}.free.result` : `${id}.result`);
  }

  /**
   * Within the bounds (leaving; never `keep`, just written, unless it is free and does not fit):
   * false when `keep` went.
   */
  private async sweep(keep: string, free: boolean): Promise<boolean> {
    const files = readdirSync(this.dir)
      // `.json`: an earlier version's results, which this one cannot read: they go like the rest.
      .filter((name) => /\.(result|json|tmp)$/.test(name))
      .flatMap((name) => {
        try {
          const stat = statSync(join(this.dir, name));
          return [{ name, bytes: stat.size, used: stat.mtimeMs, free: name.endsWith('.free.result') }];
        } catch {
          return []; // removed meanwhile by another process
        }
      });
    const keptAs = free ? `${keep}.free.result` : `${keep}.result`;
    const gone = leaving(files, keptAs, this.bounds.mostBytes, Date.now() - 24 * 60 * 60 * 1000);
    this.held = { all: 0, free: 0 };
    for (const file of files) {
      if (gone.has(file.name)) await rm(join(this.dir, file.name), { force: true });
      else {
        this.held.all += file.bytes;
        if (file.free) this.held.free += file.bytes;
      }
    }
    return !gone.has(keptAs);
  }
}
