/**
 * The SQLite ledger shared by processes (the built store in child processes of its own): two of
 * them never admit past one budget together; a process killed mid-burst loses no settled charge;
 * a killed process's reservations count if their request was sent and cost nothing if not. Cache
 * hits are batched and all reach the database. An earlier version's ledger.json is imported once
 * with its totals; a damaged one, or a damaged database, is reported by path.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerDamagedError } from '../../src/guard/ledger.js';
import type { Sqlite } from '../../src/guard/sqlite.js';
import { SqliteLedger } from '../../src/guard/sqlite-ledger.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { LEDGER_FILE, SQLITE } from '../helpers/sqlite.js';
import { until } from '../helpers/until.js';

// Without SQLite the ledger is the JSON file (file-ledger.ts), tested on its own.
const sqlite = SQLITE as Sqlite;
const root = mkdtempSync(join(tmpdir(), 'svc-sqlite-ledger-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => join(root, String(dirs++));
/** A directory holding a new, empty ledger. */
async function withLedger(): Promise<string> {
  const dir = newDir();
  const ledger = new SqliteLedger(dir, sqlite);
  await ledger.check();
  await ledger.close();
  return dir;
}
const WINDOW = 'day:2026-11-22';
const call = { account: 'acct', window: WINDOW, tool: 'get_fear_and_greed_latest' };

/**
 * A process of its own running `body` with `ledger` (the built store on `dir`) and `call` in scope:
 * its output so far, and `closed`, which resolves once it has exited and all its output has been
 * read (a process's exit can come before the last of what it wrote has been read from the pipe).
 */
function storeProcess(
  dir: string,
  body: string,
): { child: ChildProcess; output(): string; closed: Promise<void> } {
  const built = pathToFileURL(join(REPO_ROOT, 'dist', 'for-scripts.js')).href;
  const script = `
    const { SqliteLedger, loadSqlite } = await (await import(${JSON.stringify(built)})).forLedger();
    const ledger = new SqliteLedger(${JSON.stringify(dir)}, loadSqlite());
    const call = ${JSON.stringify(call)};
    ${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, output: () => output, closed };
}

describe.runIf(sqlite !== undefined)('shared by processes', () => {
  it('three processes opening a new ledger at the same moment all reserve (60 ledgers)', async () => {
    const dir = newDir();
    // Each round, every process opens the same new ledger at one instant: SQLite refused the switch
    // to WAL mode at once (SQLITE_BUSY) to all but one, about once in a hundred opens, before
    // opening waited for it.
    const start = Date.now() + 1_000;
    const body = `
      const { join } = await import('node:path');
      let failed = 0;
      for (let round = 0; round < 60; round++) {
        const at = ${start} + round * 40;
        while (Date.now() < at) {}
        const fresh = new SqliteLedger(join(${JSON.stringify(dir)}, String(round)), loadSqlite());
        try {
          await fresh.reserve({ ...call, amount: 1, budget: 10 });
        } catch (error) {
          failed++;
          console.log('failed: ' + error.message);
        }
        await fresh.close();
      }
      console.log('failed ' + failed);`;
    const runs = [storeProcess(dir, body), storeProcess(dir, body), storeProcess(dir, body)];
    await Promise.all(runs.map((r) => r.closed));
    for (const run of runs) expect(run.output()).toMatch(/^failed 0$/m);
  });

  it('two processes reserving at once never admit past the budget together', async () => {
    const dir = newDir();
    const body = `
      let admitted = 0;
      for (let i = 0; i < 150; i++) {
        const r = await ledger.reserve({ ...call, amount: 1, budget: 200 });
        if (!r.ok) continue;
        admitted++;
        await ledger.markSent(r.id);
        await ledger.settle(r.id, 1);
      }
      console.log('admitted ' + admitted);`;
    const runs = [storeProcess(dir, body), storeProcess(dir, body)];
    await Promise.all(runs.map((r) => r.closed));
    const admitted = runs.map((r) => Number(/admitted (\d+)/.exec(r.output())?.[1] ?? Number.NaN));
    expect(runs.map((r) => r.child.exitCode)).toEqual([0, 0]);
    expect(admitted[0]! + admitted[1]!).toBe(200);
    const ledger = new SqliteLedger(dir, sqlite);
    expect(await ledger.figures(call.account, WINDOW)).toMatchObject({ spent: 200, reserved: 0 });
    await ledger.close();
  });

  it('SIGKILL in the middle of a burst loses no settled charge', async () => {
    const dir = newDir();
    const run = storeProcess(
      dir,
      `
      for (let settled = 1; ; settled++) {
        const r = await ledger.reserve({ ...call, amount: 1, budget: 100000 });
        await ledger.markSent(r.id);
        await ledger.settle(r.id, 1);
        process.stdout.write('settled ' + settled + '\\n');
      }`,
    );
    const lastSettled = () => Number(/settled (\d+)\n$/.exec(run.output())?.[1] ?? 0);
    await until(() => lastSettled() >= 300, 20_000);
    run.child.kill('SIGKILL');
    await run.closed;
    const reported = lastSettled();
    const ledger = new SqliteLedger(dir, sqlite);
    const figures = await ledger.figures(call.account, WINDOW);
    // At most one call was between its settle and its line, or sent and not yet settled.
    expect(figures.spent).toBeGreaterThanOrEqual(reported);
    expect(figures.spent).toBeLessThanOrEqual(reported + 1);
    expect(figures.reserved).toBe(0);
    await ledger.close();
  });

  it("a killed process's reservations count in full if sent, and cost nothing if not", async () => {
    const dir = newDir();
    const run = storeProcess(
      dir,
      `
      const hold = async (amount, sent) => {
        const r = await ledger.reserve({ ...call, amount });
        if (sent) await ledger.markSent(r.id);
        return r.id;
      };
      await hold(2, true);
      await hold(3, true);
      await hold(50, false);
      await ledger.settle(await hold(1, true), 1);
      console.log('holding');
      setInterval(() => {}, 1000);`,
    );
    await until(() => run.output().includes('holding'), 10_000);
    const ledger = new SqliteLedger(dir, sqlite);
    // While the process lives, its reservations are held.
    expect(await ledger.figures(call.account, WINDOW)).toMatchObject({ spent: 1, reserved: 55 });
    run.child.kill('SIGKILL');
    await run.closed;
    expect(await ledger.figures(call.account, WINDOW)).toMatchObject({
      spent: 6,
      reserved: 0,
      by_tool: { [call.tool]: { calls: 3, credits: 6, cache_hits: 0 } },
    });
    await ledger.close();
  });
});

describe.runIf(sqlite !== undefined)('cache hits', () => {
  it('wait a moment to share a write, and every one reaches the database', async () => {
    const dir = newDir();
    const ledger = new SqliteLedger(dir, sqlite);
    const reader = new SqliteLedger(dir, sqlite);
    for (let i = 0; i < 500; i++) await ledger.recordHit(call.account, WINDOW, call.tool, 2);
    await until(async () => (await reader.figures(call.account, WINDOW)).cache_hits === 500);
    await ledger.recordHit(call.account, WINDOW, call.tool, 2);
    await until(async () => (await reader.figures(call.account, WINDOW)).cache_hits === 501);
    expect(await reader.figures(call.account, WINDOW)).toMatchObject({
      credits_saved: 1002,
      by_tool: { [call.tool]: { calls: 0, credits: 0, cache_hits: 501 } },
    });
    await Promise.all([ledger.close(), reader.close()]);
  });
});

/** A ledger.json as earlier versions wrote it. */
function legacyFile(state: unknown): string {
  const checksum = `sha256:${createHash('sha256').update(JSON.stringify(state)).digest('hex')}`;
  return `${JSON.stringify({ format: 'svc-mcp ledger 1', checksum, state })}\n`;
}

describe.runIf(sqlite !== undefined)('an earlier version’s ledger.json', () => {
  const state = {
    accounts: {
      acct: {
        total: { spent: 0, by_tool: {}, cache_hits: 0, credits_saved: 0 },
        [WINDOW]: {
          spent: 12,
          by_tool: {
            [call.tool]: { calls: 5, credits: 5, cache_hits: 3 },
            get_global_metrics_latest: { calls: 2, credits: 7, cache_hits: 1 },
          },
          cache_hits: 4,
          credits_saved: 9,
        },
      },
    },
    reservations: {
      r1: { ...call, amount: 2, pid: 1, owner: 'gone', at: 0 },
      r2: { ...call, amount: 30, pid: 1, owner: 'gone', at: 0, sent: false },
    },
  };

  it('is imported once with its totals (a reservation that may have been sent as spent), then moved aside', async () => {
    const dir = await withLedger();
    const json = join(dir, 'ledger.json');
    writeFileSync(json, legacyFile(state));
    const expected = {
      spent: 14,
      reserved: 0,
      cache_hits: 4,
      credits_saved: 9,
      by_tool: {
        [call.tool]: { calls: 6, credits: 7, cache_hits: 3 },
        get_global_metrics_latest: { calls: 2, credits: 7, cache_hits: 1 },
      },
    };
    const importing = new SqliteLedger(dir, sqlite);
    expect(await importing.figures('acct', WINDOW)).toEqual(expected);
    await importing.close();
    expect(existsSync(json)).toBe(false);
    expect(readFileSync(`${json}.imported`, 'utf8')).toBe(legacyFile(state));
    // The same file put back is not counted twice.
    writeFileSync(json, legacyFile(state));
    const again = new SqliteLedger(dir, sqlite);
    expect(await again.figures('acct', WINDOW)).toEqual(expected);
    await again.close();
  });

  it('is reported by path when damaged, and left where it is', async () => {
    const dir = await withLedger();
    const json = join(dir, 'ledger.json');
    const edited = legacyFile(state).replace('"spent":12', '"spent":2');
    writeFileSync(json, edited);
    const ledger = new SqliteLedger(dir, sqlite);
    const refused = ledger.reserve({ ...call, amount: 1, budget: 10 });
    await expect(refused).rejects.toThrow(LedgerDamagedError);
    await expect(refused).rejects.toThrow(
      `The credit ledger at ${json} is damaged (its checksum does not match its contents)`,
    );
    expect(readFileSync(json, 'utf8')).toBe(edited);
    await ledger.close();
  });
});

describe.runIf(sqlite !== undefined)('an earlier version’s database', () => {
  it('loses the reservations index it had, keeping what it holds', async () => {
    const dir = newDir();
    const earlier = new SqliteLedger(dir, sqlite);
    const held = await earlier.reserve({ ...call, amount: 3, budget: 10 });
    await earlier.settle(held.ok ? held.id : '', 3);
    const open = await earlier.reserve({ ...call, amount: 2, budget: 10 });
    expect(open.ok).toBe(true);
    await earlier.close();
    const path = join(dir, 'ledger.sqlite');
    const indexes = () => {
      const db = sqlite.open(path);
      const names = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        .all();
      db.close();
      return names.map((row) => row.name);
    };
    // As an earlier version made it.
    const db = sqlite.open(path);
    db.exec('CREATE INDEX reservations_by_window ON reservations (account, window_id)');
    db.close();
    expect(indexes()).toEqual(['reservations_by_window']);
    const later = new SqliteLedger(dir, sqlite);
    expect(await later.figures('acct', WINDOW)).toMatchObject({ spent: 3 });
    await later.close();
    expect(indexes()).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('a state directory that cannot be made', () => {
  it('under /proc: a budgeted call is refused at once, naming the ledger and why', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_latest'], {
      SVC_STATE_DIR: '/proc/svc-nope/state',
      SVC_CREDIT_BUDGET: '10',
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^The credit ledger at /proc/svc-nope/state/${LEDGER_FILE} cannot be used \\(ENOENT.*budgeted calls are refused`,
      ),
    );
  });
});

describe.runIf(sqlite !== undefined)('a damaged database', () => {
  it('is reported by path, and left as it is', async () => {
    const dir = await withLedger();
    const path = join(dir, 'ledger.sqlite');
    writeFileSync(path, 'not a database at all, just some text written over the ledger\n'.repeat(100));
    const ledger = new SqliteLedger(dir, sqlite);
    await expect(ledger.reserve({ ...call, amount: 1, budget: 10 })).rejects.toThrow(
      `The credit ledger at ${path} is damaged (it is not an SQLite database)`,
    );
    await expect(ledger.check()).rejects.toThrow(LedgerDamagedError);
    expect(readFileSync(path, 'utf8')).toMatch(/^not a database/);
    await ledger.close();
  });

  it("another program's SQLite database is not taken for a ledger", async () => {
    const dir = await withLedger();
    const path = join(dir, 'ledger.sqlite');
    rmSync(path);
    const other = sqlite.open(path);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    await expect(new SqliteLedger(dir, sqlite).check()).rejects.toThrow(
      `The credit ledger at ${path} is damaged (it is not an svc-mcp ledger)`,
    );
  });
});
