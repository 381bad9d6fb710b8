/**
 * A kept result whose write failed is not taken as kept. An answer whose rows all fit its page does
 * not wait for its write; when that write fails, the same answer asked again with pages keeps it
 * again, so that its cursor names a result that is there. The write is made to fail the way a
 * store fails as root too: a directory stands where the result's file goes. Its id is learnt from
 * another server making the same call at the same instant (the id is whose, the tool, the
 * arguments and when the service answered: kept/names.ts).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW_MS } from '../helpers/now.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';

const LISTINGS = { limit: 40 };

/** The ids of the results kept in a state directory. */
function keptIds(stateDir: string): string[] {
  return readdirSync(join(stateDir, 'results'))
    .filter((name) => name.endsWith('.result'))
    .map((name) => name.slice(0, -'.result'.length));
}

describe('a kept result whose write failed', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A server of its own whose clock stands still at the tests' instant: each call is fetched at it. */
  async function serverAt(stateDir: string) {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
    // Text pages of a few rows, so that the listings are one JSON page and several text pages.
    return startMcp(heavyCallsEnv(sandbox, { SVC_STATE_DIR: stateDir, SVC_TEXT_PAGE_CHARS: '2000' }));
  }

  it('is kept again by the same answer asked with pages, and its cursor is served', async () => {
    const elsewhere = newStateDir();
    const first = await serverAt(elsewhere);
    const one = await first.call('get_cryptocurrency_listings_latest', { ...LISTINGS, format: 'json' });
    await first.close();
    expect(one.isError, textOf(one)).toBeFalsy();
    const [id, ...others] = keptIds(elsewhere);
    expect(others).toEqual([]);

    const stateDir = newStateDir();
    const blocking = join(stateDir, 'results', `${id}.result`);
    mkdirSync(join(blocking, 'in the way'), { recursive: true });
    const mcp = await serverAt(stateDir);
    try {
      const whole = await mcp.call('get_cryptocurrency_listings_latest', { ...LISTINGS, format: 'json' });
      expect(whole.isError, textOf(whole)).toBeFalsy();
      // One page: the service may have more (a new request), nothing kept to page through.
      expect((whole.structuredContent as { next?: object }).next).not.toHaveProperty('cursor');
      // The answer did not wait for the write; it failed, saying so, and left nothing behind.
      await mcp.logs.waitFor(/a result could not be written: it is not kept/);
      expect(readdirSync(join(stateDir, 'results')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      rmSync(blocking, { recursive: true });

      // The cached answer again, in text pages: its first page's cursor names a result that is there.
      const paged = await mcp.call('get_cryptocurrency_listings_latest', LISTINGS);
      expect(paged.isError, textOf(paged)).toBeFalsy();
      const next = (paged.structuredContent as { next?: { cursor?: string } }).next;
      expect(next?.cursor, textOf(paged)).toMatch(new RegExp(`^${id}\\.\\d+$`));
      const second = await mcp.call('get_cryptocurrency_listings_latest', next as Record<string, unknown>);
      expect(second.isError, textOf(second)).toBeFalsy();
      expect(second._meta).toMatchObject({ credits: 0 });
      expect(keptIds(stateDir)).toEqual([id]);
      // Its table reads the result now kept: every row.
      const { table } = (paged.structuredContent as { kept: { table: string } }).kept;
      const count = await mcp.call('query_data', {
        sql: `SELECT count(*) AS n FROM ${table}`,
        format: 'json',
      });
      expect(count.structuredContent, textOf(count)).toMatchObject({ rows: [[LISTINGS.limit]] });
    } finally {
      await mcp.close();
    }
  });
});
