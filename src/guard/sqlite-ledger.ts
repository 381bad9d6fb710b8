/**
 * The ledger in an SQLite database (SVC_STATE_DIR/ledger.sqlite), shared safely by every server
 * process on the machine. Each change is one SQLite transaction: a reservation is checked against
 * the budget and recorded under the database's write lock (BEGIN IMMEDIATE), so two processes never
 * both admit past it; a process waits for another's lock (sqlite-layout.ts). The database is in
 * WAL mode with synchronous=NORMAL: a committed change is in the write-ahead log before the call
 * goes on, so a process killed at any moment loses nothing it charged (a power cut may lose the
 * last changes before the log reached the disk). Cost does not grow with what the ledger holds:
 * each change touches a few rows by key, or reads the reservations, which are only calls in flight.
 *
 * Reservations name their process (pid and a per-process id). A reservation whose process has
 * ended, or that outlived any call, is counted as spent at its full amount if its request was sent,
 * and dropped if not. A damaged database is reported by path, never silently reset. An earlier
 * version's ledger.json is imported once, with its totals, then moved aside.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { makeStateDir, privateDatabaseFile } from '../state-dir.js';
import {
  LedgerDamagedError,
  type LedgerState,
  type LedgerStore,
  RESERVATION_TTL_MS,
  type ReserveRequest,
  type ReserveResult,
  type ToolFigures,
  WINDOWS_KEPT,
  type WindowFigures,
} from './ledger.js';
import { readLegacyLedger, setAside } from './ledger-import.js';
import { OWNER, processEnded } from './owner.js';
import type { SqlDatabase, Sqlite, SqlRow } from './sqlite.js';
import { damage, type Held, inTransaction, openLedgerDatabase, type Queries } from './sqlite-layout.js';

/** Cache hits are statistics, not money: they wait this long to share a transaction with others. */
const HIT_DELAY_MS = 250;

/** What a change adds to one tool's figures in one window. */
interface Addition {
  account: string;
  window: string;
  /** Undefined: the window's totals only. */
  tool?: string;
  calls?: number;
  credits?: number;
  hits?: number;
  saved?: number;
}

export class SqliteLedger implements LedgerStore {
  readonly location: string;
  private readonly legacyPath: string;
  private db: SqlDatabase | undefined;
  private queries: Queries | undefined;
  private hitTimer: NodeJS.Timeout | undefined;
  /** Cache hits not yet written, summed per account, window and tool (one entry, not one change, per hit). */
  private hits = new Map<string, Addition & { tool: string; hits: number; saved: number }>();

  constructor(
    private readonly dir: string,
    private readonly sqlite: Sqlite,
    private readonly now: () => number = Date.now,
  ) {
    this.location = join(dir, 'ledger.sqlite');
    this.legacyPath = join(dir, 'ledger.json');
  }

  async reserve(request: ReserveRequest): Promise<ReserveResult> {
    const { account, window, amount, budget } = request;
    // Without a budget nothing is checked: the reservation alone, one statement, no transaction.
    if (budget === undefined) return this.statement((q) => ({ ok: true, id: this.hold(q, request) }));
    return this.transaction((q) => {
      const reserved = this.reap(q, q.heldIn.all(account, window));
      const spent = (q.totals.get(account, window)?.spent as number | undefined) ?? 0;
      if (spent + reserved + amount > budget) return { ok: false, spent, reserved };
      return { ok: true, id: this.hold(q, request) };
    });
  }

  /** Records the reservation; returns its id. */
  private hold(q: Queries, { account, window, tool, amount, sent }: ReserveRequest): string {
    const id = randomUUID();
    q.hold.run(id, account, window, tool, amount, process.pid, OWNER, this.now(), sent ? 1 : 0);
    return id;
  }

  async markSent(id: string): Promise<boolean> {
    return this.statement((q) => Number(q.markSent.run(id).changes) === 1);
  }

  async markUnsent(id: string): Promise<void> {
    this.statement((q) => q.markUnsent.run(id));
  }

  async settle(id: string, charged: number): Promise<void> {
    this.transaction((q) => {
      const held = q.take.get(id) as Pick<Held, 'account' | 'window_id' | 'tool'> | undefined;
      if (held)
        this.add(q, {
          account: held.account,
          window: held.window_id,
          tool: held.tool,
          calls: 1,
          credits: charged,
        });
    });
  }

  async release(id: string): Promise<void> {
    this.statement((q) => q.take.get(id));
  }

  async recordHit(account: string, window: string, tool: string, saved: number): Promise<void> {
    this.pend(account, window, tool, { hits: 1, saved, calls: 0 });
  }

  async recordFree(account: string, window: string, tool: string): Promise<void> {
    this.pend(account, window, tool, { hits: 0, saved: 0, calls: 1 });
  }

  /** Free calls are statistics: summed per account, window and tool, written at most every HIT_DELAY_MS. */
  private pend(
    account: string,
    window: string,
    tool: string,
    add: { hits: number; saved: number; calls: number },
  ) {
    const key = JSON.stringify([account, window, tool]);
    const pending = this.hits.get(key);
    if (pending) {
      pending.hits += add.hits;
      pending.saved += add.saved;
      pending.calls = (pending.calls ?? 0) + add.calls;
      return;
    }
    this.hits.set(key, { account, window, tool, ...add });
    this.hitTimer ??= setTimeout(() => this.flushHits(), HIT_DELAY_MS).unref();
  }

  /** Reaps too, so that reservations of ended processes show as spent (or gone). */
  async figures(account: string, window: string): Promise<WindowFigures> {
    this.flushHits();
    return this.transaction((q) => {
      const reserved = this.reap(q, q.heldIn.all(account, window));
      const totals = q.totals.get(account, window) as
        | { spent: number; cache_hits: number; credits_saved: number }
        | undefined;
      const by_tool: Record<string, ToolFigures> = {};
      for (const t of q.toolsIn.all(account, window) as unknown as (ToolFigures & { tool: string })[])
        by_tool[t.tool] = { calls: t.calls, credits: t.credits, cache_hits: t.cache_hits };
      return {
        spent: totals?.spent ?? 0,
        reserved,
        by_tool,
        cache_hits: totals?.cache_hits ?? 0,
        credits_saved: totals?.credits_saved ?? 0,
      };
    });
  }

  async accounts(window: string): Promise<string[]> {
    this.flushHits();
    return this.transaction((q) => {
      this.reapEverywhere(q);
      return (q.accountsIn.all(window, window) as unknown as { account: string }[]).map((r) => r.account);
    });
  }

  /** A write transaction: the database can be opened and locked for writing. It reaps every window. */
  async check(): Promise<void> {
    this.transaction((q) => this.reapEverywhere(q));
  }

  async close(): Promise<void> {
    this.flushHits();
    this.forget();
  }

  /** Closes the database; the next change opens it again. */
  private forget(): void {
    this.db?.close();
    this.db = undefined;
    this.queries = undefined;
  }

  /** Write the cache hits waiting; they are statistics, so a failure drops them rather than any call. */
  private flushHits(): void {
    clearTimeout(this.hitTimer);
    this.hitTimer = undefined;
    if (this.hits.size === 0) return;
    const hits = [...this.hits.values()];
    this.hits.clear();
    try {
      this.transaction((q) => {
        for (const h of hits) {
          // A free call of an account with no figures in the window is not counted (ledger.ts).
          const free = h.hits === 0 && h.saved === 0;
          if (!free || q.totals.get(h.account, h.window) !== undefined) this.add(q, h);
        }
      });
    } catch {
      // Reported by the next budgeted call or figures, which meet the same trouble.
    }
  }

  private transaction<T>(work: (q: Queries) => T): T {
    return this.statement((q, db) => inTransaction(db, () => work(q)));
  }

  /** `work` on the open database; a damaged database is closed and reported, and opened again next time. */
  private statement<T>(work: (q: Queries, db: SqlDatabase) => T): T {
    try {
      const db = this.open();
      return work(this.queries as Queries, db);
    } catch (error) {
      const reason = damage(error);
      if (reason === undefined) throw error;
      this.forget();
      throw new LedgerDamagedError(this.location, reason);
    }
  }

  private open(): SqlDatabase {
    if (this.db) return this.db;
    makeStateDir(this.dir);
    privateDatabaseFile(this.location);
    const { db, queries } = openLedgerDatabase(this.sqlite, this.location);
    [this.db, this.queries] = [db, queries];
    try {
      this.importLegacy();
      // Reservations left by processes that ended while no other looked at their windows.
      this.transaction((q) => this.reapEverywhere(q));
    } catch (error) {
      this.forget();
      throw error;
    }
    return db;
  }

  /** An earlier version's ledger.json, once: its totals, and its reservations that may have been sent as spent. */
  private importLegacy(): void {
    const legacy = readLegacyLedger(this.legacyPath);
    if (!legacy) return;
    this.transaction((q) => {
      if (q.imported.get(legacy.checksum)) return;
      q.recordImport.run(legacy.checksum, Date.now());
      for (const addition of legacyAdditions(legacy.state)) this.add(q, addition);
    });
    setAside(this.legacyPath, legacy.checksum);
  }

  /**
   * Settles the reservations among `held` whose process ended or that outlived any call: spent in
   * full if sent, dropped if not. Returns what the others hold.
   */
  private reap(q: Queries, held: SqlRow[]): number {
    let reserved = 0;
    const now = this.now();
    for (const r of held as unknown as Held[]) {
      if (now - r.at <= RESERVATION_TTL_MS && !processEnded(r.pid, r.owner)) {
        reserved += r.amount;
        continue;
      }
      q.take.get(r.id);
      if (r.sent)
        this.add(q, { account: r.account, window: r.window_id, tool: r.tool, calls: 1, credits: r.amount });
    }
    return reserved;
  }

  private reapEverywhere(q: Queries): void {
    this.reap(q, q.heldElsewhere.all(OWNER, this.now() - RESERVATION_TTL_MS));
  }

  private add(q: Queries, a: Addition): void {
    if (Number(q.newWindow.run(a.account, a.window).changes) > 0) this.dropOldWindows(q, a.account, a.window);
    q.add.run(a.credits ?? 0, a.hits ?? 0, a.saved ?? 0, a.account, a.window);
    if (a.tool !== undefined)
      q.addTool.run(a.account, a.window, a.tool, a.calls ?? 0, a.credits ?? 0, a.hits ?? 0);
  }

  /** Bounded: an account keeps its WINDOWS_KEPT latest windows (ids sort by date within a kind; `total` stays). */
  private dropOldWindows(q: Queries, account: string, current: string): void {
    const ids = q.windowsOf.all(account).map((row) => row.window_id as string);
    const older = ids.filter((id) => id !== 'total' && id !== current);
    for (const id of older.slice(0, Math.max(0, ids.length - WINDOWS_KEPT))) {
      q.dropWindow.run(account, id);
      q.dropTools.run(account, id);
    }
  }
}

/** What an earlier version's file holds, as additions: its totals, and as spent every reservation not known to be unsent. */
function legacyAdditions(state: LedgerState): Addition[] {
  const additions: Addition[] = [];
  for (const [account, windows] of Object.entries(state.accounts)) {
    for (const [window, totals] of Object.entries(windows)) {
      const tools = Object.entries(totals.by_tool);
      // The window's totals are the sums of its tools' figures; whatever is not (none was) still counts.
      additions.push({
        account,
        window,
        credits: totals.spent - tools.reduce((sum, [, t]) => sum + t.credits, 0),
        hits: totals.cache_hits - tools.reduce((sum, [, t]) => sum + t.cache_hits, 0),
        saved: totals.credits_saved,
      });
      for (const [tool, t] of tools)
        additions.push({ account, window, tool, calls: t.calls, credits: t.credits, hits: t.cache_hits });
    }
  }
  for (const r of Object.values(state.reservations))
    if (r.sent !== false)
      additions.push({ account: r.account, window: r.window, tool: r.tool, calls: 1, credits: r.amount });
  return additions;
}
