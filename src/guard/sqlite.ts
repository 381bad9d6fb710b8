/**
 * SQLite for the ledger: Node's built-in `node:sqlite` (Node 22.13 and later, no native module to
 * build or ship). Node 20, which has none, keeps the ledger in a JSON file (file-ledger.ts). The
 * interface names the calls the ledger makes (exec, prepare, run, get, all, close).
 */

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
  /** `node:sqlite`, for messages and benchmarks. */
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

let loaded: { sqlite: Sqlite | undefined } | undefined;

/** SQLite, when this Node has it built in; undefined on Node 20 (and 22.5 to 22.12, behind a flag). */
export function loadSqlite(): Sqlite | undefined {
  if (!loaded) {
    const DatabaseSync = builtin();
    loaded = {
      sqlite: DatabaseSync && { library: 'node:sqlite', open: (path) => new DatabaseSync(path) },
    };
  }
  return loaded.sqlite;
}
