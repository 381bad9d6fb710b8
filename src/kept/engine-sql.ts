/**
 * The SQLite side of the query engine (engine-worker.ts): each owner's database with its limits,
 * its authorizer and its progress handler; the tables' shells and their rows; one query run under
 * its deadline, read-only, its rows bounded.
 */
import type sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { addStatistics } from './engine-functions.js';
import { insertRows } from './engine-insert.js';
import type { EngineErrorCode, EngineLimits, QueryReply, TableRef, ToEngine } from './engine-protocol.js';
import { revive } from './revive.js';
import { cellsOf } from './rows.js';

type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
type Db = InstanceType<Sqlite3['oo1']['DB']>;

/** A table the owner's database holds: empty until a query reads it, then loaded with its rows. */
export interface Shell {
  id: string;
  loaded: boolean;
  cells: number;
}

export interface Owner {
  db: Db;
  tables: Map<string, Shell>;
}

/** The authorizer's actions by code, for what a refusal names. */
const ACTIONS = [
  'CREATE_INDEX',
  'CREATE_TABLE',
  'CREATE_TEMP_INDEX',
  'CREATE_TEMP_TABLE',
  'CREATE_TEMP_TRIGGER',
  'CREATE_TEMP_VIEW',
  'CREATE_TRIGGER',
  'CREATE_VIEW',
  'DELETE',
  'DROP_INDEX',
  'DROP_TABLE',
  'DROP_TEMP_INDEX',
  'DROP_TEMP_TABLE',
  'DROP_TEMP_TRIGGER',
  'DROP_TEMP_VIEW',
  'DROP_TRIGGER',
  'DROP_VIEW',
  'INSERT',
  'PRAGMA',
  'READ',
  'SELECT',
  'TRANSACTION',
  'UPDATE',
  'ATTACH',
  'DETACH',
  'ALTER_TABLE',
  'REINDEX',
  'ANALYZE',
  'CREATE_VTABLE',
  'DROP_VTABLE',
  'FUNCTION',
  'SAVEPOINT',
  'RECURSIVE',
] as const;

/** SQLite runs this many virtual machine steps between looks at the deadline. */
const PROGRESS_STEPS = 10_000;
/** The longest SQL a query may be, in bytes. */
const MAX_SQL_BYTES = 100_000;

/** What the engine runs now: our own statements (trusted), or a query, whose reads are noted. */
const now = {
  trusted: false,
  deadline: Number.POSITIVE_INFINITY,
  reads: new Set<string>(),
  denied: undefined as string | undefined,
};
let module: { sqlite3: Sqlite3; limits: EngineLimits; actions: Map<number, string> } | undefined;

function engine() {
  if (!module) throw new Error('the query engine is not set up');
  return module;
}

/** The engine's process-wide settings: SQLite's hard heap limit, and the names of its actions. */
export function setUp(sqlite3: Sqlite3, limits: EngineLimits): void {
  const capi = sqlite3.capi as unknown as Record<string, number>;
  const actions = new Map(ACTIONS.map((name) => [capi[`SQLITE_${name}`] as number, name]));
  module = { sqlite3, limits, actions };
  const db = new sqlite3.oo1.DB(':memory:');
  db.exec(`PRAGMA hard_heap_limit = ${Math.floor(limits.heapBytes)}`);
  db.close();
}

/** A new owner's database: attaching off, values and SQL bounded, the authorizer and the deadline in place. */
export function openDatabase(): Db {
  const { sqlite3, limits, actions } = engine();
  const { capi } = sqlite3;
  const db = new sqlite3.oo1.DB(':memory:');
  capi.sqlite3_limit(db, capi.SQLITE_LIMIT_ATTACHED, 0);
  capi.sqlite3_limit(db, capi.SQLITE_LIMIT_LENGTH, limits.maxValueBytes);
  capi.sqlite3_limit(db, capi.SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_BYTES);
  capi.sqlite3_progress_handler(db, PROGRESS_STEPS, () => (Date.now() > now.deadline ? 1 : 0), 0);
  addStatistics(sqlite3, db);
  capi.sqlite3_set_authorizer(
    db,
    (_, code, arg1, arg2) => {
      if (now.trusted) return capi.SQLITE_OK;
      const action = actions.get(code);
      if (action === 'SELECT' || action === 'RECURSIVE') return capi.SQLITE_OK;
      if (action === 'READ' && typeof arg1 === 'string') {
        now.reads.add(arg1.toLowerCase());
        return capi.SQLITE_OK;
      }
      if (action === 'FUNCTION' && arg2 !== 'load_extension') return capi.SQLITE_OK;
      // A change to SQLite's own schema table comes before the statement's own action (DROP
      // TABLE first deletes from sqlite_master), and is refused first: it is named a schema change.
      const schema = typeof arg1 === 'string' && /^sqlite_/.test(arg1) && action !== 'PRAGMA';
      now.denied ??= schema
        ? 'SCHEMA'
        : action === 'FUNCTION'
          ? `the function ${arg2}`
          : (action ?? `action ${code}`).replace('_', ' ');
      return capi.SQLITE_DENY;
    },
    0,
  );
  return db;
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function trusted<T>(work: () => T): T {
  now.trusted = true;
  try {
    return work();
  } finally {
    now.trusted = false;
  }
}

function dropTable(owner: Owner, name: string): number {
  const shell = owner.tables.get(name);
  if (!shell) return 0;
  trusted(() => owner.db.exec(`DROP TABLE IF EXISTS ${quoted(name)}`));
  owner.tables.delete(name);
  return shell.cells;
}

function createShell(owner: Owner, table: TableRef): void {
  const columns = table.columns.map(
    ([name, type]) => `${quoted(name)} ${type === 'json' ? 'TEXT' : type.toUpperCase()}`,
  );
  trusted(() => owner.db.exec(`CREATE TABLE ${quoted(table.name)} (${columns.join(', ')})`));
  owner.tables.set(table.name, { id: table.id, loaded: false, cells: 0 });
}

/** The owner's shells made to match its live tables: new ones made empty, others dropped. The cells freed. */
export function syncShells(owner: Owner, tables: readonly TableRef[]): number {
  let freed = 0;
  const live = new Map(tables.map((t) => [t.name, t]));
  for (const [name, shell] of owner.tables) {
    if (live.get(name)?.id !== shell.id) freed += dropTable(owner, name);
  }
  for (const table of tables) if (!owner.tables.has(table.name)) createShell(owner, table);
  return freed;
}

/**
 * The table's rows, from its kept result's data, in its shell (made anew): the cells it now holds.
 * A result kept as the service sent it is normalised here, off the server's thread.
 */
export function loadTable(owner: Owner, message: Extract<ToEngine, { kind: 'load' }>): number {
  const { table, stored } = message;
  dropTable(owner, table.name);
  createShell(owner, table);
  const data =
    'json' in stored
      ? (JSON.parse(stored.json) as Record<string, unknown>)
      : revive(stored.tool, stored.params, JSON.parse(stored.answer), stored.nowMs);
  const rows = cellsOf(data, message.shape, table.columns);
  trusted(() => insertRows(engine().sqlite3, owner.db, quoted(table.name), table.columns.length, rows));
  const cells = rows.length * table.columns.length;
  owner.tables.set(table.name, { id: table.id, loaded: true, cells });
  return cells;
}

type Stmt = number;

/** What failed, by SQLite's result code and message. */
function failure(code: EngineErrorCode, db: Db, message?: string): QueryReply {
  const { capi } = engine().sqlite3;
  const offset = Number(capi.sqlite3_error_offset(db));
  return {
    seq: 0,
    kind: 'error',
    code,
    message: message ?? capi.sqlite3_errmsg(db),
    ...(offset >= 0 ? { offset } : {}),
    ...(code === 'denied' && now.denied ? { denied: now.denied } : {}),
  };
}

function codeOf(rc: number, message: string): EngineErrorCode {
  const { capi } = engine().sqlite3;
  if (rc === capi.SQLITE_AUTH) return 'denied';
  if (rc === capi.SQLITE_INTERRUPT) return 'timeout';
  if (rc === capi.SQLITE_NOMEM) return 'memory';
  if (rc === capi.SQLITE_TOOBIG) return 'too big';
  if (/^no such table/.test(message)) return 'no table';
  if (/^no such column/.test(message)) return 'no column';
  if (/syntax error|incomplete input|unrecognized token/.test(message)) return 'syntax';
  return 'other';
}

/** The one statement of `sql`, prepared; or why not (an error, none, or more than one). */
function prepareOne(db: Db, sql: string): Stmt | QueryReply {
  const { capi, wasm } = engine().sqlite3;
  const [text, bytes] = wasm.allocCString(sql, true);
  const stack = wasm.pstack.pointer;
  try {
    const [statementAt = 0, tailAt = 0] = wasm.pstack.allocPtr(2);
    const prepare = (from: number, length: number) =>
      capi.sqlite3_prepare_v3(db, from, length, 0, statementAt, tailAt);
    const rc = prepare(text, bytes);
    if (rc !== capi.SQLITE_OK) return failure(codeOf(rc, capi.sqlite3_errmsg(db)), db);
    const stmt = wasm.peekPtr(statementAt);
    if (stmt === 0) return { seq: 0, kind: 'error', code: 'statements', message: 'no statement' };
    const tail = wasm.peekPtr(tailAt);
    const rest = prepare(tail, text + bytes - tail);
    const second = wasm.peekPtr(statementAt);
    if (rest !== capi.SQLITE_OK || second !== 0) {
      if (second !== 0) capi.sqlite3_finalize(second);
      capi.sqlite3_finalize(stmt);
      return { seq: 0, kind: 'error', code: 'statements', message: 'more than one statement' };
    }
    return stmt;
  } finally {
    wasm.pstack.restore(stack);
    wasm.dealloc(text);
  }
}

/** A column's value as JSON carries it: a whole number past 2^53 as its digits, a blob as its size. */
function valueAt(stmt: Stmt, index: number): unknown {
  const { capi } = engine().sqlite3;
  const s = stmt;
  switch (capi.sqlite3_column_type(s, index)) {
    case capi.SQLITE_INTEGER: {
      const big = capi.sqlite3_column_int64(s, index);
      const small = Number(big);
      return Number.isSafeInteger(small) ? small : String(big);
    }
    case capi.SQLITE_FLOAT:
      return capi.sqlite3_column_double(s, index);
    case capi.SQLITE_TEXT:
      return capi.sqlite3_column_text(s, index);
    case capi.SQLITE_BLOB:
      // Grouped as the answers' text groups whole numbers (format/numbers.ts, which this thread does not load).
      return `(a blob of ${capi.sqlite3_column_bytes(s, index).toLocaleString('en-US')} bytes)`;
    default:
      return null;
  }
}

/** What a row of values takes, as the bound on a query's rows counts it. */
function rowBytes(row: unknown[]): number {
  let bytes = 0;
  for (const value of row) bytes += 16 + (typeof value === 'string' ? value.length : 0);
  return bytes;
}

/**
 * One query on the owner's database: its one statement prepared under the authorizer, the tables it
 * reads loaded first (`need`, when some are still empty shells), then its rows, at most
 * `limits.maxRows`, before the deadline.
 */
export function runQuery(owner: Owner, message: Extract<ToEngine, { kind: 'query' }>): QueryReply {
  const { sqlite3, limits } = engine();
  const { capi } = sqlite3;
  const { db } = owner;
  now.reads = new Set();
  now.denied = undefined;
  now.deadline = Date.now() + message.timeoutMs;
  try {
    const prepared = prepareOne(db, message.sql);
    if (typeof prepared !== 'number') return prepared;
    const stmt = prepared;
    try {
      // A statement the authorizer was not asked about (REINDEX with no index to rebuild): a query
      // has columns and writes nothing.
      if (capi.sqlite3_column_count(stmt) === 0 || !capi.sqlite3_stmt_readonly(stmt)) {
        now.denied = 'STATEMENT';
        return failure('denied', db, 'not a query');
      }
      const names = [...now.reads].filter((name) => owner.tables.get(name)?.loaded === false);
      if (names.length > 0) return { seq: 0, kind: 'need', names };
      const columns = Array.from({ length: capi.sqlite3_column_count(stmt) }, (_, i) =>
        capi.sqlite3_column_name(stmt, i),
      );
      const rows: unknown[][] = [];
      let bytes = 0;
      for (;;) {
        const rc = Number(capi.sqlite3_step(stmt));
        if (rc === capi.SQLITE_DONE) return { seq: 0, kind: 'rows', columns, rows, more: false };
        if (rc !== capi.SQLITE_ROW) return failure(codeOf(rc, capi.sqlite3_errmsg(db)), db);
        if (rows.length === limits.maxRows) return { seq: 0, kind: 'rows', columns, rows, more: true };
        const row = columns.map((_, i) => valueAt(stmt, i));
        bytes += rowBytes(row);
        // The first row is always given: SQLite's heap limit has bounded it.
        if (bytes > limits.maxRowsBytes && rows.length > 0) {
          return { seq: 0, kind: 'rows', columns, rows, more: true };
        }
        rows.push(row);
      }
    } finally {
      capi.sqlite3_finalize(stmt);
    }
  } finally {
    now.deadline = Number.POSITIVE_INFINITY;
  }
}
