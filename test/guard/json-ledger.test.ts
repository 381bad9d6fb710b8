/**
 * Where no SQLite loads (Node 20 without better-sqlite3; a preload hides both here, on any Node):
 * the ledger is kept in ledger.json, a server's line after its banner says so and what to do (a
 * one-shot call says nothing), the budget holds across a restart, and a server that has SQLite
 * later imports the file once with its totals.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditUsage, newStateDir, runCli, textOf } from '../helpers/cli.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { withProcess } from '../helpers/session.js';

const NO_SQLITE = `--import=${fileURLToPath(new URL('../helpers/no-sqlite.mjs', import.meta.url))}`;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.close());

describe('no SQLite', () => {
  it('keeps the ledger in ledger.json, says so once, holds the budget across a restart; SQLite imports it', async () => {
    const dir = newStateDir();
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: dir,
      SVC_CACHE: 'off',
      SVC_CREDIT_BUDGET: '3',
      SVC_CREDIT_WINDOW: 'total',
    });
    const withoutSqlite = { ...env, NODE_OPTIONS: NO_SQLITE };
    await withProcess(withoutSqlite, async (mcp) => {
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      expect((await creditUsage(mcp)).spent).toBe(2);
      const stderr = await mcp.waitForStderr(/ledger\.json/);
      // After the banner, so that a start that fails says only why.
      const [banner, ...rest] = stderr.trimEnd().split('\n');
      expect(banner).toMatch(/^svc-mcp .* on stdio · /);
      expect(rest).toHaveLength(1);
      expect(JSON.parse(rest[0]!)).toMatchObject({ level: 'warn', ledger: 'ledger.json' });
      expect(rest[0]).toMatch(
        /has no built-in SQLite and better-sqlite3 is not installed: the credit ledger is kept in ledger\.json.*run on Node 22\.13 or later, or install better-sqlite3/,
      );
    });
    // A one-shot call keeps it to itself: its cost matters to a running server, not to one call.
    const once = await runCli(['call', 'get_fear_and_greed_latest'], {
      ...withoutSqlite,
      SVC_STATE_DIR: newStateDir(),
    });
    expect(once.code, once.stderr).toBe(0);
    expect(once.stderr).toBe('');
    expect(existsSync(join(dir, 'ledger.json'))).toBe(true);
    expect(existsSync(join(dir, 'ledger.sqlite'))).toBe(false);
    // A restart keeps the spend: one credit is left, then none.
    await withProcess(withoutSqlite, async (mcp) => {
      expect((await creditUsage(mcp)).spent).toBe(2);
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      const refused = await mcp.call('get_fear_and_greed_latest');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/0 credits of the total budget of 3 are left \(3 spent\)/);
    });
    // This Node's SQLite, where it has one, takes the file's totals once, and moves the file aside.
    await withProcess(env, async (mcp) => {
      const usage = await creditUsage(mcp);
      if (!usage.ledger.endsWith('ledger.sqlite')) return; // this Node has no SQLite either
      expect(usage.spent).toBe(3);
      expect(existsSync(join(dir, 'ledger.json'))).toBe(false);
      expect(existsSync(join(dir, 'ledger.json.imported'))).toBe(true);
    });
  });
});
