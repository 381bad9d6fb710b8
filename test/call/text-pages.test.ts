/**
 * A text page shows every row it covers, never a sample: a history's headline and then each point,
 * each candle; a page bounded in characters (SVC_TEXT_PAGE_CHARS, 20,000 by default), not in rows,
 * so 200 listed assets or 60 daily candles are one page; the text's "Next page" line continues after
 * the last row shown. A history of one point reads as one sentence. Read through a real MCP client,
 * as a model reads it: the text alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText } from '../helpers/cli.js';
import { openInProcess } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { BONK_CHART } from '../helpers/tool-names.js';

/** A row of a table whose first cell is a time: `2026-11-13 00:00 UTC | …` or `2026-11-13 | …`. */
const TIME_ROW = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2} UTC)?( \(((today|this hour), )?so far\))? \| /;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());

/** The text of each page a reader of text gets, following its "Next page" line to the end. */
async function textPages(mcp: Session, tool: string, args: Record<string, unknown>): Promise<string[]> {
  const pages: string[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next !== undefined) {
    expect(pages.length, `${tool}: pages`).toBeLessThan(60);
    const result = await mcp.call(tool, next);
    const text = firstText(result);
    expect(result.isError, text).toBeFalsy();
    pages.push(text);
    const line = /^Next page: (\{.*\})$/m.exec(text)?.[1];
    next = line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
    // A page of the kept result is the rest; a new request for more than asked is not followed.
    if (next !== undefined && next.cursor === undefined) next = undefined;
  }
  return pages;
}

const timeRows = (text: string) => text.split('\n').filter((line) => TIME_ROW.test(line));

describe('by default', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await openInProcess(heavyCallsEnv(sandbox, { SVC_CACHE: 'off' }));
  });
  afterAll(() => mcp?.close());

  it('60 daily candles are one text page with every candle, today marked as so far', async () => {
    const [page, ...more] = await textPages(mcp, 'get_ohlcv_historical', { symbol: 'BTC', count: 60 });
    expect(more).toEqual([]);
    const rows = timeRows(page as string);
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.slice(0, 10))).size).toBe(60);
    expect(rows.at(-1)).toMatch(/^2026-11-22 \(today, so far\) \| /);
    expect(page).not.toMatch(/shown|evenly spaced|format=json has/);
  });

  it.each([
    ['get_global_metrics_historical', { count: 30, interval: 'daily' }],
    ['get_cryptocurrency_quotes_historical', { symbol: 'ETH', count: 30, interval: 'daily' }],
    ['get_fear_and_greed_historical', { limit: 30 }],
    ['get_svc20_index_historical', { count: 30 }],
    ['get_altcoin_season_index_historical', { timeframe: '30d' }],
  ])('a 30-point history in text shows each point: %s', async (tool, args) => {
    const pages = await textPages(mcp, tool, args);
    expect(pages).toHaveLength(1);
    expect(timeRows(pages[0] as string).length).toBeGreaterThanOrEqual(30);
  });

  it('200 listed assets come in at most 2 text pages, each rank once', async () => {
    const pages = await textPages(mcp, 'get_cryptocurrency_listings_latest', { limit: 200 });
    expect(pages.length).toBeLessThanOrEqual(2);
    const ranks = pages.flatMap((text) =>
      text
        .split('\n')
        .map((line) => /^(\d+) \| /.exec(line)?.[1])
        .filter((rank) => rank !== undefined)
        .map(Number),
    );
    expect(ranks).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('a history of one point reads as one sentence', async () => {
    const text = firstText(
      await mcp.call('get_cryptocurrency_quotes_historical', { symbol: 'BTC', count: 1 }),
    );
    expect(text.split('\n')[0]).toMatch(/^BTC on 2026-11-22 12:00 UTC: \$98,158\.09 \(/);
    const candle = firstText(await mcp.call('get_ohlcv_historical', { symbol: 'BTC', count: 1 }));
    expect(candle.split('\n')[0]).toMatch(
      /^Bitcoin \(BTC\) daily candle of 2026-11-22 \(today, so far\) in USD: open \$[\d,.]+, high .*, close \$98,158\.09/,
    );
  });

  it('several assets: every candle of each, and the page counts periods', async () => {
    const args = { symbol: 'BTC,ETH,SOL', time_period: 'hourly', count: 200 };
    const pages = await textPages(mcp, 'get_ohlcv_historical', args);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap(timeRows)).toHaveLength(600);
    expect(pages[0]).toMatch(/^Periods 1–\d+ of 200; next is the following page, free/m);
  });
});

/** A series' headline lines: "…, 400 points at daily steps: first $4.2T (…), last …, min …, max …, change …". */
const headlines = (text: string) =>
  text.split('\n').filter((line) => /: first .*, last .*, min .*, max /.test(line));

describe('a history of several text pages', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await openInProcess(heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_TEXT_PAGE_CHARS: '3000' }));
  });
  afterAll(() => mcp?.close());

  it('names its rows as its kept line does', async () => {
    const text = firstText(await mcp.call('get_global_metrics_historical', { count: 5, interval: 'daily' }));
    expect(text).toMatch(/^Total market cap \(USD\), 5 points at daily steps: first /);
    expect(text).toMatch(/^5 points kept as /m);
  });

  it.each([
    ['get_global_metrics_historical', { count: 300, interval: 'daily' }, 1],
    ['get_cryptocurrency_quotes_historical', { symbol: 'BTC,ETH', count: 100, interval: 'hourly' }, 2],
    ['get_ohlcv_historical', { symbol: 'BTC,ETH,SOL', time_period: 'hourly', count: 100 }, 3],
    ['get_fear_and_greed_historical', { limit: 300 }, 1],
    ['get_svc20_index_historical', { count: 100 }, 1],
    ['get_kline_candles', { ...BONK_CHART, limit: 300 }, 1],
    ['get_kline_points', { ...BONK_CHART, limit: 500 }, 1],
  ])('%s: every page heads with the whole series, each asset once', async (tool, args, assets) => {
    const pages = await textPages(mcp, tool, args);
    expect(pages.length).toBeGreaterThan(1);
    const first = headlines(pages[0] as string);
    expect(first).toHaveLength(assets);
    for (const page of pages) expect(headlines(page)).toEqual(first);
    // The count is the whole's: as many points as all the pages show, per asset.
    const count = Number(
      /(?:^|[,;] )(\d+) (?:\w+ )?(?:quotes|points|values|candles)\b/.exec(first[0] as string)?.[1],
    );
    expect(count * assets).toBe(pages.flatMap(timeRows).length);
  });
  it("a DEX chart's pages say the call's limit was reached, each of them, by the limit the call sent", async () => {
    const pages = await textPages(mcp, 'get_kline_candles', { ...BONK_CHART, limit: 150 });
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) expect(page).toMatch(/^As many as limit \(150\) asks for: /m);
    expect(pages.join('\n').match(/^As many as limit/gm)).toHaveLength(pages.length);
  });
});

describe('SVC_TEXT_PAGE_CHARS', () => {
  it('bounds the rows a text page shows; following next still shows each row once', async () => {
    const mcp = await openInProcess(
      heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_TEXT_PAGE_CHARS: '3000' }),
    );
    try {
      const pages = await textPages(mcp, 'get_cryptocurrency_listings_latest', { limit: 200 });
      expect(pages.length).toBeGreaterThan(3);
      for (const text of pages) {
        const rows = text.split('\n').filter((line) => /^\d+ \| /.test(line));
        expect(rows.join('\n').length).toBeLessThanOrEqual(3000);
      }
      const ranks = pages.flatMap((text) => text.match(/^\d+(?= \| )/gm)?.map(Number) ?? []);
      expect(ranks).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    } finally {
      await mcp.close();
    }
  });
});
