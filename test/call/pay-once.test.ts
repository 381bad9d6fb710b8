/**
 * Pay once (#39), on the sandbox with the ledger compared to what the sandbox counted and charged:
 * a month of hourly candles for ten assets is one request whose estimate is what walking every page
 * costs; a refusal says what would fit; candles are spaced as asked, run to now from a start, and
 * the one still open is marked; an unknown asset is a free refusal on every tool that names assets;
 * spend is booked under the tool called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_HEADER } from '../../src/kit/key-header.js';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW, NOW_MS } from '../helpers/now.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { BONK_CHART } from '../helpers/tool-names.js';

const TEN = 'BTC,ETH,SOL,BNB,XRP,ADA,DOGE,TRX,AVAX,LINK';
const HOUR = 3_600_000;
const MONTH = { time_start: new Date(NOW_MS - 31 * 24 * HOUR).toISOString(), time_end: NOW };
const OHLCV = '/v2/cryptocurrency/ohlcv/historical';

let sandbox: Sandbox;
let mcp: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: newStateDir() }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

const requestsTo = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

async function sandboxCredits(): Promise<number> {
  const response = await fetch(`${sandbox.url}/v1/key/info`, {
    headers: { [DEFAULT_KEY_HEADER]: 'sandbox-enterprise' },
  });
  const body = (await response.json()) as { data: { usage: { current_month: { credits_used: number } } } };
  return body.data.usage.current_month.credits_used;
}

async function ledgerSpent(
  session = mcp,
): Promise<{ spent: number; by_tool: Record<string, { credits: number }> }> {
  const result = await session.call('get_credit_usage', { format: 'json' });
  return result.structuredContent as { spent: number; by_tool: Record<string, { credits: number }> };
}

type Candles = { items: { symbol: string; quotes: { time_open: string; complete: boolean }[] }[] };

describe('a month of hourly candles for ten assets', () => {
  const args = { symbol: TEN, time_period: 'hourly', ...MONTH };

  it('is estimated, charged and paged as one request: the estimate is what walking every page costs', async () => {
    const planned = await mcp.call('estimate_cost', {
      calls: [{ tool: 'get_ohlcv_historical', arguments: args }],
    });
    const estimate = (planned.structuredContent as { total: number }).total;
    // 744 hourly periods of ten assets: 7,440 points, 1 credit per started 100.
    expect(estimate).toBe(75);
    const requestsBefore = requestsTo(OHLCV);
    const creditsBefore = await sandboxCredits();
    const spentBefore = (await ledgerSpent()).spent;
    let paid = 0;
    const seen = new Map<string, Set<string>>();
    let next: Record<string, unknown> | undefined = { ...args, format: 'json' };
    for (let page = 0; next !== undefined; page++) {
      expect(page).toBeLessThan(100);
      const result = await mcp.call('get_ohlcv_historical', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      paid += Number(result._meta?.credits);
      const data = result.structuredContent as Candles & { next?: Record<string, unknown> };
      for (const a of data.items) {
        const times = seen.get(a.symbol) ?? new Set();
        for (const c of a.quotes) {
          expect(times.has(c.time_open), `${a.symbol} ${c.time_open} twice`).toBe(false);
          times.add(c.time_open);
        }
        seen.set(a.symbol, times);
      }
      next = data.next;
    }
    expect(paid).toBe(estimate);
    expect(requestsTo(OHLCV) - requestsBefore).toBe(1);
    expect((await sandboxCredits()) - creditsBefore).toBe(estimate);
    expect((await ledgerSpent()).spent - spentBefore).toBe(estimate);
    expect([...seen.values()].map((times) => times.size)).toEqual(Array(10).fill(744));
  });

  it('refused when it does not fit, saying what would: fewer assets, or fewer days', async () => {
    const poor = await startMcp(
      heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: newStateDir(), SVC_CREDIT_BUDGET: '40' }),
    );
    try {
      const before = requestsTo(OHLCV);
      const refused = await poor.call('get_ohlcv_historical', args);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /^Refused before sending: this call is estimated at 75 credits, but 40 credits of the day's budget of 40 are left .* To make it fit now: send the first 5 of the 10 symbols alone, or count=400 \(about 16 days\) or less\.$/,
      );
      expect(requestsTo(OHLCV)).toBe(before);
      // Each suggestion fits what is left, as priced; the first, sent, is answered.
      const fewer = { ...args, symbol: TEN.split(',').slice(0, 5).join(',') };
      for (const fits of [fewer, { ...args, count: 400 }]) {
        const priced = await poor.call('estimate_cost', {
          calls: [{ tool: 'get_ohlcv_historical', arguments: fits }],
        });
        expect(priced.structuredContent).toMatchObject({ fits: true });
      }
      const answer = await poor.call('get_ohlcv_historical', { ...fewer, format: 'json' });
      expect(answer.isError, textOf(answer)).toBeFalsy();
    } finally {
      await poor.close();
    }
  });

  it('a shorter count that fits is told in the time it spans, in words for its size', async () => {
    const tight = await startMcp(
      heavyCallsEnv(sandbox, { SVC_STATE_DIR: newStateDir(), SVC_MAX_CREDITS_PER_CALL: '1' }),
    );
    try {
      const refused = await tight.call('get_cryptocurrency_quotes_historical', {
        symbol: TEN,
        interval: '5m',
        count: 2000,
      });
      expect(textOf(refused)).toMatch(/ To make it fit now: send count=10 \(about 50 minutes\) or less\.$/);
    } finally {
      await tight.close();
    }
  });

  it('over the per-call limit by default, the same: refused before sending, what fits said', async () => {
    const plain = await startMcp(
      heavyCallsEnv(sandbox, { SVC_STATE_DIR: newStateDir(), SVC_MAX_CREDITS_PER_CALL: '25' }),
    );
    try {
      const refused = await plain.call('get_ohlcv_historical', args);
      expect(textOf(refused)).toMatch(
        /over the limit of 25 per call \(SVC_MAX_CREDITS_PER_CALL\)\. To make it fit now: send the first 3 of the 10 symbols alone, or count=250 \(about 10 days\) or less\.$/,
      );
    } finally {
      await plain.close();
    }
  });
});

describe('a range longer than one request carries (10,000 periods)', () => {
  it('is asked for in as few requests as that allows: the last kept page asks for the rest', async () => {
    const args = {
      interval: '5m',
      time_start: new Date(NOW_MS - 40 * 24 * HOUR).toISOString(),
      format: 'json',
    };
    const requestsBefore = requestsTo('/v1/global-metrics/quotes/historical');
    const times: string[] = [];
    /** Each page's note and the requests made by then: what a failure shows. */
    const notes: string[] = [];
    const requests = () => requestsTo('/v1/global-metrics/quotes/historical') - requestsBefore;
    let next: Record<string, unknown> | undefined = args;
    for (let page = 0; next !== undefined; page++) {
      expect(page).toBeLessThan(200);
      const result = await mcp.call('get_global_metrics_historical', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      const data = result.structuredContent as {
        quotes: { timestamp: string }[];
        next?: Record<string, unknown>;
        truncated?: string;
      };
      times.push(...data.quotes.map((q) => q.timestamp));
      notes.push(`page ${page + 1}, ${requests()} requests: ${data.truncated}`);
      next = data.next;
    }
    expect(requests(), notes.join('\n')).toBe(2);
    expect(new Set(times).size).toBe(times.length);
    expect(times.length).toBeGreaterThan(10_000);
    expect(Date.parse(times.at(-1) as string)).toBeGreaterThan(NOW_MS - 10 * 60_000);
  });
});

describe('candles', () => {
  it('time_period=hourly alone gives hourly candles, an hour apart', async () => {
    const result = await mcp.call('get_ohlcv_historical', {
      symbol: 'BTC',
      time_period: 'hourly',
      format: 'json',
    });
    const times = (result.structuredContent as Candles).items[0]!.quotes.map((c) => Date.parse(c.time_open));
    expect(times).toHaveLength(10);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(Array(9).fill(HOUR));
    expect((result.structuredContent as { interval: string }).interval).toBe('hourly');
  });

  it('time_start alone runs to now, not to the service default of 10', async () => {
    const time_start = new Date(NOW_MS - 30 * 24 * HOUR).toISOString();
    const result = await mcp.call('get_ohlcv_historical', { symbol: 'ETH', time_start, format: 'json' });
    const quotes = (result.structuredContent as Candles).items[0]!.quotes;
    expect(quotes.length).toBe(30);
    expect(quotes.at(-1)?.time_open.slice(0, 10)).toBe(NOW.slice(0, 10));
  });

  it('the candle still open is marked, in the data and in the text, on every tool that returns candles', async () => {
    const daily = await mcp.call('get_ohlcv_historical', { symbol: 'BTC', count: 3 });
    const quotes = (daily.structuredContent as Candles).items[0]!.quotes;
    expect(quotes.map((c) => c.complete)).toEqual([true, true, false]);
    expect(textOf(daily)).toMatch(/so far\) \|/);
    expect(textOf(daily)).toMatch(/is not closed yet: its figures are so far/);
    const today = await mcp.call('get_ohlcv_latest', { symbol: 'BTC' });
    expect((today.structuredContent as { items: { complete: boolean }[] }).items[0]!.complete).toBe(false);
    expect(textOf(today)).toMatch(/not closed: figures so far/);
    const dex = await mcp.call('get_kline_candles', { ...BONK_CHART, interval: '1h', limit: 3 });
    expect(dex.isError, textOf(dex)).toBeFalsy();
    const candles = (dex.structuredContent as { candles: { complete: boolean }[] }).candles;
    expect(candles.at(-1)?.complete).toBe(false);
    expect(candles.slice(0, -1).every((c) => c.complete)).toBe(true);
  });

  it('daily candles closer than a day are refused, naming time_period; hourly sampled daily is said so', async () => {
    const refused = await mcp.call('get_ohlcv_historical', { symbol: 'BTC', interval: '1h' });
    expect(textOf(refused)).toMatch(
      /^Invalid value for "interval": must be daily or longer with daily candles; for hourly candles send time_period=hourly\./,
    );
    const sampled = await mcp.call('get_ohlcv_historical', {
      symbol: 'BTC',
      time_period: 'hourly',
      interval: 'daily',
      count: 3,
    });
    expect(textOf(sampled)).toMatch(
      /^Bitcoin \(BTC\) hourly close, one candle at each daily step in USD, 3 points/,
    );
  });
});

describe('an unknown asset', () => {
  const CASES: [string, Record<string, unknown>][] = [
    ['get_ohlcv_historical', { symbol: 'NOTACOIN' }],
    ['get_ohlcv_latest', { symbol: 'NOTACOIN' }],
    ['get_cryptocurrency_quotes_latest', { symbol: 'NOTACOIN' }],
    ['get_cryptocurrency_quotes_latest_v2', { symbol: 'NOTACOIN' }],
    ['get_cryptocurrency_quotes_historical', { symbol: 'NOTACOIN' }],
    ['get_cryptocurrency_info', { symbol: 'NOTACOIN' }],
    ['get_price_performance', { symbol: 'NOTACOIN' }],
    ['analyze_assets', { symbol: 'NOTACOIN' }],
  ];

  it.each(CASES)(
    '%s: a free refusal naming it, pointing at search_cryptocurrencies once',
    async (tool, args) => {
      const creditsBefore = await sandboxCredits();
      const result = await mcp.call(tool, args);
      expect(result.isError).toBe(true);
      expect(result._meta?.credits).toBe(0);
      const text = textOf(result);
      expect(text).toContain('NOTACOIN');
      expect(text.match(/search_cryptocurrencies/g)).toHaveLength(1);
      // Only what this tool takes is suggested.
      if (tool === 'analyze_assets') expect(text).not.toContain('skip_invalid');
      expect(await sandboxCredits()).toBe(creditsBefore);
    },
  );

  it('skip_invalid: true, where the tool takes it, answers the known rest', async () => {
    const result = await mcp.call('get_ohlcv_historical', {
      symbol: 'BTC,NOTACOIN',
      skip_invalid: true,
      count: 2,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as Candles).items.map((a) => a.symbol)).toEqual(['BTC']);
  });
});

describe('what is spent', () => {
  it("is booked under the tool the person called: analyze_assets' candles under analyze_assets", async () => {
    const session = await startMcp(
      heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: newStateDir() }),
    );
    try {
      const result = await session.call('analyze_assets', { symbol: 'ETH, SOL' });
      expect(result.isError, textOf(result)).toBeFalsy();
      const { by_tool } = await ledgerSpent(session);
      expect(Object.keys(by_tool)).toEqual(['analyze_assets']);
      expect(by_tool.analyze_assets?.credits).toBe(result._meta?.credits);
    } finally {
      await session.close();
    }
  });
});
