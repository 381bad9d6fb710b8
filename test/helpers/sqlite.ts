/**
 * SQLite as this Node loads it for the ledger: `node:sqlite`, or better-sqlite3 on Node 20. Where
 * neither loads (Node 20 where npm could not build better-sqlite3, a supported way to run: the
 * ledger is then a JSON file), the tests about SQLite are skipped and say why; under CI (CI=true),
 * which builds it, a missing SQLite fails the run instead, as a missing redis-server does.
 */
import { chooseSqlite, type Sqlite } from '../../src/guard/sqlite.js';

function loaded(): Sqlite | undefined {
  const { sqlite, why } = chooseSqlite();
  if (sqlite) return sqlite;
  if (process.env.CI === 'true') throw new Error(`${why}, and CI (CI=true) requires SQLite`);
  console.warn(`${why}: the tests of the SQLite ledger are skipped`);
  return undefined;
}

/** SQLite, or undefined where it does not load (the tests about it are then skipped). */
export const SQLITE = loaded();

/** The file a single machine's ledger is kept in: ledger.sqlite, or ledger.json without SQLite. */
export const LEDGER_FILE = SQLITE ? 'ledger.sqlite' : 'ledger.json';

/**
 * A server's stderr lines without the notice it gives after its banner where no SQLite loads (the
 * ledger kept in ledger.json; test/guard/json-ledger.test.ts checks it), so that a test of what
 * else a server says holds either way.
 */
export function withoutLedgerNotice(stderr: string): string[] {
  return stderr
    .trimEnd()
    .split('\n')
    .filter(
      (line) =>
        !/^\{.*"ledger":"ledger\.json".*"msg":".*the credit ledger is kept in ledger\.json/.test(line),
    );
}
