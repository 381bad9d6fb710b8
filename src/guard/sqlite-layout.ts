/**
 * The ledger's SQLite database: its layout (marked as ours and versioned), the queries the ledger
 * makes, how it is opened to be shared by processes, and how SQLite's errors are read.
 */
import { LedgerDamagedError } from './ledger.js';
import type { SqlDatabase, Sqlite, SqlStatement } from './sqlite.js';

/** Longest a change waits for another process's transaction before it fails. */
const BUSY_TIMEOUT_MS = 2_000;
/** How long opening waits before it tries WAL mode again (enableWal). */
const BUSY_RETRY_MS = 5;
/** Marks the database as this ledger's ('svc1'), and its layout's version. */
const APPLICATION_ID = 0x73766331;
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE windows (
  account TEXT NOT NULL, window_id TEXT NOT NULL,
  spent REAL NOT NULL DEFAULT 0, cache_hits INTEGER NOT NULL DEFAULT 0, credits_saved REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (account, window_id)) WITHOUT ROWID;
CREATE TABLE tools (
  account TEXT NOT NULL, window_id TEXT NOT NULL, tool TEXT NOT NULL,
  calls INTEGER NOT NULL, credits REAL NOT NULL, cache_hits INTEGER NOT NULL,
  PRIMARY KEY (account, window_id, tool)) WITHOUT ROWID;
CREATE TABLE reservations (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, window_id TEXT NOT NULL, tool TEXT NOT NULL,
  amount REAL NOT NULL, pid INTEGER NOT NULL, owner TEXT NOT NULL, at INTEGER NOT NULL,
  sent INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE TABLE imports (checksum TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
PRAGMA application_id = ${APPLICATION_ID};
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/**
 * Earlier ledgers indexed reservations by window. The table holds only calls in flight (a few rows
 * per process), so a window's are found by reading it all, and each reservation and settle writes
 * one page fewer without the index; it is dropped when such a ledger opens (the layout is the same).
 */
const DROPPED_INDEX = 'reservations_by_window';

const RESERVATION = 'id, account, window_id, tool, amount, pid, owner, at, sent';
export const QUERIES = {
  heldIn: `SELECT ${RESERVATION} FROM reservations WHERE account = ? AND window_id = ?`,
  heldElsewhere: `SELECT ${RESERVATION} FROM reservations WHERE owner != ? OR at < ?`,
  hold: `INSERT INTO reservations (${RESERVATION}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  markSent: 'UPDATE reservations SET sent = 1 WHERE id = ?',
  markUnsent: 'UPDATE reservations SET sent = 0 WHERE id = ?',
  take: 'DELETE FROM reservations WHERE id = ? RETURNING account, window_id, tool',
  newWindow: 'INSERT OR IGNORE INTO windows (account, window_id) VALUES (?, ?)',
  windowsOf: 'SELECT window_id FROM windows WHERE account = ? ORDER BY window_id',
  dropWindow: 'DELETE FROM windows WHERE account = ? AND window_id = ?',
  dropTools: 'DELETE FROM tools WHERE account = ? AND window_id = ?',
  add: `UPDATE windows SET spent = spent + ?, cache_hits = cache_hits + ?, credits_saved = credits_saved + ?
    WHERE account = ? AND window_id = ?`,
  addTool: `INSERT INTO tools (account, window_id, tool, calls, credits, cache_hits) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (account, window_id, tool) DO UPDATE SET calls = calls + excluded.calls,
    credits = credits + excluded.credits, cache_hits = cache_hits + excluded.cache_hits`,
  totals: 'SELECT spent, cache_hits, credits_saved FROM windows WHERE account = ? AND window_id = ?',
  toolsIn: 'SELECT tool, calls, credits, cache_hits FROM tools WHERE account = ? AND window_id = ?',
  accountsIn:
    'SELECT account FROM windows WHERE window_id = ? UNION SELECT account FROM reservations WHERE window_id = ?',
  imported: 'SELECT at FROM imports WHERE checksum = ?',
  recordImport: 'INSERT INTO imports (checksum, at) VALUES (?, ?)',
};
export type Queries = Record<keyof typeof QUERIES, SqlStatement>;

export interface Held {
  id: string;
  account: string;
  window_id: string;
  tool: string;
  amount: number;
  pid: number;
  owner: string;
  at: number;
  sent: number;
}

/** SQLite's primary result code of an error: node:sqlite gives the (extended) number, better-sqlite3 its name (SQLITE_CORRUPT_VTAB). */
function primaryCode(error: unknown): number | string | undefined {
  const { errcode, code } = (error ?? {}) as { errcode?: unknown; code?: unknown };
  if (typeof errcode === 'number') return errcode & 0xff;
  return typeof code === 'string' ? code.split('_', 2).join('_') : undefined;
}

/** Why SQLite's error means the file is damaged, or undefined when it is some other trouble. */
export function damage(error: unknown): string | undefined {
  const primary = primaryCode(error);
  if (primary === 26 || primary === 'SQLITE_NOTADB') return 'it is not an SQLite database';
  if (primary === 11 || primary === 'SQLITE_CORRUPT') return `it is corrupt: ${(error as Error).message}`;
  return undefined;
}

/**
 * WAL mode, waiting up to BUSY_TIMEOUT_MS for another process opening the same new database: SQLite
 * answers this pragma with SQLITE_BUSY at once, without its busy handler, while another connection
 * holds a lock (two servers starting together on a fresh state directory).
 */
function enableWal(db: SqlDatabase): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      const primary = primaryCode(error);
      if ((primary !== 5 && primary !== 'SQLITE_BUSY') || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_RETRY_MS);
    }
  }
}

/** `work` in one write transaction, taken at once so that what it reads stays true until it commits. */
export function inTransaction<T>(db: SqlDatabase, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite ended the transaction itself; the failure is what to report
    }
    throw error;
  }
}

/** Creates the layout in a new database; refuses a database that is another program's, or a later version's. */
function ensureSchema(db: SqlDatabase, location: string): void {
  const pragma = (name: string) => Number(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
  const [application, version] = [pragma('application_id'), pragma('user_version')];
  if (application === 0 && version === 0) {
    const tables = Number(db.prepare('SELECT count(*) AS n FROM sqlite_master').get()?.n);
    if (tables > 0) throw new LedgerDamagedError(location, 'it is not an svc-mcp ledger');
    db.exec(SCHEMA);
  } else if (application !== APPLICATION_ID) {
    throw new LedgerDamagedError(location, 'it is not an svc-mcp ledger');
  } else if (version > SCHEMA_VERSION) {
    throw new Error(
      `it was written by a later version of svc-mcp (layout ${version}; this one reads ${SCHEMA_VERSION})`,
    );
  } else {
    db.exec(`DROP INDEX IF EXISTS ${DROPPED_INDEX}`);
  }
}

/**
 * The ledger's database at `location`, opened for sharing with other processes (WAL mode, waiting
 * for their locks), its layout made or checked, and its queries prepared.
 */
export function openLedgerDatabase(sqlite: Sqlite, location: string): { db: SqlDatabase; queries: Queries } {
  const db = sqlite.open(location);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    enableWal(db);
    db.exec('PRAGMA synchronous = NORMAL');
    inTransaction(db, () => ensureSchema(db, location));
    const queries = Object.fromEntries(
      Object.entries(QUERIES).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Queries;
    return { db, queries };
  } catch (error) {
    db.close();
    throw error;
  }
}
