/**
 * SQLite for the ledger: Node's built-in `node:sqlite` where Node has it (22.13 and later: no native
 * module to build or ship), else better-sqlite3 (an optional dependency, for Node 20, with a
 * prebuilt binary per platform or built from source at install). Where neither loads, the ledger
 * stays in a JSON file (file-ledger.ts). The interface names the calls the ledger makes (exec,
 * prepare, run, get, all, close), which both libraries offer alike.
 */
import { createRequire } from 'node:module';

export type SqlValue = string | number | bigint | null;
export type SqlRow = Record<string, SqlValue>;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}

export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

export interface Sqlite {
  /** `node:sqlite` or `better-sqlite3`, for messages and benchmarks. */
  readonly library: string;
  open(path: string): SqlDatabase;
}

type Opener = new (path: string) => SqlDatabase;

/** `node:sqlite` without its ExperimentalWarning, which would add a line to stdio's stderr (Node 22). */
function builtin(): Opener | undefined {
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && text.startsWith('SQLite')) return;
    return (emit as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return (process.getBuiltinModule('node:sqlite') as { DatabaseSync?: Opener } | undefined)?.DatabaseSync;
  } catch {
    return undefined; // Node 22.5 to 22.12 only offer it behind --experimental-sqlite
  } finally {
    process.emitWarning = emit;
  }
}

/**
 * better-sqlite3, when it is installed and built for this Node; why not otherwise (not installed,
 * its install script did not run or failed, or its binary is another Node's or platform's).
 */
function betterSqlite3(): Opener | string {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as Opener;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return code === 'MODULE_NOT_FOUND'
      ? 'better-sqlite3 is not installed'
      : `better-sqlite3 did not load (${message.split('\n')[0]})`;
  }
}

export type SqliteChoice = { sqlite: Sqlite; why?: undefined } | { sqlite?: undefined; why: string };

let loaded: SqliteChoice | undefined;

/**
 * SQLite, from Node itself or better-sqlite3; or, when neither is there, why not (for the one line
 * that says the ledger stays in a JSON file).
 */
export function chooseSqlite(): SqliteChoice {
  loaded ??= choose();
  return loaded;
}

function choose(): SqliteChoice {
  const DatabaseSync = builtin();
  if (DatabaseSync) return { sqlite: { library: 'node:sqlite', open: (path) => new DatabaseSync(path) } };
  const better = betterSqlite3();
  if (typeof better === 'string')
    return { why: `Node ${process.versions.node} has no built-in SQLite and ${better}` };
  return { sqlite: { library: 'better-sqlite3', open: (path) => new better(path) } };
}

/** SQLite, when this Node has it built in or better-sqlite3 loads; else undefined. */
export function loadSqlite(): Sqlite | undefined {
  return chooseSqlite().sqlite;
}
