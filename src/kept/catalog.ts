/**
 * Each owner's kept tables by name: what `query_data` reads, and what it says when a name is
 * unknown or expired. On one machine a file a table under the state directory (every process on it
 * sees the same tables); across replicas a Redis hash an owner (redis-catalog.ts). An owner keeps
 * at most MAX_TABLES live; the oldest go first. An expired table's entry stays a day, so that a
 * query naming it is told it expired and what would fetch it again.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowsShape } from '../catalog/pages.js';
import type { TableEntry } from '../catalog/queries.js';
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

/** The catalog of one machine: `<state dir>/results/tables/<owner's hash>/<name>.json`. */
export class FileCatalog implements TableCatalog {
  private readonly root: string;

  constructor(
    stateDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.root = join(stateDir, 'results', 'tables');
  }

  async add(owner: string, table: Omit<KeptTable, 'name'>): Promise<KeptTable> {
    const dir = join(this.root, ownerKey(owner));
    makeStateDir(dir);
    for (const name of candidateNames(table)) {
      const entry = { ...table, name };
      const path = join(dir, `${name}.json`);
      try {
        await writeFile(path, JSON.stringify(entry), { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const held = await this.read(path);
        if (held?.id === table.id) return held;
        if (held !== undefined && held.expires > this.now()) continue;
        await writeFile(path, JSON.stringify(entry), { mode: 0o600 });
      }
      await this.bound(dir);
      return entry;
    }
    throw new Error('every name of the table is taken');
  }

  async list(owner: string): Promise<KeptTable[]> {
    const dir = join(this.root, ownerKey(owner));
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const now = this.now();
    const tables: KeptTable[] = [];
    for (const name of names) {
      const table = await this.read(join(dir, name));
      if (table === undefined) continue;
      if (table.expires + EXPIRED_KEPT_MS <= now) await rm(join(dir, name), { force: true });
      else tables.push(table);
    }
    return tables.sort((a, b) => b.expires - a.expires);
  }

  private async read(path: string): Promise<KeptTable | undefined> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as KeptTable;
    } catch {
      return undefined;
    }
  }

  /** Past MAX_TABLES live, the oldest expire now (their entries stay, saying so). */
  private async bound(dir: string): Promise<void> {
    const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    if (names.length <= MAX_TABLES) return;
    const tables = (await Promise.all(names.map((name) => this.read(join(dir, name))))).filter(
      (t): t is KeptTable => t !== undefined,
    );
    const now = this.now();
    for (const table of overBound(tables, now)) {
      await writeFile(join(dir, `${table.name}.json`), JSON.stringify({ ...table, expires: now }), {
        mode: 0o600,
      });
    }
  }
}
