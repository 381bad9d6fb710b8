/**
 * SQLite for the ledger, from whichever library this Node has: the built-in `node:sqlite` (Node
 * 22.13 and later) or, where there is none (Node 20), the optional dependency `better-sqlite3`.
 * Both are synchronous and share the calls the ledger makes (exec, prepare, run, get, all, close),
 * with positional parameters only, so one small interface covers both.
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

let loaded: Sqlite | string | undefined;

/**
 * SQLite, or a sentence saying why there is none here and what to do. Cheap, for start-up:
 * better-sqlite3 is only found here, and loaded with the first database (its native part takes
 * tens of milliseconds to load); a copy that cannot load fails then, saying the same.
 */
export function loadSqlite(): Sqlite | string {
  loaded ??= load();
  return loaded;
}

const require = createRequire(import.meta.url);

function unavailable(why: string): string {
  return `the credit ledger needs SQLite: Node ${process.versions.node} has no node:sqlite (Node 22.13 and later have it), and the optional dependency better-sqlite3 ${why}. Run on Node 22.13 or later, reinstall svc-mcp with its install scripts allowed so that better-sqlite3 is built, or set SVC_REDIS_URL to keep the ledger on Redis.`;
}

function load(): Sqlite | string {
  const DatabaseSync = builtin();
  if (DatabaseSync) return { library: 'node:sqlite', open: (path) => new DatabaseSync(path) };
  try {
    require.resolve('better-sqlite3');
  } catch {
    return unavailable('is not installed');
  }
  let Database: Opener | undefined;
  return {
    library: 'better-sqlite3',
    open(path) {
      if (!Database) {
        try {
          const found = require('better-sqlite3') as Opener;
          new found(':memory:').close(); // loads the native part: missing or built for another Node?
          Database = found;
        } catch (error) {
          throw new Error(unavailable(`could not be loaded (${(error as Error)?.message?.split('\n')[0]})`));
        }
      }
      return new Database(path);
    },
  };
}
