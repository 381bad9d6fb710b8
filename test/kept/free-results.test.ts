/**
 * A query's rows are a free result: anyone, a key made up for it too, can make them again for
 * nothing, so the result store keeps them apart from what was paid for (`<id>.free.result`), pushes
 * them out first and never lets them push out a paid result (test/cache/results.test.ts and
 * test/redis/results.test.ts hold the bounds). A query whose rows cannot be kept says so, with no
 * `next` that would only answer its first page again.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

type Paged = { next?: { cursor?: string }; truncated?: string; rows?: unknown[][] };

let sandbox: Sandbox;
let mcp: Session;
const stateDir = newStateDir();
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: stateDir }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

/** The result files whose id the cursor names. */
function filesOf(cursor: string | undefined): string[] {
  const id = cursor?.split('.')[0] ?? '';
  return readdirSync(join(stateDir, 'results')).filter((name) => name.startsWith(`${id}.`));
}

/** `count` rows of `chars` characters each, from no table. */
const rowsSql = (count: number, text: string) =>
  `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < ${count}) SELECT i, ${text} AS t FROM r`;

describe("a query's rows, kept", () => {
  it('are a free result; an endpoint answer is a paid one', async () => {
    const listing = await mcp.call('get_cryptocurrency_listings_latest', { limit: 300, format: 'json' });
    const paid = (listing.structuredContent as Paged).next?.cursor;
    expect(filesOf(paid)).toEqual([`${paid?.split('.')[0]}.result`]);
    const queried = await mcp.call('query_data', { sql: rowsSql(20_000, "'row'"), format: 'json' });
    expect(queried.isError, textOf(queried)).toBeFalsy();
    const { next } = queried.structuredContent as Paged;
    const free = next?.cursor;
    expect(filesOf(free)).toEqual([`${free?.split('.')[0]}.free.result`]);
    const second = await mcp.call('query_data', { ...next, format: 'json' });
    expect(second._meta).toMatchObject({ credits: 0, stored: true });
    expect((second.structuredContent as Paged).rows?.[0]?.[0]).toBeGreaterThan(1);
  });

  it('that cannot be kept say so, with no next to follow', async () => {
    // 6,000 values of 1,000 control characters: 6 MB as values, 36 MB as JSON, past what a result keeps.
    const sql = rowsSql(6_000, "replace(printf('%.1000c', 'x'), 'x', char(1))");
    const queried = await mcp.call('query_data', { sql, format: 'json' });
    expect(queried.isError, textOf(queried)).toBeFalsy();
    const page = queried.structuredContent as Paged;
    expect(page.next).toBeUndefined();
    expect(page.truncated).toMatch(
      /of 6,000; the rest could not be kept: ask for fewer rows \(LIMIT and OFFSET\)/,
    );
  });
});
