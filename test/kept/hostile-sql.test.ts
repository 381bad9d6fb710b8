/**
 * SQL from someone who means harm, through a real MCP client: nothing but one SELECT runs, nothing
 * is written or attached, a query without end or past its memory is stopped while other calls are
 * answered, no 2 GB blob is made, another key's tables do not exist for the caller, and what the
 * service answers (quotes, semicolons, NUL characters) goes into a table as it is.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { platformUpstream } from '../helpers/upstream-shapes.js';

let sandbox: Sandbox;
let mcp: Session;
let table: string;
const stateDir = newStateDir();

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Fails when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, wait(ms).then(() => Promise.reject(new Error(`no answer within ${ms} ms`)))]);
}

async function count(): Promise<unknown> {
  const result = await mcp.call('query_data', { sql: `SELECT count(*) FROM ${table}`, format: 'json' });
  return (result.structuredContent as { rows: unknown[][] }).rows[0]?.[0];
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(
    sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: stateDir,
      SVC_NOW: NOW,
      SVC_QUERY_MEMORY_MB: '32',
      SVC_QUERY_TIMEOUT_MS: '3000',
    }),
  );
  const listing = await mcp.call('get_cryptocurrency_listings_latest', { limit: 50, format: 'json' });
  table = (listing.structuredContent as { kept: { table: string } }).kept.table;
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

describe('nothing but one SELECT runs', () => {
  it.each([
    ['ATTACH, creating a file', `ATTACH '${join(stateDir, 'evil.db')}' AS evil`, /ATTACH is not allowed/],
    ['DELETE', 'DELETE FROM {t}', /DELETE is not allowed/],
    ['DROP', 'DROP TABLE {t}', /DROP TABLE is not allowed/],
    ['CREATE', 'CREATE TABLE mine (a)', /CREATE TABLE is not allowed/],
    ['CREATE TEMP', 'CREATE TEMP TABLE mine AS SELECT * FROM {t}', /not allowed/],
    ['INSERT', "INSERT INTO {t} (symbol) VALUES ('X')", /INSERT is not allowed/],
    ['UPDATE', 'UPDATE {t} SET rank = 0', /UPDATE is not allowed/],
    ['stacked statements', 'SELECT 1; DROP TABLE {t}', /^One statement a query/],
    ['load_extension', "SELECT load_extension('/tmp/evil.so')", /load_extension/],
    ['PRAGMA writable_schema', 'PRAGMA writable_schema = 1', /PRAGMA is not allowed/],
    ['a pragma as a table', "SELECT * FROM pragma_table_info('{t}')", /PRAGMA is not allowed/],
    ['a transaction', 'BEGIN', /TRANSACTION is not allowed/],
    // Statements the authorizer is not asked about when they have nothing to do.
    ['REINDEX', 'REINDEX', /REINDEX is not allowed/],
    ['REINDEX of a table', 'REINDEX {t}', /REINDEX is not allowed/],
    ['VACUUM', 'VACUUM', /not allowed/],
  ])('%s is refused and changes nothing', async (_, sql, refusal) => {
    const result = await mcp.call('query_data', { sql: sql.replaceAll('{t}', table) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(refusal);
    expect(result._meta).toMatchObject({ credits: 0 });
    expect(await count()).toBe(50);
    expect(existsSync(join(stateDir, 'evil.db'))).toBe(false);
  });
});

describe('bounded', () => {
  it('WITH RECURSIVE without end is stopped within 15 s, while another call is answered within 2 s', async () => {
    const started = Date.now();
    const endless = mcp.call('query_data', {
      sql: 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r',
    });
    await wait(200);
    const other = await within(mcp.call('get_credit_usage'), 2_000);
    expect(other.isError).toBeFalsy();
    await within(mcp.client.ping(), 2_000);
    const stopped = await within(endless, 15_000);
    expect(stopped.isError).toBe(true);
    expect(textOf(stopped)).toMatch(/^The query was stopped at its time bound \(SVC_QUERY_TIMEOUT_MS\)/);
    expect(Date.now() - started).toBeLessThan(15_000);
    // The engine answers the next query.
    expect(await count()).toBe(50);
  });

  it('past its memory bound a query is stopped, saying so; the next query is answered', async () => {
    const result = await mcp.call('query_data', {
      sql: "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 3000000) SELECT x, printf('%.200c', 'x') AS pad FROM r ORDER BY random() LIMIT 1 OFFSET 2999998",
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/more memory than the query engine has \(SVC_QUERY_MEMORY_MB\)/);
    expect(await count()).toBe(50);
  });

  it("rows of large values stop at a query's 16 MB: its first rows, saying so; the engine stays up", async () => {
    // 2,500 rows of 50,000 characters: 125 MB, past the engine's heap, were it all gathered.
    const result = await mcp.call('query_data', {
      sql: `SELECT a.rank, printf('%.50000c', 'x') AS big FROM ${table} a, ${table} b LIMIT 2500`,
      format: 'json',
    });
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const page = result.structuredContent as { more: boolean; truncated: string };
    expect(page.more).toBe(true);
    // Each row counted as 16 bytes a value and its text's characters: 335 rows fit 16 MiB.
    expect(page.truncated).toMatch(/^Rows 1–\d+ of 335;/);
    expect(await count()).toBe(50);
  });

  it('a row longer than an answer carries is refused, naming the row and the bound, in JSON and text', async () => {
    const sql = `SELECT rank, CASE WHEN rank = 3 THEN printf('%.200000c', 'x') ELSE 'short' END AS v FROM ${table} ORDER BY rank`;
    // The pages before the long row are answered; the page that would hold it is refused.
    let answer = await mcp.call('query_data', { sql, format: 'json' });
    const shown: unknown[][] = [];
    while (!answer.isError) {
      const page = answer.structuredContent as { rows: unknown[][]; next: Record<string, unknown> };
      shown.push(...page.rows);
      answer = await mcp.call('query_data', page.next);
    }
    expect(shown).toEqual([
      [1, 'short'],
      [2, 'short'],
    ]);
    const refused = answer;
    expect(textOf(refused)).toBe(
      'Row 3 of this answer is 200,053 characters of JSON, more than one answer carries (100,000 characters, SVC_MAX_ANSWER_CHARS): ask for less of each row (fewer columns, or substr() of a long value).',
    );
    expect(refused._meta).toMatchObject({ credits: 0 });
    const text = await mcp.call('query_data', { sql: `SELECT printf('%.200000c', 'x') AS v` });
    expect(textOf(text)).toMatch(
      /^Row 1 of this answer is 200,\d{3} characters of JSON, more than one answer carries/,
    );
  });

  it('zeroblob(2000000000) makes no 2 GB blob', async () => {
    const before = process.memoryUsage().rss;
    const result = await mcp.call('query_data', { sql: 'SELECT length(zeroblob(2000000000))' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/over 16 MB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(500 * 1024 * 1024);
  });
});

describe("another account's tables", () => {
  it('do not exist for another key on the same state directory', async () => {
    const other = await startMcp(
      sandboxEnv(sandbox, 'sandbox-professional', { SVC_STATE_DIR: stateDir, SVC_NOW: NOW }),
    );
    try {
      const result = await other.call('query_data', { sql: `SELECT * FROM ${table}` });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `No table ${table}. You have no kept tables: each answer with rows keeps them as a table and names it (kept.table), for as long as the answer is kept.`,
      );
      const schema = await other.call('query_data', {
        sql: 'SELECT name FROM sqlite_master',
        format: 'json',
      });
      expect((schema.structuredContent as { rows: unknown[] }).rows).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('what the service answers goes into a table as it is', () => {
  const session = useFakeUpstreamSession();
  const NAMES = [
    "O'Brien's coin",
    "x'); DROP TABLE t; --",
    'a "quoted" name; with -- dashes and /* comment */',
    'tab\there, new\nline, \\ backslash, emoji 🚀',
    'nul\u0000inside',
  ];

  it('quotes, semicolons, comments and NUL characters in its values break nothing', async () => {
    session.upstream.reply('/v1/dex/platform/list', {
      body: NAMES.map((n, i) => ({ ...platformUpstream, id: i + 1, n })),
    });
    const listed = await session.mcp.call('list_dex_platforms', { format: 'json' });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const { table } = (listed.structuredContent as { kept: { table: string } }).kept;
    const result = await session.mcp.call('query_data', {
      sql: `SELECT name FROM ${table} ORDER BY id`,
      format: 'json',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    // A NUL would end the text as SQLite hands it back: it is the one character dropped.
    expect((result.structuredContent as { rows: unknown[][] }).rows.map(([name]) => name)).toEqual(
      NAMES.map((n) => n.replace('\u0000', '')),
    );
  });
});
