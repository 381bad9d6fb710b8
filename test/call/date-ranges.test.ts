/**
 * A series asked for between two dates answers the whole range: with time_start and time_end and
 * no count, the tool asks for every period between them (counted as the estimate counts them),
 * capped and paged as any long series is; where the service itself returns fewer (the indices'
 * 10 values with both bounds), the text says so and the answer carries the next page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_HEADER } from '../../src/catalog/define.js';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { SANDBOX_NOW, type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const DAY = 86_400_000;
const NOW = Date.parse(SANDBOX_NOW);
const daysAgo = (days: number) => new Date(Math.floor(NOW / DAY) * DAY - days * DAY).toISOString();
const RANGE = { time_start: daysAgo(90), time_end: daysAgo(0) };

let sandbox: Sandbox;
let session: InProcessSession;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  session = await openInProcess(
    sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_NOW: SANDBOX_NOW, SVC_TOOLSETS: 'all' }),
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
    const candles = (result.structuredContent as Series).items[0].quotes;
    expect(candles).toHaveLength(90);
    expect(candles[0].time_open?.slice(0, 10)).toBe(daysAgo(89).slice(0, 10));
    expect(textOf(result)).toMatch(/^Ethereum \(ETH\) close in USD, 90 points/);
    expect((priced.structuredContent as { total: number }).total).toBe(result._meta?.credits);
  });

  it('quotes history and global metrics at daily steps over 90 days: 91 points each', async () => {
    const quotes = await session.call('get_cryptocurrency_quotes_historical', {
      symbol: 'BTC',
      interval: 'daily',
      ...RANGE,
    });
    expect((quotes.structuredContent as Series).items[0].quotes).toHaveLength(91);
    const global = await session.call('get_global_metrics_historical', { interval: 'daily', ...RANGE });
    expect((global.structuredContent as { quotes: unknown[] }).quotes).toHaveLength(91);
  });

  it('a count given is kept: 10 of the range', async () => {
    const result = await session.call('get_ohlcv_historical', { symbol: 'ETH', count: 10, ...RANGE });
    expect((result.structuredContent as Series).items[0].quotes).toHaveLength(10);
  });

  it('a range longer than one answer carries is capped and paged to its end', async () => {
    const args = { interval: '5m', ...RANGE, time_start: daysAgo(10) };
    const seen: string[] = [];
    let next: Record<string, unknown> | undefined = args;
    for (let page = 0; next !== undefined && page < 40; page++) {
      const result = await session.call('get_global_metrics_historical', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      const data = result.structuredContent as { quotes: { timestamp: string }[]; next?: typeof next };
      seen.push(...data.quotes.map((q) => q.timestamp));
      if (page === 0) expect(textOf(result)).toMatch(/Capped to count=\d+ of 2,881/);
      next = data.next;
    }
    expect(next).toBeUndefined();
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
  it('says so, and the next page goes on from the eleventh value to the end of the range', async () => {
    const range = { interval: 'daily', time_start: daysAgo(25), time_end: daysAgo(0) };
    const first = await session.call('get_svc20_index_historical', range);
    expect(first.isError, textOf(first)).toBeFalsy();
    const data = first.structuredContent as {
      items: { update_time: string }[];
      next?: Record<string, unknown>;
    };
    expect(data.items).toHaveLength(10);
    expect(textOf(first)).toMatch(/at most 10 values when both time_start and time_end are given/);
    expect(data.next).toBeDefined();
    const times = data.items.map((i) => i.update_time);
    let next = data.next;
    while (next) {
      const page = await session.call('get_svc20_index_historical', next);
      expect(page.isError, textOf(page)).toBeFalsy();
      const more = page.structuredContent as typeof data;
      times.push(...more.items.map((i) => i.update_time));
      next = more.next;
    }
    expect(times).toHaveLength(26);
    expect(new Set(times).size).toBe(26);
  });
});
