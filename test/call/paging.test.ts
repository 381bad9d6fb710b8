/**
 * Pay once, page free: a list or history asks the service once for everything its arguments ask
 * for, is charged for that once, and is shown a page at a time; following `next` (in JSON, or the
 * text's "Next page" line) walks every row exactly once, from the kept result, at no cost and
 * with no request. A cursor that cannot be served (its kept result gone, another key's, a row past
 * the end) is refused, free, naming the call that asks again and its price: nothing is fetched that
 * was not asked for. The ledger is compared with what the sandbox counted.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_HEADER } from '../../src/kit/key-header.js';
import { newStateDir, textOf } from '../helpers/cli.js';
import { moveClockAhead, restoreClock } from '../helpers/clock.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { heavyCallsEnv, type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const KEY = 'sandbox-enterprise';
const CONVERT = 'USD,EUR,BTC,ETH';

let sandbox: Sandbox;
let mcp: Session;
let stateDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  stateDir = newStateDir();
  mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: stateDir }));
});

afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

/** GET on the sandbox itself, as the service answers it. */
async function upstream(path: string, query: Record<string, string> = {}): Promise<{ data: unknown }> {
  const url = `${sandbox.url}${path}?${new URLSearchParams(query)}`;
  const response = await fetch(url, { headers: { [DEFAULT_KEY_HEADER]: KEY } });
  expect(response.status, url).toBe(200);
  return (await response.json()) as { data: unknown };
}

async function creditsUsed(): Promise<number> {
  const body = (await upstream('/v1/key/info')) as {
    data: { usage: { current_month: { credits_used: number } } };
  };
  return body.data.usage.current_month.credits_used;
}

const requestsTo = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

/** What estimate_cost says the call costs, before it is made. */
async function estimated(tool: string, args: Record<string, unknown>): Promise<number> {
  const result = (await mcp.call('estimate_cost', { calls: [{ tool, arguments: args }] })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  return (result.structuredContent as { calls: { credits: number }[] }).calls[0]!.credits;
}

/** Every page from `args` on, following the data's `next`, with each page's data and charge. */
async function pageThrough(tool: string, args: Record<string, unknown>) {
  const pages: { data: Record<string, unknown>; credits: number; text: string }[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next !== undefined) {
    expect(pages.length, 'pages').toBeLessThan(200);
    const result = (await mcp.call(tool, next)) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown>;
    pages.push({ data, credits: Number(result._meta?.credits), text: textOf(result) });
    next = data.next as Record<string, unknown> | undefined;
  }
  return pages;
}

/** Every text page, following the text's own "Next page:" line as a model reading text would. */
async function textPages(tool: string, args: Record<string, unknown>, session = mcp) {
  const pages: string[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next !== undefined) {
    expect(pages.length, 'pages').toBeLessThan(200);
    const result = (await session.call(tool, next)) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const text = textOf(result);
    pages.push(text);
    const line = text.split('\n').find((l) => l.startsWith('Next page: '));
    next = line === undefined ? undefined : JSON.parse(line.slice('Next page: '.length));
  }
  return pages;
}

/** A series tool, the service path behind it, and where the points' times are in either shape. */
interface SeriesCase {
  label: string;
  tool: string;
  path: string;
  args: Record<string, string | number>;
  answerTimes(data: Record<string, unknown>): string[];
  upstreamTimes(data: unknown): string[];
}

type Timed = { timestamp?: string; time_open?: string; update_time?: string }[];
const globalTimes = (d: unknown) => ((d as { quotes: Timed }).quotes ?? []).map((q) => String(q.timestamp));
/** The first asset's series: a list, one object for a single id, or objects keyed by id. */
const firstSeries = (d: unknown) =>
  (Array.isArray(d) ? d[0] : 'quotes' in (d as object) ? d : Object.values(d as object)[0]) as {
    quotes: Timed;
  };
const oldestFirst = (times: string[]) => [...times].sort((a, b) => Date.parse(a) - Date.parse(b));

const CASES: SeriesCase[] = [
  ...([{}, { time_start: '2026-10-01T00:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `global metrics, 2,500 at 5m in four currencies${'time_start' in range ? ', from a start' : ''}`,
    tool: 'get_global_metrics_historical',
    path: '/v1/global-metrics/quotes/historical',
    args: { count: 2_500, interval: '5m', convert: CONVERT, ...range },
    answerTimes: globalTimes,
    upstreamTimes: globalTimes,
  })),
  ...([{}, { time_start: '2026-09-01T00:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `quotes of one asset, 1,500 hourly${'time_start' in range ? ', from a start' : ''}`,
    tool: 'get_cryptocurrency_quotes_historical',
    path: '/v3/cryptocurrency/quotes/historical',
    args: { id: '1', count: 1500, interval: 'hourly', convert: 'USD,EUR,BTC', ...range },
    answerTimes: (d: unknown) =>
      firstSeries((d as { items: unknown }).items).quotes.map((q) => String(q.timestamp)),
    upstreamTimes: (d: unknown) => firstSeries(d).quotes.map((q) => String(q.timestamp)),
  })),
  ...([{}, { time_start: '2022-01-01T12:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `daily candles of one asset, 600${'time_start' in range ? ', from a start' : ''}`,
    tool: 'get_ohlcv_historical',
    path: '/v2/cryptocurrency/ohlcv/historical',
    args: { id: '1', count: 600, interval: 'daily', convert: 'USD,EUR,BTC', ...range },
    answerTimes: (d: unknown) =>
      firstSeries((d as { items: unknown }).items).quotes.map((q) => String(q.time_open)),
    upstreamTimes: (d: unknown) => firstSeries(d).quotes.map((q) => String(q.time_open)),
  })),
  ...([{}, { time_start: '2026-06-01T10:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `svc100 index, 100 daily values${'time_start' in range ? ', from a start' : ''}`,
    tool: 'get_svc100_index_historical',
    path: '/v3/index/svc100-historical',
    args: { count: 100, interval: 'daily', ...range },
    answerTimes: (d: unknown) => ((d as { items: Timed }).items ?? []).map((v) => String(v.update_time)),
    upstreamTimes: (d: unknown) => (d as Timed).map((v) => String(v.update_time)),
  })),
];

describe.each(CASES)('$label', (c) => {
  it('one request, charged once as estimated; its pages hold every point once, the rest free', async () => {
    const query = Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, String(v)]));
    const whole = oldestFirst(c.upstreamTimes((await upstream(c.path, query)).data));
    const estimate = await estimated(c.tool, c.args);
    const requestsBefore = requestsTo(c.path);
    const creditsBefore = await creditsUsed();

    const pages = await pageThrough(c.tool, { ...c.args, format: 'json' });

    expect(pages.length).toBeGreaterThan(1);
    expect(requestsTo(c.path) - requestsBefore).toBe(1);
    expect(pages.map((p) => p.credits)).toEqual([estimate, ...pages.slice(1).map(() => 0)]);
    expect((await creditsUsed()) - creditsBefore).toBe(estimate);
    for (const { data } of pages.slice(0, -1)) {
      expect(data.truncated).toMatch(/^Rows [\d,]+–[\d,]+ of [\d,]+; next is the following page, free/);
      expect((data.next as Record<string, unknown>).cursor).toMatch(/^[\w-]{16}\.\d+$/);
    }
    expect(pages.at(-1)?.data.next).toBeUndefined();
    const paged = pages.flatMap((p) => c.answerTimes(p.data));
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(whole);
  });
});

describe('a listing of more rows than one answer carries', () => {
  const convert = 'USD,EUR,GBP,JPY,BTC,ETH,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD';
  const LISTINGS = '/v3/cryptocurrency/listings/latest';
  /** A server on the same state directory whose text pages are short: a text page has a cursor. */
  let narrow: Session;
  beforeAll(async () => {
    narrow = await startMcp(
      heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: stateDir, SVC_TEXT_PAGE_CHARS: '2000' }),
    );
  });
  afterAll(() => narrow?.close());

  it('is one request, charged once; its JSON pages hold all 231 assets once, then end', async () => {
    const args = { limit: 5000, convert, format: 'json' };
    const estimate = await estimated('get_cryptocurrency_listings_latest', args);
    const requestsBefore = requestsTo(LISTINGS);
    const creditsBefore = await creditsUsed();
    const pages = await pageThrough('get_cryptocurrency_listings_latest', args);
    expect(requestsTo(LISTINGS) - requestsBefore).toBe(1);
    // Estimated at the 5,000 asked for (1 per 200, and 14 extra currencies); charged for the 231
    // the service returned, as it reports.
    expect(estimate).toBe(25 + 14);
    expect(pages.map((p) => p.credits)).toEqual([2 + 14, ...pages.slice(1).map(() => 0)]);
    expect((await creditsUsed()) - creditsBefore).toBe(2 + 14);
    const rows = pages.flatMap((p) => p.data.items as { id: number }[]);
    expect(rows).toHaveLength(231);
    expect(new Set(rows.map((r) => r.id)).size).toBe(231);
    // Fewer rows than asked for: the service has no more, so the last page has no next.
    expect(pages.at(-1)?.data.next).toBeUndefined();
    expect(pages.at(-1)?.data.truncated).toMatch(/, the last$/);
    // Each JSON page keeps to the answer's bound, and says which rows it holds.
    for (const { text } of pages) expect(text.length).toBeLessThanOrEqual(100_000);
  });

  it("the map's text pages, followed by their own Next page line, show every asset once", async () => {
    const pages = await textPages('get_cryptocurrency_map', { limit: 50 }, narrow);
    const ids = pages.flatMap((text) =>
      text
        .split('\n')
        .filter((line) => /^\d+ \| /.test(line))
        .map((line) => Number(line.split(' | ')[0])),
    );
    expect(ids).toHaveLength(231);
    expect(new Set(ids).size).toBe(231);
    // The first text page shows the rows its 2,000 characters hold, and its next starts after them.
    const [, shown] = /^Rows 1–(\d+) of 50; next is the following page, free/m.exec(pages[0] as string) ?? [];
    expect(Number(shown)).toBeGreaterThan(10);
    expect(pages[0]).toMatch(
      new RegExp(
        `^Next page: \\{"start":${Number(shown) + 1},"limit":${50 - Number(shown)},.*"cursor":"[\\w-]{16}\\.${shown}"\\}$`,
        'm',
      ),
    );
    // The last page of 50 as full as asked may have more: a next asking the service for them.
    const fiftieth = pages.findIndex((text) => /^Rows \d+–50; the service may have more/m.test(text));
    expect(pages[fiftieth]).toMatch(/^Next page: \{"start":51,"limit":50,"sort":"id"\}$/m);
    expect(pages.at(-1)).not.toMatch(/^Next page:/m);
  });

  it('next keeps format=json: sent back as it is, the next page comes as JSON too', async () => {
    const first = (await mcp.call('get_cryptocurrency_listings_latest', {
      limit: 300,
      format: 'json',
      convert,
    })) as CallToolResult;
    const next = (first.structuredContent as { next: Record<string, unknown> }).next;
    expect(next).toMatchObject({ format: 'json', convert });
    expect(JSON.parse(textOf(first)).next).toEqual(next);
    const second = (await mcp.call('get_cryptocurrency_listings_latest', next)) as CallToolResult;
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(JSON.parse(textOf(second)).start).toBe(next.start);
    expect(second._meta).toMatchObject({ credits: 0, stored: true });
  });

  it('a page asked for after its kept result is gone is refused, free, naming the call that asks again and its price', async () => {
    const first = (await narrow.call('get_cryptocurrency_listings_latest', { limit: 100 })) as CallToolResult;
    const next = (first.structuredContent as { next: Record<string, unknown> }).next;
    // Past its keep time (at least 10 minutes): gone from the files and from memory alike.
    moveClockAhead(11 * 60_000);
    const requestsBefore = requestsTo(LISTINGS);
    const usedBefore = await creditsUsed();
    const again = (await narrow
      .call('get_cryptocurrency_listings_latest', next)
      .finally(restoreClock)) as CallToolResult;
    expect(again.isError, textOf(again)).toBe(true);
    expect(requestsTo(LISTINGS)).toBe(requestsBefore);
    expect(await creditsUsed()).toBe(usedBefore);
    expect(again._meta).toMatchObject({ credits: 0 });
    const { cursor: _, ...askAgain } = next;
    expect(textOf(again)).toBe(
      `The page this cursor names cannot be served: its kept result is gone (results are kept for their endpoint's refresh time, at least 10 minutes) or was never this key's. Nothing was sent or charged. To ask the service again for these rows: ${JSON.stringify(askAgain)} (1 credit).`,
    );
  });

  it('a cursor alone that cannot be served, or one past the last row, is refused free and says what to do', async () => {
    const usedBefore = await creditsUsed();
    const requestsBefore = requestsTo(LISTINGS);
    const alone = (await mcp.call('get_cryptocurrency_listings_latest', {
      cursor: 'AAAAAAAAAAAAAAAA.20',
    })) as CallToolResult;
    expect(alone.isError).toBe(true);
    expect(textOf(alone)).toMatch(
      /cannot be served: its kept result is gone .* Nothing was sent or charged\. Call the tool again with the first call's arguments: its next gives a new cursor\.$/,
    );
    const first = (await narrow.call('get_cryptocurrency_listings_latest', { limit: 100 })) as CallToolResult;
    const next = (first.structuredContent as { next: { cursor: string } }).next;
    const pastEnd = next.cursor.replace(/\.\d+$/, '.100');
    const beyond = (await narrow.call('get_cryptocurrency_listings_latest', {
      cursor: pastEnd,
    })) as CallToolResult;
    expect(beyond.isError).toBe(true);
    expect(textOf(beyond)).toMatch(/cannot be served: row 101 is past the kept result's 100 rows\./);
    // Row 0 is no cursor's: the first page is the call's own answer.
    const first0 = (await narrow.call('get_cryptocurrency_listings_latest', {
      cursor: next.cursor.replace(/\.\d+$/, '.0'),
    })) as CallToolResult;
    expect(first0.isError).toBe(true);
    expect(textOf(first0)).toMatch(
      /cannot be served: row 1 begins the first page, which the call itself answers and no cursor names\./,
    );
    // Another key on the same state directory: the result does not exist for it.
    const other = await startMcp(
      sandboxEnv(sandbox, 'sandbox-professional', { SVC_STATE_DIR: stateDir, SVC_NOW: NOW }),
    );
    try {
      const theirs = (await other.call('get_cryptocurrency_listings_latest', next)) as CallToolResult;
      expect(theirs.isError).toBe(true);
      expect(theirs.structuredContent).toBeUndefined();
      expect(textOf(theirs)).toMatch(/cannot be served: its kept result is gone .* or was never this key's/);
    } finally {
      await other.close();
    }
    expect(requestsTo(LISTINGS) - requestsBefore).toBe(1);
    expect((await creditsUsed()) - usedBefore).toBe(1);
  });

  it('estimate_cost prices an unservable cursor as the refusal it would get', async () => {
    const result = (await mcp.call('estimate_cost', {
      calls: [{ tool: 'get_cryptocurrency_listings_latest', arguments: { cursor: 'AAAAAAAAAAAAAAAA.20' } }],
    })) as CallToolResult;
    const [call] = (result.structuredContent as { calls: { error?: string }[] }).calls;
    expect(call?.error).toMatch(/cannot be served/);
  });

  it('quotes of 200 assets in three currencies: paid once, and every asset is on some page', async () => {
    const ids = ((await upstream('/v1/cryptocurrency/map', { limit: '200' })).data as { id: number }[]).map(
      (a) => a.id,
    );
    const pages = await pageThrough('get_cryptocurrency_quotes_latest', {
      id: ids.join(','),
      convert: 'USD,EUR,BTC',
      format: 'json',
    });
    const seen = pages.flatMap((p) => (p.data.items as { id: number }[]).map((a) => a.id));
    expect(seen.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(pages.map((p) => p.credits)).toEqual([2 + 2, ...pages.slice(1).map(() => 0)]);
  });
});
