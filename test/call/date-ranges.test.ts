/**
 * A series asked for between two dates answers the whole range: with time_start and time_end and
 * no count, the tool asks for every period between them (counted as the estimate counts them), in
 * one request, answered a page at a time; the indices, whose service answers at most 10 values
 * with both bounds, are asked for that many values back from time_end instead, in one request too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_HEADER } from '../../src/kit/key-header.js';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { NOW, NOW_MS } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Math.floor(NOW_MS / DAY) * DAY - days * DAY).toISOString();
const RANGE = { time_start: daysAgo(90), time_end: daysAgo(0) };

let sandbox: Sandbox;
let session: InProcessSession;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  session = await openInProcess(
    sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_NOW: NOW,
      SVC_TOOLSETS: 'all',
      SVC_MAX_CREDITS_PER_CALL: '100',
    }),
  );
});
afterAll(async () => {
  await session?.close();
  await sandbox?.close();
});

type Series = { items: { quotes: { time_open?: string; timestamp?: string }[] }[] };

describe('both bounds and no count: every period between them', () => {
  it('OHLCV candles, daily over 90 days: 90 candles (time_start is exclusive), priced as sent', async () => {
    const args = { symbol: 'ETH', interval: 'daily', ...RANGE };
    const priced = await session.call('estimate_cost', {
      calls: [{ tool: 'get_ohlcv_historical', arguments: args }],
    });
    const result = await session.call('get_ohlcv_historical', args);
    const candles = (result.structuredContent as Series).items[0]!.quotes;
    expect(candles).toHaveLength(90);
    expect(candles[0]!.time_open?.slice(0, 10)).toBe(daysAgo(89).slice(0, 10));
    expect(textOf(result)).toMatch(/^Ethereum \(ETH\) daily close in USD, 90 points/);
    expect((priced.structuredContent as { total: number }).total).toBe(result._meta?.credits);
  });

  it('quotes history and global metrics at daily steps over 90 days: 91 points each', async () => {
    const quotes = await session.call('get_cryptocurrency_quotes_historical', {
      symbol: 'BTC',
      interval: 'daily',
      ...RANGE,
    });
    expect((quotes.structuredContent as Series).items[0]!.quotes).toHaveLength(91);
    const global = await session.call('get_global_metrics_historical', { interval: 'daily', ...RANGE });
    expect((global.structuredContent as { quotes: unknown[] }).quotes).toHaveLength(91);
  });

  it('a count given is kept: 10 of the range', async () => {
    const result = await session.call('get_ohlcv_historical', { symbol: 'ETH', count: 10, ...RANGE });
    expect((result.structuredContent as Series).items[0]!.quotes).toHaveLength(10);
  });

  it('a range longer than one answer carries is one request, paged to its end from the kept result', async () => {
    const args = { interval: '5m', ...RANGE, time_start: daysAgo(10) };
    const requestsBefore = sandbox.stats.byPath.get('/v1/global-metrics/quotes/historical') ?? 0;
    const seen: string[] = [];
    let next: Record<string, unknown> | undefined = { ...args, format: 'json' };
    for (let page = 0; next !== undefined && page < 40; page++) {
      const result = await session.call('get_global_metrics_historical', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      const data = result.structuredContent as { quotes: { timestamp: string }[]; next?: typeof next };
      seen.push(...data.quotes.map((q) => q.timestamp));
      if (page === 0)
        expect(data).toMatchObject({ truncated: expect.stringMatching(/^Rows 1–\d+ of 2,8\d\d; next/) });
      next = data.next;
    }
    expect(next).toBeUndefined();
    expect((sandbox.stats.byPath.get('/v1/global-metrics/quotes/historical') ?? 0) - requestsBefore).toBe(1);
    // The service's own answer for the whole range (it skips periods without data).
    const query = new URLSearchParams({ ...args, count: String(10 * 288 + 1) } as Record<string, string>);
    const whole = await fetch(`${sandbox.url}/v1/global-metrics/quotes/historical?${query}`, {
      headers: { [DEFAULT_KEY_HEADER]: 'sandbox-enterprise' },
    });
    const body = (await whole.json()) as { data: { quotes: { timestamp: string }[] } };
    expect(seen).toEqual(body.data.quotes.map((q) => q.timestamp));
  });
});

describe("the service's own limit: the indices answer 10 values with both bounds", () => {
  it('a longer range is asked for as its values back from time_end: one request, every value', async () => {
    const range = { interval: 'daily', time_start: daysAgo(25), time_end: daysAgo(0) };
    const requestsBefore = sandbox.stats.byPath.get('/v3/index/svc20-historical') ?? 0;
    const result = await session.call('get_svc20_index_historical', { ...range, format: 'json' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as { items: { update_time: string }[]; next?: unknown };
    expect((sandbox.stats.byPath.get('/v3/index/svc20-historical') ?? 0) - requestsBefore).toBe(1);
    const times = data.items.map((i) => i.update_time);
    expect(times).toHaveLength(26);
    expect(new Set(times).size).toBe(26);
    expect(times[0]!.slice(0, 10)).toBe(daysAgo(25).slice(0, 10));
    expect(data.next).toBeUndefined();
  });
});

describe('a candle’s close is dated as the candle it closes', () => {
  type Candles = { items: { quotes: { time_open: string; quote: { close: number }[] }[] }[] };
  /** The headline's first and last closes, and the candles they are of. */
  const ends = async (args: Record<string, unknown>) => {
    const result = await session.call('get_ohlcv_historical', { symbol: 'BTC', count: 3, ...args });
    const candles = (result.structuredContent as Candles).items[0]!.quotes;
    const headline = textOf(result).split('\n')[0]!;
    const shown = /first \$([\d,.]+) \(([^)]+)\), last \$[\d,.]+ \(([^)]+)\)/.exec(headline);
    expect(Number(shown?.[1]?.replaceAll(',', '')), headline).toBeCloseTo(candles[0]!.quote[0]!.close, 2);
    return { first: candles[0]!.time_open, last: candles.at(-1)!.time_open, shown: [shown?.[2], shown?.[3]] };
  };

  it('a daily close by its candle’s date, not the midnight it opened at; today’s so far', async () => {
    const { first, last, shown } = await ends({});
    expect(shown).toEqual([first.slice(0, 10), `${last.slice(0, 10)}, so far`]);
  });

  it('an hourly close by its candle’s hour, from open to close; this hour’s so far', async () => {
    const { first, last, shown } = await ends({ time_period: 'hourly' });
    const hour = (iso: string) => Number(iso.slice(11, 13));
    const hh = (n: number) => String(n % 24).padStart(2, '0');
    expect(shown).toEqual([
      `${first.slice(0, 10)} ${hh(hour(first))}:00–${hh(hour(first) + 1)}:00 UTC`,
      `${last.slice(0, 10)} ${last.slice(11, 16)} UTC, so far`,
    ]);
  });
});
