/**
 * Where own-key sign-in keeps what it must remember (the authorization server's grants, codes,
 * tokens, registered clients and interactions, and each person's encrypted key): where the ledger
 * lives, so that a person who signed in through one replica calls through another and a revocation
 * on one holds on all. On one machine an SQLite database in the state directory (a JSON file where
 * no SQLite loads); across replicas, Redis. Every record expires on its own; grants and keys are
 * forgotten once revoked, or after 30 days unused.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { chooseSqlite, type SqlDatabase, type SqlStatement } from '../guard/sqlite.js';
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { makeStateDir, privateDatabaseFile } from '../state-dir.js';

/** A record and what it is found by besides its id. */
export interface Stored {
  payload: Record<string, unknown>;
  /** Unix seconds after which it is gone; undefined: kept until deleted. */
  expiresAt?: number;
  grantId?: string;
  uid?: string;
}

export interface SignInStore {
  get(kind: string, id: string): Promise<Stored | undefined>;
  put(kind: string, id: string, record: Stored): Promise<void>;
  delete(kind: string, id: string): Promise<void>;
  /** The record of `kind` whose uid is `uid` (an interaction's). */
  byUid(kind: string, uid: string): Promise<{ id: string; record: Stored } | undefined>;
  /** Keeps the record until `expiresAt`, when it is still there (never brings one back). */
  extend(kind: string, id: string, expiresAt: number): Promise<void>;
  /** Deletes every record of the grant: its codes and tokens, and the grant itself. */
  dropGrant(grantId: string): Promise<void>;
  close(): Promise<void>;
}

/** A grant, its key and its client are forgotten after this long unused. */
export const UNUSED_SECONDS = 30 * 24 * 3600;

export const seconds = () => Math.floor(Date.now() / 1000);
const live = (record: Stored | undefined) =>
  record !== undefined && (record.expiresAt === undefined || record.expiresAt > seconds())
    ? record
    : undefined;

/** The store for these settings: Redis when there is one, else SQLite, else a JSON file. */
export function openSignInStore(stateDir: string, redis?: RedisConnection): SignInStore {
  if (redis) return new RedisSignInStore(redis);
  const { sqlite } = chooseSqlite();
  return sqlite ? new SqliteSignInStore(sqlite.open.bind(sqlite), stateDir) : new FileSignInStore(stateDir);
}

const TABLE = `CREATE TABLE IF NOT EXISTS records (
  kind TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, expires_at INTEGER,
  grant_id TEXT, uid TEXT, PRIMARY KEY (kind, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_grant ON records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_by_uid ON records (uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_by_expiry ON records (expires_at) WHERE expires_at IS NOT NULL;`;

/** Every statement the store runs, prepared once: tokens are looked up as MCP requests come. */
const STATEMENTS = {
  get: 'SELECT payload, expires_at, grant_id, uid FROM records WHERE kind = ? AND id = ?',
  put: `INSERT INTO records (kind, id, payload, expires_at, grant_id, uid) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (kind, id) DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at,
    grant_id = excluded.grant_id, uid = excluded.uid`,
  purge: 'DELETE FROM records WHERE expires_at IS NOT NULL AND expires_at <= ?',
  delete: 'DELETE FROM records WHERE kind = ? AND id = ?',
  byUid: 'SELECT id, payload, expires_at, grant_id, uid FROM records WHERE kind = ? AND uid = ?',
  extend: 'UPDATE records SET expires_at = ? WHERE kind = ? AND id = ?',
  dropGrant: 'DELETE FROM records WHERE grant_id = ? OR (kind = ? AND id = ?)',
} as const;

/** Expired records are deleted at most this often (they are never read: get checks the expiry). */
const PURGE_SECONDS = 60;

class SqliteSignInStore implements SignInStore {
  private db: SqlDatabase | undefined;
  private statements: Record<keyof typeof STATEMENTS, SqlStatement> | undefined;
  private purgedAt = 0;

  constructor(
    private readonly open: (path: string) => SqlDatabase,
    private readonly dir: string,
  ) {}

  private run(): Record<keyof typeof STATEMENTS, SqlStatement> {
    if (this.statements) return this.statements;
    makeStateDir(this.dir);
    const path = join(this.dir, 'sign-in.sqlite');
    privateDatabaseFile(path);
    const db = this.open(path);
    db.exec('PRAGMA busy_timeout = 2000');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(TABLE);
    this.db = db;
    this.statements = Object.fromEntries(
      Object.entries(STATEMENTS).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof STATEMENTS, SqlStatement>;
    return this.statements;
  }

  async get(kind: string, id: string): Promise<Stored | undefined> {
    const row = this.run().get.get(kind, id);
    return live(row && fromRow(row));
  }

  async put(kind: string, id: string, record: Stored): Promise<void> {
    const { payload, expiresAt, grantId, uid } = record;
    this.run().put.run(kind, id, JSON.stringify(payload), expiresAt ?? null, grantId ?? null, uid ?? null);
    if (seconds() - this.purgedAt >= PURGE_SECONDS) {
      this.purgedAt = seconds();
      this.run().purge.run(this.purgedAt);
    }
  }

  async delete(kind: string, id: string): Promise<void> {
    this.run().delete.run(kind, id);
  }

  async byUid(kind: string, uid: string) {
    const row = this.run().byUid.get(kind, uid);
    const record = live(row && fromRow(row));
    return row && record ? { id: String(row.id), record } : undefined;
  }

  async extend(kind: string, id: string, expiresAt: number): Promise<void> {
    this.run().extend.run(expiresAt, kind, id);
  }

  async dropGrant(grantId: string): Promise<void> {
    this.run().dropGrant.run(grantId, 'Grant', grantId);
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = undefined;
    this.statements = undefined;
  }
}

function fromRow(row: Record<string, unknown>): Stored {
  return {
    payload: JSON.parse(String(row.payload)),
    expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
    grantId: row.grant_id === null ? undefined : String(row.grant_id),
    uid: row.uid === null ? undefined : String(row.uid),
  };
}

type FileState = Record<string, Stored>;

/** Where no SQLite loads: one JSON file, each change made under a lock and written whole. */
class FileSignInStore implements SignInStore {
  private readonly path: string;

  constructor(private readonly dir: string) {
    this.path = join(dir, 'sign-in.json');
  }

  private async read(): Promise<FileState> {
    try {
      return JSON.parse(await readFile(this.path, 'utf8')) as FileState;
    } catch {
      return {};
    }
  }

  private async change(apply: (state: FileState) => void): Promise<void> {
    makeStateDir(this.dir);
    await writeFile(this.path, '', { flag: 'a', mode: 0o600 });
    const release = await lockfile.lock(this.path, { realpath: false, stale: 10_000, retries: 50 });
    try {
      const state = await this.read();
      apply(state);
      for (const [key, record] of Object.entries(state)) if (!live(record)) delete state[key];
      const temp = `${this.path}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
      await rename(temp, this.path);
    } finally {
      await release().catch(() => {});
    }
  }

  async get(kind: string, id: string) {
    return live((await this.read())[`${kind}:${id}`]);
  }

  async put(kind: string, id: string, record: Stored) {
    await this.change((state) => {
      state[`${kind}:${id}`] = record;
    });
  }

  async delete(kind: string, id: string) {
    await this.change((state) => {
      delete state[`${kind}:${id}`];
    });
  }

  async byUid(kind: string, uid: string) {
    const state = await this.read();
    const found = Object.entries(state).find(
      ([key, r]) => key.startsWith(`${kind}:`) && r.uid === uid && live(r),
    );
    return found && { id: found[0].slice(kind.length + 1), record: found[1] };
  }

  async extend(kind: string, id: string, expiresAt: number) {
    await this.change((state) => {
      const found = state[`${kind}:${id}`];
      if (found) found.expiresAt = expiresAt;
    });
  }

  async dropGrant(grantId: string) {
    await this.change((state) => {
      for (const [key, record] of Object.entries(state))
        if (record.grantId === grantId || key === `Grant:${grantId}`) delete state[key];
    });
  }

  async close() {}
}

/** How long a grant's set of records is kept after its last record was put: past any of them. */
const GRANT_SET_SECONDS = 31 * 24 * 3600;

/** KEYS: the grant's set. ARGV: the prefix of a record's key, the grant's own record key. */
const DROP_GRANT = script(`
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', ARGV[1] .. key) end
redis.call('DEL', KEYS[1], ARGV[2])
return 1
`);

/** Across replicas: a key a record (expiring with it), a set of each grant's records, a key from a uid to its id. */
class RedisSignInStore implements SignInStore {
  constructor(private readonly redis: RedisConnection) {}

  private key(kind: string, id: string) {
    return this.redis.key('oauth', kind, id);
  }

  /** Redis's own expiry is the record's: a record read is live. */
  async get(kind: string, id: string) {
    const text = await this.redis.use((r) => r.get(this.key(kind, id)));
    return text === null ? undefined : (JSON.parse(text) as Stored);
  }

  async put(kind: string, id: string, record: Stored) {
    const ttl = record.expiresAt === undefined ? undefined : Math.max(1, record.expiresAt - seconds());
    await this.redis.use(async (r) => {
      const batch = r.multi();
      const key = this.key(kind, id);
      const text = JSON.stringify({ ...record, expiresAt: undefined });
      if (ttl === undefined) batch.set(key, text);
      else batch.set(key, text, 'EX', ttl);
      if (record.grantId !== undefined) {
        const grant = this.redis.key('oauth', 'by-grant', record.grantId);
        batch.sadd(grant, `${kind}:${id}`);
        batch.expire(grant, GRANT_SET_SECONDS);
      }
      if (record.uid !== undefined)
        batch.set(this.redis.key('oauth', 'by-uid', kind, record.uid), id, 'EX', ttl ?? 3600);
      await batch.exec();
    });
  }

  async delete(kind: string, id: string) {
    await this.redis.use((r) => r.del(this.key(kind, id)));
  }

  async byUid(kind: string, uid: string) {
    const id = await this.redis.use((r) => r.get(this.redis.key('oauth', 'by-uid', kind, uid)));
    if (id === null) return undefined;
    const record = await this.get(kind, id);
    return record && { id, record };
  }

  async extend(kind: string, id: string, expiresAt: number) {
    await this.redis.use((r) => r.expire(this.key(kind, id), Math.max(1, expiresAt - seconds())));
  }

  async dropGrant(grantId: string) {
    await this.redis.run(
      DROP_GRANT,
      [this.redis.key('oauth', 'by-grant', grantId)],
      [this.redis.key('oauth', ''), this.key('Grant', grantId)],
    );
  }

  async close() {}
}
