/**
 * Capping and paging: a history asked for more points than one answer carries is asked of the service
 * only as far as the answer carries, charged for that, and continued through the answer's `next`
 * arguments. Paged to its end, the pages hold every point the whole request would have (none
 * twice, none skipped), the service is asked once a page, and what it charged is the sum of the
 * pages' charges.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_HEADER } from '../../src/catalog/define.js';
import { type McpSession, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';

const KEY = 'sandbox-enterprise';
const CONVERT = 'USD,EUR,BTC,ETH';

let sandbox: Sandbox;
let mcp: McpSession;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(
    heavyCallsEnv(sandbox, {
      SVC_CACHE: 'off',
      // The largest answers, so that paging a long history takes a few pages, not hundreds.
      SVC_MAX_ANSWER_CHARS: '400000',
    }),
  );
});

afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

/** GET on the sandbox itself, as the service answers it (no cap). */
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

/** A series tool, the service path behind it, and where the points' times are in either shape. */
interface SeriesCase {
  label: string;
  tool: string;
  path: string;
  args: Record<string, string | number>;
  /** Each point's time, in the tool's answer and in the service's. */
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

const CASES: SeriesCase[] = [
  ...([{}, { time_start: '2026-10-01T00:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `global metrics, 2,500 at 5m in four currencies, ${'time_start' in range ? 'forward' : 'back from now'}`,
    tool: 'get_global_metrics_historical',
    path: '/v1/global-metrics/quotes/historical',
    args: { count: 2_500, interval: '5m', convert: CONVERT, ...range },
    answerTimes: globalTimes,
    upstreamTimes: globalTimes,
  })),
  ...([{}, { time_start: '2026-09-01T00:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `quotes of one asset, 1,500 hourly, ${'time_start' in range ? 'forward' : 'back from now'}`,
    tool: 'get_cryptocurrency_quotes_historical',
    path: '/v3/cryptocurrency/quotes/historical',
    args: { id: '1', count: 1500, interval: 'hourly', convert: 'USD,EUR,BTC', ...range },
    answerTimes: (d: unknown) =>
      firstSeries((d as { items: unknown }).items).quotes.map((q) => String(q.timestamp)),
    upstreamTimes: (d: unknown) => firstSeries(d).quotes.map((q) => String(q.timestamp)),
  })),
  ...([{}, { time_start: '2022-01-01T12:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `daily candles of one asset, 600, ${'time_start' in range ? 'forward' : 'back from now'}`,
    tool: 'get_ohlcv_historical',
    path: '/v2/cryptocurrency/ohlcv/historical',
    args: { id: '1', count: 600, interval: 'daily', convert: 'USD,EUR,BTC', ...range },
    answerTimes: (d: unknown) =>
      firstSeries((d as { items: unknown }).items).quotes.map((q) => String(q.time_open)),
    upstreamTimes: (d: unknown) => firstSeries(d).quotes.map((q) => String(q.time_open)),
  })),
  ...([{}, { time_start: '2026-06-01T10:00:00Z' }] as Record<string, string>[]).map((range) => ({
    label: `svc100 index, 100 daily values, ${'time_start' in range ? 'forward' : 'back from now'}`,
    tool: 'get_svc100_index_historical',
    path: '/v3/index/svc100-historical',
    args: { count: 100, interval: 'daily', ...range },
    answerTimes: (d: unknown) => ((d as { items: Timed }).items ?? []).map((v) => String(v.update_time)),
    upstreamTimes: (d: unknown) =>
      (d as Timed).map((v) => String(v.update_time)).sort((a, b) => Date.parse(a) - Date.parse(b)),
  })),
];

/** Every page from `args` on, following `next`, with each page's data and charge. */
async function pageThrough(tool: string, args: Record<string, unknown>) {
  const pages: { data: Record<string, unknown>; credits: number }[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next !== undefined) {
    expect(pages.length, 'pages').toBeLessThan(60);
    const result = (await mcp.call(tool, next)) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown>;
    pages.push({ data, credits: Number(result._meta?.credits) });
    next = data.next as Record<string, unknown> | undefined;
  }
  return pages;
}

/** The service's own answer to the whole request (the sandbox serves it whole), as of the frozen now. */
async function wholeTimes(c: SeriesCase): Promise<string[]> {
  const query = Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, String(v)]));
  const body = await upstream(c.path, query);
  return c.upstreamTimes(body.data);
}

describe.each(CASES)('paging $label', (c) => {
  it('reaches the end with every point once, one request and one charge a page', async () => {
    const whole = await wholeTimes(c);
    const requestsBefore = sandbox.stats.byPath.get(c.path) ?? 0;
    const creditsBefore = await creditsUsed();

    const pages = await pageThrough(c.tool, c.args);

    // Capped before asking, and said so, on every page but the last.
    expect(pages.length).toBeGreaterThan(1);
    for (const { data } of pages.slice(0, -1)) {
      expect(data.truncated).toMatch(/^Capped to count=\d+ of [\d,]+ to stay within 400,000 characters/);
    }
    expect(pages.at(-1)?.data.next).toBeUndefined();
    // Pages go forward from time_start, or back from now: either way, together, the whole series.
    const ordered = 'time_start' in c.args ? pages : [...pages].reverse();
    const paged = ordered.flatMap((p) => c.answerTimes(p.data));
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(whole);

    // One request a page, and what the service charged is what the pages say they cost.
    expect((sandbox.stats.byPath.get(c.path) ?? 0) - requestsBefore).toBe(pages.length);
    const charged = pages.reduce((sum, p) => sum + p.credits, 0);
    expect((await creditsUsed()) - creditsBefore).toBe(charged);
  });
});

it('global metrics pages are charged for their own points: a few credits each, not 100', async () => {
  const pages = await pageThrough('get_global_metrics_historical', {
    count: 2_500,
    interval: '5m',
    convert: CONVERT,
  });
  for (const { data, credits } of pages) {
    const points = (data.quotes as unknown[]).length;
    expect(points).toBeGreaterThan(pages.at(-1)?.data === data ? 0 : 200);
    expect(credits).toBe(Math.max(1, Math.ceil(points / 100)));
  }
});

it('a range that ends after now stops at now: no last page of periods not yet come', async () => {
  const pages = await pageThrough('get_global_metrics_historical', {
    time_start: '2026-11-20T12:00:00Z',
    time_end: '2026-11-22T23:00:00Z',
    count: 10_000,
    interval: '5m',
    convert: CONVERT,
  });
  // Two days to the frozen now are 577 periods: three pages of at most 255, the last not empty.
  expect(pages).toHaveLength(3);
  expect((pages[2].data.quotes as unknown[]).length).toBeGreaterThan(40);
});

it('a listing asked for more rows than one answer carries is capped, with the next start', async () => {
  const convert = 'USD,EUR,GBP,JPY,BTC,ETH,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD';
  const requestsBefore = sandbox.stats.byPath.get('/v3/cryptocurrency/listings/latest') ?? 0;
  const result = (await mcp.call('get_cryptocurrency_listings_latest', {
    limit: 5000,
    convert,
  })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  const data = result.structuredContent as { items: unknown[]; next: Record<string, unknown> };
  const kept = data.items.length;
  expect(kept).toBeLessThan(231);
  expect(data.next).toMatchObject({ start: 1 + kept, limit: 5000 - kept, convert });
  expect((sandbox.stats.byPath.get('/v3/cryptocurrency/listings/latest') ?? 0) - requestsBefore).toBe(1);
  // Charged for the rows asked for: 1 per 200 plus 14 extra currencies, not 25 + 14.
  expect(result._meta?.credits).toBe(1 + 14);
});

it("a listing's pages end where the service's rows do: the last one has no next, and no empty page is bought", async () => {
  const convert = 'USD,EUR,GBP,JPY,BTC,ETH,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD';
  const requestsBefore = sandbox.stats.byPath.get('/v3/cryptocurrency/listings/latest') ?? 0;
  const pages = await pageThrough('get_cryptocurrency_listings_latest', { limit: 5000, convert });
  const rows = pages.flatMap((p) => p.data.items as { id: number }[]);
  // The sandbox lists 231 assets: every one once, then no further page.
  expect(rows).toHaveLength(231);
  expect(new Set(rows.map((r) => r.id)).size).toBe(231);
  const last = pages.at(-1)?.data ?? {};
  expect((last.items as unknown[]).length).toBeGreaterThan(0);
  expect(last.next).toBeUndefined();
  expect(last.truncated).toBeUndefined();
  expect((sandbox.stats.byPath.get('/v3/cryptocurrency/listings/latest') ?? 0) - requestsBefore).toBe(
    pages.length,
  );
});

it('next keeps format=json: the next page, sent back as it is, comes as JSON too', async () => {
  const convert = 'USD,EUR,GBP,JPY,BTC,ETH,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD';
  const first = (await mcp.call('get_cryptocurrency_listings_latest', {
    limit: 5000,
    convert,
    format: 'json',
  })) as CallToolResult;
  expect(first.isError, textOf(first)).toBeFalsy();
  const next = (first.structuredContent as { next: Record<string, unknown> }).next;
  expect(next).toMatchObject({ format: 'json', convert });
  expect(JSON.parse(textOf(first)).next).toEqual(next);
  const second = (await mcp.call('get_cryptocurrency_listings_latest', next)) as CallToolResult;
  expect(second.isError, textOf(second)).toBeFalsy();
  expect(JSON.parse(textOf(second)).start).toBe(next.start);
});

/** Thirty currencies: records large enough that each paged list passes the largest answer in the sandbox. */
const THIRTY =
  'USD,EUR,GBP,JPY,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD,BTC,ETH,SEK,NOK,DKK,PLN,CZK,HUF,ZAR,TRY,RUB,HKD,NZD,THB,IDR,MYR,PHP';

describe.each([
  ['get_cryptocurrency_listings_latest', { limit: 5000 }, 'items'],
  ['get_cryptocurrency_listings_latest_v1', { limit: 5000 }, 'items'],
  ['get_cryptocurrency_listings_historical', { date: '2026-11-20', limit: 5000 }, 'items'],
  ['get_new_cryptocurrencies', { limit: 5000 }, 'items'],
  ['get_gainers_losers', { limit: 1000 }, 'items'],
  ['get_trending_cryptocurrencies', { limit: 1000 }, 'items'],
  ['get_most_visited_cryptocurrencies', { limit: 1000 }, 'items'],
  ['get_category', { id: '7a3fa62a7b3fa7bd783fa304', limit: 1000 }, 'coins'],
  ['get_market_pairs', { id: '1', limit: 5000 }, 'market_pairs'],
] as const)('%s in thirty currencies', (tool, args, list) => {
  it('is capped by its declared record size, never cut after the fact, and gives the next start', async () => {
    const result = (await mcp.call(tool, { ...args, convert: THIRTY })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown> & { next?: Record<string, unknown> };
    const kept = (data[list] as unknown[]).length;
    // "Capped", not "Cut": no record was larger than the tool declares.
    expect(data.truncated).toMatch(/^Capped to limit=/);
    expect(data.next).toMatchObject({ ...args, start: 1 + kept, limit: args.limit - kept, convert: THIRTY });
  });
});
