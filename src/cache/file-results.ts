/**
 * The result store of one machine: a file a result under `<stateDir>/results`, `<id>.result`, or
 * `<id>.free.result` for a free one (StoredResult.free). What the directory holds is read (each
 * file's size and last use) at most every SCAN_EVERY_MS, off the server's thread, for what other
 * processes wrote meanwhile; between readings this process keeps that view up to date with its own
 * puts, reads and removals, so that a put's work is what it puts and drops, not how many results
 * are kept: at 20,000 kept results a put that read the directory took 13 ms of the server's thread.
 */
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeStateDir } from '../state-dir.js';
import { type Decoded, decodeResult, encodeResult, type Revive, type StoredResult } from './result-format.js';
import { BaseResultStore, freeShare, RESULTS_MOST_BYTES, SCAN_EVERY_MS, tooLargeToKeep } from './results.js';

/** A result's file as the store's bound sees it. */
interface Held {
  name: string;
  bytes: number;
  /** Its last use, in milliseconds. */
  used: number;
  free: boolean;
}

/** Files whose size and last use are read at once while the directory is read. */
const STATS_AT_ONCE = 64;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The result files in `dir` (an earlier version's `.json` ones too, which go like the rest). */
async function filesIn(dir: string): Promise<Held[]> {
  const names = (await readdir(dir)).filter((name) => /\.(result|json|tmp)$/.test(name));
  const found: Held[] = [];
  for (let at = 0; at < names.length; at += STATS_AT_ONCE) {
    const batch = names.slice(at, at + STATS_AT_ONCE).map(async (name) => {
      // Removed meanwhile by another process: not there.
      const file = await stat(join(dir, name)).catch(() => undefined);
      if (file) found.push({ name, bytes: file.size, used: file.mtimeMs, free: isFree(name) });
    });
    await Promise.all(batch);
  }
  return found;
}

/**
 * What a result directory holds, as this process knows it: paid and free files apart, each in the
 * order of their last use, the least recent first, with the bytes they hold.
 */
class Directory {
  private files = { paid: new Map<string, Held>(), free: new Map<string, Held>() };
  private bytes = { all: 0, free: 0 };
  /** What this process wrote (a file) and removed (a name) while the directory is read. */
  private meanwhile: Array<Held | string> | undefined;

  /**
   * Reads what the directory holds now, files of other processes included; what this process
   * wrote and removed meanwhile is applied to it after.
   */
  async read(dir: string): Promise<void> {
    const meanwhile: Array<Held | string> = [];
    this.meanwhile = meanwhile;
    try {
      const found = await filesIn(dir);
      this.meanwhile = undefined;
      this.files = { paid: new Map(), free: new Map() };
      this.bytes = { all: 0, free: 0 };
      for (const file of found.sort((a, b) => a.used - b.used)) this.add(file);
      for (const change of meanwhile) {
        if (typeof change === 'string') this.remove(change);
        else this.add(change);
      }
    } finally {
      this.meanwhile = undefined;
    }
  }

  /** A file written (or written again), its last use now. */
  add(file: Held): void {
    this.meanwhile?.push(file);
    this.forget(file.name);
    this.mapOf(file.free).set(file.name, file);
    this.bytes.all += file.bytes;
    if (file.free) this.bytes.free += file.bytes;
  }

  /** A file read: the most recently used now. */
  use(name: string, free: boolean, now: number): void {
    const map = this.mapOf(free);
    const file = map.get(name);
    if (file === undefined) return;
    map.delete(name);
    map.set(name, { ...file, used: now });
  }

  remove(name: string): void {
    this.meanwhile?.push(name);
    this.forget(name);
  }

  private forget(name: string): void {
    for (const map of [this.files.paid, this.files.free]) {
      const file = map.get(name);
      if (file === undefined) continue;
      map.delete(name);
      this.bytes.all -= file.bytes;
      if (file.free) this.bytes.free -= file.bytes;
    }
  }

  /**
   * The files that go for the rest to be within `mostBytes` with `keep` (just written, if any): any
   * unused for a day; free ones, least recently used first, until they fit their share and all fit
   * the bound; then, unless `keep` is free, paid ones alike. A free `keep` that still does not fit
   * goes itself: it is not kept.
   */
  leaving(mostBytes: number, dayAgo: number, keep?: Held): Held[] {
    const gone: Held[] = [];
    let { all, free } = this.bytes;
    const over = () => all > mostBytes || free > freeShare(mostBytes);
    const drop = (file: Held) => {
      gone.push(file);
      all -= file.bytes;
      if (file.free) free -= file.bytes;
    };
    for (const file of this.files.free.values()) {
      if (file.used > dayAgo && !over()) break;
      if (file.name !== keep?.name) drop(file);
    }
    if (keep?.free) return over() ? [...gone, keep] : gone;
    for (const file of this.files.paid.values()) {
      if (file.used > dayAgo && all <= mostBytes) break;
      if (file.name !== keep?.name) drop(file);
    }
    return gone;
  }

  private mapOf(free: boolean): Map<string, Held> {
    return free ? this.files.free : this.files.paid;
  }
}

function isFree(name: string): boolean {
  return name.endsWith('.free.result');
}

export class FileResultStore extends BaseResultStore {
  private readonly dir: string;
  private readonly directory = new Directory();
  /** When the directory was last read; 0 before the first put. */
  private readAt = 0;
  /** The directory's reading under way, if any. */
  private listing: Promise<void> | undefined;

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
    const kept: Held = { name: fileName(id, free), bytes, used: Date.now(), free };
    const temp = join(this.dir, `${id}.${process.pid}.tmp`);
    try {
      await writeFile(temp, [head, body], { mode: 0o600 });
      await rename(temp, join(this.dir, kept.name));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.directory.add(kept);
    await this.readIfDue();
    const gone = await this.withinBounds(kept).catch(() => []);
    if (gone.some((file) => file.name === kept.name)) return false;
    this.recent.remember(id, result, bytes, expires);
    return true;
  }

  /**
   * The directory read again once SCAN_EVERY_MS have passed, for what other processes wrote: the
   * first time before the put goes on (a process that starts on a full directory bounds it at
   * once); later beside the puts, off their path (20,000 files take about half a second), its
   * bounds applied once it is read.
   */
  private async readIfDue(): Promise<void> {
    const now = this.now();
    if (this.listing !== undefined || now - this.readAt < this.bounds.scanEveryMs) return;
    const first = this.readAt === 0;
    this.readAt = now;
    this.listing = this.directory
      .read(this.dir)
      .then(() => (first ? undefined : this.withinBounds()))
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.listing = undefined;
      });
    if (first) await this.listing;
  }

  /** Removes what must go for the directory to be within its bounds, with `kept` if one was just written: what went. */
  private async withinBounds(kept?: Held): Promise<Held[]> {
    const gone = this.directory.leaving(this.bounds.mostBytes, Date.now() - DAY_MS, kept);
    for (const file of gone) {
      await rm(join(this.dir, file.name), { force: true });
      this.directory.remove(file.name);
    }
    return gone;
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
      this.directory.remove(fileName(id, free));
      return undefined;
    }
    if (kept.header.owner !== owner) return undefined;
    await this.used(id, free);
    return kept;
  }

  /** Its last use, which the directory's reading and this process's view of it order by. */
  protected async used(id: string, free: boolean): Promise<void> {
    const now = new Date();
    await utimes(this.path(id, free), now, now).catch(() => {});
    this.directory.use(fileName(id, free), free, now.getTime());
  }

  async close(): Promise<void> {}

  private path(id: string, free: boolean): string {
    return join(this.dir, fileName(id, free));
  }
}

function fileName(id: string, free: boolean): string {
  return free ? `${id}.free.result` : `${id}.result`;
}
