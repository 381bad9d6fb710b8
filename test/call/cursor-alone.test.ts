/**
 * A cursor sent alone (with a format or not) is the call its `next` gave: the kept result's own
 * arguments are filled in, so a tool whose arguments are required (query_data's sql, a history's
 * asset) pages from it as well as one whose arguments all have defaults, and every page is the one
 * `next` whole would give, with its summary of the arguments the result was fetched with. Nothing
 * is sent and nothing is charged.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW, NOW_MS } from '../helpers/now.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const DAY = 86_400_000;
/** Hourly candles of three assets over six days: 432 rows, several pages in JSON and in text. */
const CANDLES = {
  symbol: 'BTC,ETH,SOL',
  time_period: 'hourly',
  time_start: new Date(NOW_MS - 6 * DAY).toISOString(),
  time_end: NOW,
};
let sandbox: Sandbox;
let mcp: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  // Short text pages: a list of a few hundred rows takes several.
  const env = { SVC_CACHE: 'off', SVC_STATE_DIR: newStateDir(), SVC_TEXT_PAGE_CHARS: '4000' };
  mcp = await startMcp(heavyCallsEnv(sandbox, env));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

const requests = () => [...sandbox.stats.byPath.values()].reduce((a, b) => a + b, 0);

async function call(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await mcp.call(tool, args)) as CallToolResult;
  expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
  return result;
}

/** `next` as the answer gave it, in its structured data or on the text's last line; none on the last page. */
function nextOf(result: CallToolResult): Record<string, unknown> | undefined {
  const next = (result.structuredContent as { next?: Record<string, unknown> } | undefined)?.next;
  const line = /^Next page: (\{.*\})$/m.exec(textOf(result))?.[1];
  return next ?? (line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>));
}

/**
 * Follows `next` from `first` through three of the kept result's pages (or all, when fewer), asking each page twice: with `next` as it is and
 * with its cursor alone (plus the format, when `format` is set). Both answers must be the same page.
 */
async function bothWays(tool: string, first: Record<string, unknown>, format?: 'json') {
  let next = nextOf(await call(tool, first));
  expect(next?.cursor).toEqual(expect.any(String));
  for (let page = 1; next?.cursor !== undefined && page <= 3; page++) {
    const sent = requests();
    const whole = await call(tool, next);
    const alone = await call(tool, { cursor: next.cursor, ...(format ? { format } : {}) });
    // The same page, but for its age, which a second may pass between the two.
    const aged = (text: string) => text.replace(/\d+ s old/, 'N s old');
    expect(aged(textOf(alone))).toBe(aged(textOf(whole)));
    expect(alone.structuredContent).toEqual(whole.structuredContent);
    expect(alone._meta).toMatchObject({ credits: 0 });
    expect(requests()).toBe(sent);
    next = nextOf(whole);
  }
}

describe('a cursor alone', () => {
  it('pages a history whose asset is a required argument, in JSON and in text', async () => {
    await bothWays('get_ohlcv_historical', { ...CANDLES, format: 'json' }, 'json');
    await bothWays('get_ohlcv_historical', CANDLES);
    const first = await call('get_ohlcv_historical', CANDLES);
    const estimate = await call('estimate_cost', {
      calls: [{ tool: 'get_ohlcv_historical', arguments: { cursor: nextOf(first)?.cursor } }],
    });
    expect((estimate.structuredContent as { calls: unknown[] }).calls[0]).toMatchObject({
      credits: 0,
      note: 'A page of a kept result: free.',
    });
  });

  it("pages a query's rows, whose sql is required", async () => {
    const first = await call('get_ohlcv_historical', { ...CANDLES, format: 'json' });
    const { table } = (first.structuredContent as { kept: { table: string } }).kept;
    await bothWays('query_data', { sql: `SELECT * FROM ${table}`, format: 'json' }, 'json');
    await bothWays('query_data', { sql: `SELECT * FROM ${table}` });
  });

  it('is summarised by the arguments its result was fetched with, not the defaults', async () => {
    // The map's summary names its sort, whose default is id.
    await bothWays('get_cryptocurrency_map', { sort: 'svc_rank', limit: 1000 });
    const convert = 'USD,EUR,GBP,JPY,BTC,ETH,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD';
    await bothWays(
      'get_cryptocurrency_listings_latest',
      { limit: 200, convert, sort: 'name', format: 'json' },
      'json',
    );
  });

  it('that is not a cursor is refused, free, saying what a cursor is', async () => {
    const sent = requests();
    // query_data's sql and the history's asset are required: the cursor is what is wrong.
    for (const tool of ['get_cryptocurrency_map', 'query_data', 'get_ohlcv_historical']) {
      const result = (await mcp.call(tool, { cursor: '../../etc/passwd' })) as CallToolResult;
      expect(result.isError, tool).toBe(true);
      expect(textOf(result)).toMatch(/"cursor".*must be the cursor a previous answer's next gave/);
      expect(result._meta).toMatchObject({ credits: 0 });
      const estimate = (await mcp.call('estimate_cost', {
        calls: [{ tool, arguments: { cursor: 'Xk2p9aQ0', format: 'json' } }],
      })) as CallToolResult;
      expect(textOf(estimate)).toMatch(/"cursor".*must be the cursor a previous answer's next gave/);
    }
    expect(requests()).toBe(sent);
  });
});
