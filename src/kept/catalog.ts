/**
 * Each owner's kept tables by name: what `query_data` reads, and what it says when a name is
 * unknown or expired. On one machine a file a table under the state directory (every process on it
 * sees the same tables); across replicas a Redis hash an owner (redis-catalog.ts). An owner keeps
 * at most MAX_TABLES live; the oldest go first. An expired table's entry stays a day, so that a
 * query naming it is told it expired and what would fetch it again.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { RowsShape } from '../kit/pages.js';
import type { TableEntry } from '../kit/queries.js';
import { makeStateDir } from '../state-dir.js';
import { SUFFIX_LENGTHS, tableName } from './names.js';

/** Live tables one owner keeps at most. */
export const MAX_TABLES = 50;
/** How long an expired table's entry stays, to say it expired. */
export const EXPIRED_KEPT_MS = 24 * 60 * 60 * 1000;

/** A table as its owner's catalog keeps it: its name unique among the owner's. */
export interface KeptTable extends TableEntry {
  /** The kept result its rows are read from. */
  id: string;
  shape: RowsShape;
}

export interface TableCatalog {
  /** The table named for its owner: the first name of its id's that is free, or the one it has. */
  add(owner: string, table: Omit<KeptTable, 'name'>): Promise<KeptTable>;
  /** The owner's tables, live ones and those expired within EXPIRED_KEPT_MS, newest first. */
  list(owner: string): Promise<KeptTable[]>;
}

/** An owner as the store names them: a hash, never the account or person itself. */
export function ownerKey(owner: string): string {
  return createHash('sha256').update(owner).digest('hex').slice(0, 32);
}

/** The names a table may take, shortest first. */
export function candidateNames(table: Pick<KeptTable, 'tool' | 'id'>): string[] {
  return SUFFIX_LENGTHS.map((length) => tableName(table.tool, table.id, length));
}

/** The live tables past MAX_TABLES, oldest first: those the catalog lets expire now. */
export function overBound(tables: readonly KeptTable[], now: number): KeptTable[] {
  const live = tables.filter((t) => t.expires > now).sort((a, b) => b.expires - a.expires);
  return live.slice(MAX_TABLES);
}

/** Entries an owner's catalog holds at most, expired ones included: past it the oldest go. */
const MOST_ENTRIES = 4 * MAX_TABLES;

/** The entries that go: expired past EXPIRED_KEPT_MS, or the oldest past MOST_ENTRIES in all. */
export function entriesGone(tables: readonly KeptTable[], now: number): KeptTable[] {
  const oldest = [...tables].sort((a, b) => a.expires - b.expires);
  return oldest.filter((t, i) => t.expires + EXPIRED_KEPT_MS <= now || i < oldest.length - MOST_ENTRIES);
}

/** How long a process trusts what it read of an owner's directory before it reads it again. */
const SCAN_EVERY_MS = 1_000;
/**
 * Owners whose tables a process holds what it read of: an owner's 200 entries with their columns
 * take up to hundreds of KB, and the directory is what holds them; another is read again when used.
 */
const OWNERS_HELD = 100;

interface OwnerView {
  dir: string;
  tables: Map<string, KeptTable>;
  /** When each table's file was last written, as read: another process rewrites it to expire it. */
  written: Map<string, number>;
  scannedAt: number;
}

/**
 * The catalog of one machine: `<state dir>/results/tables/<owner's hash>/<name>.json`, a file a
 * table, so that every process on the machine names tables alike (a name is taken by creating its
 * file). Each process holds what it read of an owner's directory (first before it keeps a table
 * for the owner) and reads again only the files that are new to it or written since, at most every
 * SCAN_EVERY_MS: keeping a table costs the same however many the owner has.
 */
export class FileCatalog implements TableCatalog {
  private readonly root: string;
  /** What this process read of each owner's tables, the least recently used forgotten first. */
  private readonly owners = new LRUCache<string, OwnerView>({ max: OWNERS_HELD });

  constructor(
    stateDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.root = join(stateDir, 'results', 'tables');
  }

  async add(owner: string, table: Omit<KeptTable, 'name'>): Promise<KeptTable> {
    const view = await this.viewOf(owner, true);
    makeStateDir(view.dir);
    for (const name of candidateNames(table)) {
      const entry = { ...table, name };
      const path = join(view.dir, `${name}.json`);
      try {
        await writeFile(path, JSON.stringify(entry), { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const held = await read(path);
        if (held?.id === table.id) return held;
        if (held !== undefined && held.expires > this.now()) continue;
        await writeFile(path, JSON.stringify(entry), { mode: 0o600 });
      }
      view.tables.set(name, entry);
      await this.bound(view);
      return entry;
    }
    throw new Error('every name of the table is taken');
  }

  async list(owner: string): Promise<KeptTable[]> {
    const view = await this.viewOf(owner, false);
    const now = this.now();
    return [...view.tables.values()]
      .filter((t) => t.expires + EXPIRED_KEPT_MS > now)
      .sort((a, b) => b.expires - a.expires);
  }

  /**
   * What this process knows of the owner's tables, the directory read again when it may be stale.
   * An owner with no tables is not held: anyone with any key may list, and a made-up key would
   * otherwise be remembered for good.
   */
  private async viewOf(owner: string, adding: boolean): Promise<OwnerView> {
    const key = ownerKey(owner);
    const held = this.owners.get(key);
    const view = held ?? { dir: join(this.root, key), tables: new Map(), written: new Map(), scannedAt: 0 };
    // A table is added to what was read of the directory at least once, so that its bound counts
    // the tables other processes kept (a one-shot `svc-mcp call` is a process of its own).
    const stale = this.now() - view.scannedAt >= SCAN_EVERY_MS;
    if (adding ? view.scannedAt === 0 : stale) await this.scan(view);
    if (held === undefined && !this.owners.has(key) && (adding || view.tables.size > 0)) {
      this.owners.set(key, view);
    }
    return this.owners.get(key) ?? view;
  }

  /** The owner's directory read again: tables gone are forgotten, new ones and rewritten ones read. */
  private async scan(view: OwnerView): Promise<void> {
    let names: string[];
    try {
      names = readdirSync(view.dir).filter((name) => name.endsWith('.json'));
    } catch {
      names = [];
    }
    const present = new Set(names.map((name) => name.slice(0, -'.json'.length)));
    for (const name of view.tables.keys()) if (!present.has(name)) forget(view, name);
    for (const name of present) {
      const path = join(view.dir, `${name}.json`);
      const written = await stat(path).then(
        (file) => file.mtimeMs,
        () => undefined,
      );
      if (written === undefined || view.written.get(name) === written) continue;
      const table = await read(path);
      if (table) {
        view.tables.set(name, table);
        view.written.set(name, written);
      }
    }
    view.scannedAt = this.now();
  }

  /**
   * Past MAX_TABLES live, the oldest expire now (their entries stay, saying so); entries expired
   * past EXPIRED_KEPT_MS, or past MOST_ENTRIES in all, go.
   */
  private async bound(view: OwnerView): Promise<void> {
    const now = this.now();
    const tables = [...view.tables.values()];
    for (const table of overBound(tables, now)) {
      const expired = { ...table, expires: now };
      view.tables.set(table.name, expired);
      await writeFile(join(view.dir, `${table.name}.json`), JSON.stringify(expired), { mode: 0o600 });
    }
    for (const table of entriesGone([...view.tables.values()], now)) {
      forget(view, table.name);
      await rm(join(view.dir, `${table.name}.json`), { force: true });
    }
  }
}

function forget(view: OwnerView, name: string): void {
  view.tables.delete(name);
  view.written.delete(name);
}

async function read(path: string): Promise<KeptTable | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as KeptTable;
  } catch {
    return undefined;
  }
}
