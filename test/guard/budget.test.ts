import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const FNG = '/v3/fear-and-greed/latest';
const LISTINGS = '/v3/cryptocurrency/listings/latest';
const MARKET_PAIRS = '/v2/cryptocurrency/market-pairs/latest';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());

const requestsTo = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

interface Usage {
  window: string;
  budget: number | null;
  spent: number;
  reserved: number;
  left: number | null;
  resets_at: string | null;
  by_tool: Record<string, { calls: number; credits: number; cache_hits: number }>;
  cache_hits: number;
  credits_saved: number;
}

async function usage(mcp: Session): Promise<Usage> {
  const result = await mcp.call('get_credit_usage');
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as unknown as Usage;
}

function budgeted(budget: number, extra: Record<string, string> = {}) {
  return sandboxEnv(sandbox, 'sandbox-enterprise', {
    SVC_CREDIT_BUDGET: String(budget),
    SVC_STATE_DIR: newStateDir(),
    SVC_CACHE: 'off',
    ...extra,
  });
}

describe('concurrent calls never overspend', () => {
  it('200 concurrent 1-credit calls against a budget of 50: at most 50 answered and sent, the rest refused', async () => {
    const mcp = await startMcp(budgeted(50));
    try {
      const before = requestsTo(FNG);
      const results = await Promise.all(
        Array.from({ length: 200 }, () => mcp.call('get_fear_and_greed_latest')),
      );
      const answered = results.filter((r) => !r.isError);
      const refused = results.filter((r) => r.isError);
      // Every call is the same size: the budget is used exactly, never overspent.
      expect(answered.length).toBe(50);
      expect(requestsTo(FNG) - before).toBe(answered.length);
      for (const r of refused) {
        expect(textOf(r)).toMatch(
          /^Refused before sending: this call is estimated at 1 credit, but 0 credits of the day's budget of 50 are left/,
        );
      }
      const figures = await usage(mcp);
      expect(figures.spent).toBe(answered.length);
      expect(figures.reserved).toBe(0);
      expect(figures.by_tool.get_fear_and_greed_latest).toEqual({
        calls: answered.length,
        credits: answered.length,
        cache_hits: 0,
      });
    } finally {
      await mcp.close();
    }
  });
});

describe('refusals say what the call costs, what is left, when the window rolls and how to fit', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await startMcp(budgeted(10, { SVC_NOW: '2026-11-22T21:30:00Z', SVC_TOOLSETS: 'all' }));
  });
  afterAll(() => mcp?.close());

  it('a page too large for what is left names the largest limit that fits, and sends nothing', async () => {
    const before = requestsTo(MARKET_PAIRS);
    // 1,200 pairs are 12 credits (1 per 100): more than is left.
    const result = await mcp.call('get_market_pairs', { id: '1', limit: 1200 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Refused before sending: this call is estimated at 12 credits, but 10 credits of the day's budget of 10 are left (0 spent). The window rolls in 2 h 30 min (2026-11-23 00:00 UTC). To make it fit now: send limit=1000 or less.",
    );
    expect(requestsTo(MARKET_PAIRS)).toBe(before);
  });

  it('settles from what the service charged, not the estimate', async () => {
    // The sandbox lists 231 assets: from start=200 a page of 201 holds 32, charged 1 (the estimate is 2).
    const result = await mcp.call('get_cryptocurrency_listings_latest', { start: 200, limit: 201 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result._meta).toMatchObject({ credits: 1, cached: false });
    expect((await usage(mcp)).spent).toBe(1);
  });

  it('a failed call costs nothing and its reservation is released', async () => {
    const result = await mcp.call('get_cryptocurrency_quotes_latest', { id: '999999' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid value for "id": 999999 is not a known cryptocurrency id/);
    const figures = await usage(mcp);
    expect(figures.spent).toBe(1);
    expect(figures.reserved).toBe(0);
    expect(figures.left).toBe(9);
  });

  it('too many convert currencies: says how many fit', async () => {
    const result = await mcp.call('get_global_metrics_latest', {
      convert: 'USD,EUR,GBP,JPY,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN',
    });
    expect(textOf(result)).toMatch(
      /estimated at 12 credits, but 9 credits .* send at most 9 convert currencies/,
    );
  });
});

describe('the per-call limit', () => {
  it('refuses a call estimated above SVC_MAX_CREDITS_PER_CALL (default 25) even without a budget', async () => {
    const mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_STATE_DIR: newStateDir() }));
    try {
      const before = requestsTo(LISTINGS);
      // 26 currencies: 25 credits for the currencies beyond the first, 1 for the 200 rows.
      const result = await mcp.call('get_cryptocurrency_listings_latest', {
        limit: 200,
        convert:
          'USD,EUR,GBP,JPY,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD,BTC,ETH,SEK,NOK,DKK,PLN,CZK,HUF,ZAR,TRY,RUB,HKD,NZD',
      });
      expect(textOf(result)).toBe(
        'Refused before sending: this call is estimated at 26 credits, over the limit of 25 per call (SVC_MAX_CREDITS_PER_CALL). To make it fit now: send at most 25 convert currencies (each beyond the first costs 1 credit).',
      );
      expect(requestsTo(LISTINGS)).toBe(before);
      expect((await mcp.call('get_cryptocurrency_listings_latest', { limit: 5000 })).isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });
});
