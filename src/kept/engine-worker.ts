/**
 * The query engine's thread: SQLite compiled to WebAssembly, one in-memory database for each owner
 * of kept tables, so that a query can only ever name its owner's tables. A query is one SELECT:
 * SQLite's authorizer refuses anything else (ATTACH, PRAGMA, writes, schema changes), a second
 * statement is refused before anything runs, attaching is off at the connection's own limit, and
 * SQLite's hard heap limit bounds its memory. Each message is told started (its time runs from
 * then) or skipped when its wait for a turn is over. The progress handler interrupts a query at
 * its time bound; the host terminates this thread if it does not answer soon after
 * (WebAssembly, unlike a native call, stops when its thread is terminated).
 * docs/decisions/013-kept-tables-in-sqlite-wasm.md says why this engine.
 */
import { parentPort, workerData } from 'node:worker_threads';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { clockMs, type EngineLimits, type FromEngine, type ToEngine } from './engine-protocol.js';
import {
  loadTable,
  type Owner,
  openDatabase,
  runQuery,
  type Shell,
  setUp,
  syncShells,
} from './engine-sql.js';

const limits = workerData as EngineLimits;
const init = sqlite3InitModule as unknown as (options: object) => ReturnType<typeof sqlite3InitModule>;
const sqlite3 = await init({ print: () => {}, printErr: () => {} });
setUp(sqlite3, limits);

/**
 * Owners' databases open at once: past it the least recently used is closed, and its tables load
 * again when next read. Each costs SQLite tens of KB before any table.
 */
const MAX_OWNERS = 100;
/** Each owner's database and the tables it holds, the least recently used first. */
const owners = new Map<string, Owner>();
/**
 * Where the query of an owner with no live tables runs: a database that holds none. A caller with
 * any key may query; only one who kept a table opens a database of its own.
 */
const scratch: Owner = { db: openDatabase(), tables: new Map<string, Shell>() };
/** Cells held in all tables: past `limits.heldCells`, the least recently used tables are dropped. */
let held = 0;

function close(name: string, owner: Owner): void {
  for (const shell of owner.tables.values()) held -= shell.cells;
  owner.db.close();
  owners.delete(name);
}

/** The owner's database, made the most recently used; a new one when it has tables to hold. */
function ownerOf(name: string, hasTables: boolean): Owner {
  let owner = owners.get(name);
  if (owner === undefined) {
    if (!hasTables) return scratch;
    for (const [oldest, open] of owners) {
      if (owners.size < MAX_OWNERS) break;
      close(oldest, open);
    }
    owner = { db: openDatabase(), tables: new Map<string, Shell>() };
  }
  owners.delete(name);
  owners.set(name, owner);
  return owner;
}

/** Drops the least recently used tables (never `keep`'s) until `more` cells fit the bound. */
function makeRoom(more: number, keep: Owner): void {
  for (const [name, owner] of owners) {
    if (held + more <= limits.heldCells) return;
    if (owner !== keep) close(name, owner);
  }
}

function reply(message: FromEngine): void {
  parentPort?.postMessage(message);
}

parentPort?.on('message', (message: ToEngine) => {
  // Its caller was told the engine was busy: it is not run.
  if (clockMs() > message.startBy) {
    reply({ seq: message.seq, kind: 'late' });
    return;
  }
  reply({ seq: message.seq, kind: 'started' });
  try {
    if (message.kind === 'load') {
      const owner = ownerOf(message.owner, true);
      makeRoom(message.cells, owner);
      held += loadTable(owner, message);
      reply({ seq: message.seq, kind: 'loaded' });
      return;
    }
    const owner = ownerOf(message.owner, message.tables.length > 0);
    held -= syncShells(owner, message.tables);
    reply({ ...runQuery(owner, message), seq: message.seq });
  } catch (error) {
    reply({
      seq: message.seq,
      kind: 'error',
      code: 'other',
      message: String((error as Error)?.message ?? error),
    });
  }
});
reply({ seq: 0, kind: 'ready' });
