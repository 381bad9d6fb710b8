/**
 * The ledger on disk: windows roll at 00:00 UTC (the server's and the embedded sandbox's clocks frozen
 * by SVC_NOW), spend survives a restart and a SIGKILL in the middle of a burst, two processes sharing
 * the directory never overspend together, a damaged ledger is reported by name, never reset, and an
 * earlier version's ledger.json is imported once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditUsage, newStateDir, textOf } from '../helpers/cli.js';
import { startMcp, withServer } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { spawnMcp } from '../helpers/session.js';
import { SQLITE } from '../helpers/sqlite.js';
import { until } from '../helpers/until.js';

/** The server runs on this test's Node: SQLite where it loads (node:sqlite or better-sqlite3), else the JSON file. */
const LEDGER = SQLITE
  ? { file: 'ledger.sqlite', garbage: 'it is not an SQLite database' }
  : { file: 'ledger.json', garbage: 'it is not valid JSON' };

const FNG = '/v3/fear-and-greed/latest';

describe('windows roll at 00:00 UTC', () => {
  const dir = newStateDir();
  const at = (now: string, window = 'day') => ({
    SVC_STATE_DIR: dir,
    SVC_CREDIT_BUDGET: '3',
    SVC_CREDIT_WINDOW: window,
    SVC_CACHE: 'off',
    SVC_NOW: now,
  });

  it('a day window: spent up before midnight, open again after; month and total keep counting', async () => {
    await withServer(at('2026-11-30T23:59:00Z'), async (mcp) => {
      for (let i = 0; i < 3; i++) expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      const refused = await mcp.call('get_fear_and_greed_latest');
      expect(textOf(refused)).toMatch(/The window rolls in 1 min \(2026-12-01 00:00 UTC\)/);
    });
    await withServer(at('2026-12-01T00:01:00Z'), async (mcp) => {
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      expect(await creditUsage(mcp)).toMatchObject({ spent: 1, left: 2 });
    });
    // The same directory counted a month window separately: November's spend is November's.
    await withServer(at('2026-11-30T23:59:30Z', 'month'), async (mcp) => {
      expect(await creditUsage(mcp)).toMatchObject({ spent: 0, left: 3 });
      for (let i = 0; i < 3; i++) await mcp.call('get_fear_and_greed_latest');
    });
    await withServer(at('2026-11-30T23:59:50Z', 'month'), async (mcp) => {
      const refused = await mcp.call('get_fear_and_greed_latest');
      expect(textOf(refused)).toMatch(/0 credits of the month's budget of 3 are left \(3 spent\)/);
    });
    await withServer(at('2026-12-01T00:00:00Z', 'month'), async (mcp) => {
      expect(await creditUsage(mcp)).toMatchObject({ spent: 0, left: 3 });
    });
    await withServer(at('2026-11-22T00:00:00Z', 'total'), async (mcp) => {
      await mcp.call('get_fear_and_greed_latest');
    });
    await withServer(at('2030-01-01T00:00:00Z', 'total'), async (mcp) => {
      const figures = await mcp.call('get_credit_usage');
      expect(figures.structuredContent).toMatchObject({ window: 'total', spent: 1, resets_at: null });
      expect(textOf(figures)).toMatch(/Credits in total: 1 of 3 spent, 2 left/);
    });
  });
});

describe('on disk', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
  });
  afterAll(() => sandbox?.close());
  const requestsTo = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

  it('survives a restart', async () => {
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_STATE_DIR: newStateDir(), SVC_CACHE: 'off' });
    await withServer(env, async (mcp) => {
      await mcp.call('get_fear_and_greed_latest');
      await mcp.call('get_global_metrics_latest', { convert: 'USD,EUR' });
    });
    await withServer(env, async (mcp) => {
      expect(await creditUsage(mcp)).toMatchObject({ spent: 3 });
    });
  });

  it('SIGKILL in the middle of a burst forgets no credit charged before the kill', async () => {
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: newStateDir(),
      SVC_CACHE: 'off',
      SVC_CREDIT_BUDGET: '1000',
    });
    const before = requestsTo(FNG);
    const mcp = await spawnMcp(env);
    // Each answer takes a while, so that the kill finds requests in flight, reserved but not settled.
    sandbox.faults.add({ path: FNG, kind: 'delay', ms: 50, count: 300 });
    let answered = 0;
    const burst = Array.from({ length: 300 }, () =>
      mcp.call('get_fear_and_greed_latest').then(
        (r) => {
          if (!r.isError) answered++;
        },
        () => {},
      ),
    );
    // Kill once some answers are in and, in the same turn, a request has just reached the sandbox:
    // its 50 ms delay cannot have run out yet (its timer is due after this one), so the kill finds
    // it in flight. (Killing at a count of answers alone could fall, on a busy machine, between one
    // group of eight calls answered and the next sent.)
    let reached = requestsTo(FNG);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      const now = requestsTo(FNG);
      if (answered >= 20 && now > reached) break;
      reached = now;
    }
    process.kill(mcp.pid, 'SIGKILL');
    await Promise.allSettled(burst);
    await mcp.close().catch(() => {});
    // Every request that reached the sandbox is charged 1 once its delay ends, answered or not.
    await until(() => requestsTo(FNG) - before > answered);
    sandbox.faults.clear();
    const charged = requestsTo(FNG) - before;
    expect(charged).toBeGreaterThan(answered);
    expect(charged).toBeGreaterThanOrEqual(answered);
    await withServer(env, async (next) => {
      const figures = await creditUsage(next);
      // Calls settled before the kill, and calls whose request was sent before it, both count.
      expect(figures.spent).toBeGreaterThanOrEqual(charged);
      expect(figures.spent).toBeLessThanOrEqual(300);
    });
  });

  it('two processes sharing the directory never overspend together', async () => {
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: newStateDir(),
      SVC_CACHE: 'off',
      SVC_CREDIT_BUDGET: '30',
    });
    const [a, b] = await Promise.all([startMcp(env), startMcp(env)]);
    try {
      const before = requestsTo(FNG);
      const calls = [a, b].flatMap((mcp) =>
        Array.from({ length: 30 }, () => mcp.call('get_fear_and_greed_latest')),
      );
      const answered = (await Promise.all(calls)).filter((r) => !r.isError).length;
      expect(answered).toBe(30);
      expect(requestsTo(FNG) - before).toBe(30);
      expect(await creditUsage(a)).toMatchObject({ spent: 30, left: 0 });
      expect(await creditUsage(b)).toMatchObject({ spent: 30, left: 0 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a damaged ledger is reported by name: budgeted calls stop, nothing is reset or overwritten', async () => {
    const dir = newStateDir();
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: dir,
      SVC_CACHE: 'off',
      SVC_CREDIT_BUDGET: '100',
    });
    await withServer(env, async (mcp) => {
      await mcp.call('get_fear_and_greed_latest');
    });
    const path = join(dir, LEDGER.file);
    const garbage = 'not a database: text written over the ledger\n'.repeat(200);
    writeFileSync(path, garbage);
    await withServer(env, async (mcp) => {
      const before = requestsTo(FNG);
      const result = await mcp.call('get_fear_and_greed_latest');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`The credit ledger at ${path} is damaged (${LEDGER.garbage})`);
      expect(requestsTo(FNG)).toBe(before);
      const figures = await creditUsage(mcp);
      expect(figures.problem).toContain(path);
    });
    expect(readFileSync(path, 'utf8')).toBe(garbage);
    await withServer({ ...env, SVC_CREDIT_BUDGET: '' }, async (mcp) => {
      // Without a budget there is nothing to protect: calls go on, and the file is left alone.
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      expect(textOf(await mcp.call('get_credit_usage'))).toContain(`is damaged (${LEDGER.garbage})`);
    });
    expect(readFileSync(path, 'utf8')).toBe(garbage);
  });

  it.runIf(SQLITE)(
    "an earlier version's ledger.json is imported once: its spend counts against the budget",
    async () => {
      const dir = newStateDir();
      const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_STATE_DIR: dir,
        SVC_CACHE: 'off',
        SVC_CREDIT_BUDGET: '3',
        SVC_CREDIT_WINDOW: 'total',
      });
      // The account is the key's hash, as the guard names it.
      const account = `key:${createHash('sha256').update('sandbox-enterprise').digest('hex').slice(0, 16)}`;
      const state = {
        accounts: {
          [account]: {
            total: {
              spent: 2,
              by_tool: { get_fear_and_greed_latest: { calls: 2, credits: 2, cache_hits: 0 } },
              cache_hits: 0,
              credits_saved: 0,
            },
          },
        },
        reservations: {},
      };
      const checksum = `sha256:${createHash('sha256').update(JSON.stringify(state)).digest('hex')}`;
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'ledger.json'),
        JSON.stringify({ format: 'svc-mcp ledger 1', checksum, state }),
      );
      await withServer(env, async (mcp) => {
        expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
        expect(textOf(await mcp.call('get_fear_and_greed_latest'))).toMatch(
          /0 credits of the total budget of 3/,
        );
      });
      expect(existsSync(join(dir, 'ledger.json'))).toBe(false);
      await withServer(env, async (mcp) => {
        expect(await creditUsage(mcp)).toMatchObject({ spent: 3, left: 0 });
      });
    },
  );
});
