/**
 * The ledger in a file (SVC_STATE_DIR/ledger.json), where no SQLite loads: Node 20 without
 * better-sqlite3 (the SQLite ledger, sqlite-ledger.ts, serves every other case). Shared safely by every server process on the
 * machine: each change is made under a lock file (proper-lockfile) by reading the file, applying
 * the ledger's rules and writing a new file that replaces the old one in one rename. A change is
 * reported done only once it is on disk, so a process killed at any moment loses nothing it
 * charged. Changes waiting at once share one lock and one write. The file carries a checksum:
 * a damaged or hand-edited ledger is reported, never silently reset.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { makeStateDir } from '../state-dir.js';
import {
  accountsIn,
  applyHit,
  applyMarkSent,
  applyRelease,
  applyReserve,
  applySettle,
  emptyState,
  LedgerDamagedError,
  type LedgerState,
  type LedgerStore,
  ledgerState,
  type ReserveRequest,
  type ReserveResult,
  readFigures,
  reapReservations,
  type WindowFigures,
} from './ledger.js';
import { OWNER, processEnded } from './owner.js';

const FORMAT = 'svc-mcp ledger 1';
/** A lock older than this belongs to a process that died holding it. */
const LOCK_STALE_MS = 10_000;
/** Cache hits are statistics, not money: they wait this long to share a write with others. */
const HIT_DELAY_MS = 250;

type Change = (state: LedgerState) => unknown;
interface Pending {
  change: Change;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class FileLedger implements LedgerStore {
  readonly location: string;
  private readonly lockPath: string;
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;
  private hitTimer: NodeJS.Timeout | undefined;
  /** Cache hits not yet written, summed per account, window and tool (one entry, not one change, per hit). */
  private hits = new Map<
    string,
    { account: string; window: string; tool: string; count: number; saved: number; calls: number }
  >();

  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.location = join(dir, 'ledger.json');
    this.lockPath = `${this.location}.lock`;
  }

  reserve(request: ReserveRequest): Promise<ReserveResult> {
    const held = { id: randomUUID(), pid: process.pid, owner: OWNER, at: this.now() };
    return this.change((state) => applyReserve(state, request, held)) as Promise<ReserveResult>;
  }

  async settle(id: string, charged: number): Promise<void> {
    await this.change((state) => applySettle(state, id, charged));
  }

  async markSent(id: string): Promise<boolean> {
    return (await this.change((state) => applyMarkSent(state, id))) as boolean;
  }

  async markUnsent(id: string): Promise<void> {
    await this.change((state) => applyMarkSent(state, id, false));
  }

  async release(id: string): Promise<void> {
    await this.change((state) => applyRelease(state, id));
  }

  async recordHit(account: string, window: string, tool: string, saved: number): Promise<void> {
    this.pend(account, window, tool, { count: 1, saved, calls: 0 });
  }

  async recordFree(account: string, window: string, tool: string): Promise<void> {
    this.pend(account, window, tool, { count: 0, saved: 0, calls: 1 });
  }

  /** Free calls are statistics: summed per account, window and tool, written at most every HIT_DELAY_MS. */
  private pend(
    account: string,
    window: string,
    tool: string,
    add: { count: number; saved: number; calls: number },
  ) {
    const key = JSON.stringify([account, window, tool]);
    const pending = this.hits.get(key);
    if (pending) {
      pending.count += add.count;
      pending.saved += add.saved;
      pending.calls += add.calls;
      return;
    }
    this.hits.set(key, { account, window, tool, ...add });
    this.hitTimer ??= setTimeout(() => {
      this.hitTimer = undefined;
      void this.drain();
    }, HIT_DELAY_MS).unref();
  }

  /** Read under the lock like a change, so that reservations of ended processes show as spent. */
  async figures(account: string, window: string): Promise<WindowFigures> {
    await this.flush();
    return this.change((state) => readFigures(state, account, window)) as Promise<WindowFigures>;
  }

  async accounts(window: string): Promise<string[]> {
    await this.flush();
    return this.change((state) => accountsIn(state, window)) as Promise<string[]>;
  }

  /** A write under the lock that changes nothing: the file can be locked, read and replaced. */
  async check(): Promise<void> {
    await this.change(() => undefined);
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Apply every waiting change now. */
  private async flush(): Promise<void> {
    while (this.queue.length > 0 || this.hits.size > 0 || this.draining)
      await (this.draining ?? this.drain());
  }

  private change(change: Change): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ change, resolve, reject });
      void this.drain();
    });
  }

  /** The cache hits waiting, as one change. */
  private takeHits(): Pending | undefined {
    if (this.hits.size === 0) return undefined;
    const hits = [...this.hits.values()];
    this.hits.clear();
    const change: Change = (state) => {
      for (const h of hits) applyHit(state, h.account, h.window, h.tool, h.saved, h.count, h.calls);
    };
    return { change, resolve: () => {}, reject: () => {} };
  }

  private drain(): Promise<void> {
    this.draining ??= this.drainAll().finally(() => {
      this.draining = undefined;
      // A change queued after the loop last looked found it finishing: start again rather than strand it.
      if (this.queue.length > 0 || this.hits.size > 0) void this.drain();
    });
    return this.draining;
  }

  private async drainAll(): Promise<void> {
    clearTimeout(this.hitTimer);
    this.hitTimer = undefined;
    while (this.queue.length > 0 || this.hits.size > 0) {
      const hits = this.takeHits();
      const batch = hits ? [...this.queue, hits] : this.queue;
      this.queue = [];
      try {
        const results = await this.locked(async () => {
          const state = await this.read();
          reapReservations(state, this.now(), (r) => processEnded(r.pid, r.owner));
          const out = batch.map((p) => p.change(state));
          await this.write(state);
          return out;
        });
        for (const [i, p] of batch.entries()) p.resolve(results[i]);
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  }

  private async locked<T>(work: () => Promise<T>): Promise<T> {
    makeStateDir(this.dir);
    const release = await lockfile.lock(this.location, {
      realpath: false,
      lockfilePath: this.lockPath,
      stale: LOCK_STALE_MS,
      retries: { retries: 200, minTimeout: 2, maxTimeout: 50, factor: 1.5 },
      // A lock taken over as stale means another process may write too: the next change reads again.
      onCompromised: () => {},
    });
    try {
      return await work();
    } finally {
      await release().catch(() => {});
    }
  }

  private async read(): Promise<LedgerState> {
    let text: string;
    try {
      text = await readFile(this.location, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new LedgerDamagedError(this.location, `it cannot be read: ${(error as Error).message}`);
      }
      // A newer Node keeps the ledger in SQLite (it imported this file): never start again from zero.
      const sqlite = join(this.dir, 'ledger.sqlite');
      if (existsSync(sqlite)) {
        throw new LedgerDamagedError(
          sqlite,
          'it is kept in SQLite, which this Node cannot open: run the server on Node 22.13 or later, or install better-sqlite3 beside it',
        );
      }
      return emptyState();
    }
    return parseLedgerFile(this.location, text).state;
  }

  private async write(state: LedgerState): Promise<void> {
    const text = `${JSON.stringify({ format: FORMAT, checksum: checksum(state), state })}\n`;
    const temp = `${this.location}.${process.pid}.tmp`;
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, this.location);
  }
}

/**
 * A ledger file's state and its checksum, checked: a file damaged or edited by hand throws, naming
 * what is wrong (the SQLite ledger reads an earlier version's file this way too, to import it).
 */
export function parseLedgerFile(location: string, text: string): { state: LedgerState; checksum: string } {
  let file: { format?: unknown; checksum?: unknown; state?: unknown };
  try {
    file = JSON.parse(text);
  } catch {
    throw new LedgerDamagedError(location, 'it is not valid JSON');
  }
  if (file?.format !== FORMAT) throw new LedgerDamagedError(location, `it is not a "${FORMAT}" file`);
  // The checksum covers the state as written, before any parsing reorders it.
  const sum = checksum(file.state);
  if (file.checksum !== sum) {
    throw new LedgerDamagedError(location, 'its checksum does not match its contents');
  }
  const parsed = ledgerState.safeParse(file.state);
  if (!parsed.success) throw new LedgerDamagedError(location, 'its contents do not have the ledger shape');
  return { state: parsed.data, checksum: sum };
}

function checksum(state: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(state)).digest('hex')}`;
}
