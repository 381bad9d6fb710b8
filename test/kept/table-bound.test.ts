/**
 * An owner keeps at most 50 live tables, the oldest expiring first, however many processes keep
 * them: two servers on one state directory (a host's server and a one-shot `svc-mcp call` share it
 * alike) keep 30 tables each, the second never having read the owner's tables before, and the
 * owner has 50 live tables, the first two expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

let sandbox: Sandbox;
let servers: Session[] = [];
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  const env = sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off', SVC_STATE_DIR: newStateDir() });
  servers = [await startMcp(env), await startMcp(env)];
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await sandbox?.close();
});

/** Keeps the listing of the first `limit` assets through `server`: its table's name. */
async function keep(server: Session, limit: number): Promise<string> {
  const result = await server.call('get_cryptocurrency_listings_latest', { limit, format: 'json' });
  expect(result.isError, textOf(result)).toBeFalsy();
  return (result.structuredContent as { kept: { table: string } }).kept.table;
}

describe("an owner's kept tables", () => {
  it('are at most 50 live, the oldest expired first, kept through two processes', async () => {
    const [one, other] = servers as [Session, Session];
    const tables: string[] = [];
    for (let limit = 1; limit <= 30; limit++) tables.push(await keep(one, limit));
    for (let limit = 31; limit <= 60; limit++) tables.push(await keep(other, limit));
    // What a process read of the owner's tables it trusts for a second (catalog.ts).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const server of servers) {
      const listed = textOf(await server.call('query_data', { sql: 'SELECT * FROM no_such_table' }));
      expect(listed).toMatch(/^No table no_such_table\. Your tables: .*, and 30 more\.$/);
    }
    // The oldest of the 60 are the ten past the bound.
    for (const table of tables.slice(0, 10)) {
      const expired = textOf(await other.call('query_data', { sql: `SELECT count(*) FROM ${table}` }));
      expect(expired).toContain(`The table ${table} expired at`);
    }
    const live = await other.call('query_data', {
      sql: `SELECT count(*) FROM ${tables[10]}`,
      format: 'json',
    });
    expect((live.structuredContent as { rows: unknown[][] }).rows).toEqual([[11]]);
  });
});
