/**
 * What calls cost, written from the spec's credit tables (docs/service.md, "Credits"
 * and its endpoint sections), not computed with the endpoints' rules: what the sandbox
 * charged (`_meta.credits`, its `status.credit_count`) and what the guard estimated before sending
 * (read from its refusal with SVC_MAX_CREDITS_PER_CALL=0) must both equal the numbers below.
 * Where a charge depends on what comes back, the spec's formula is applied to the answer's count.
 * The k-line and DEX endpoints are left out: the spec documents no credits for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type Sandbox, startPayingAndRefusing, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

/** "1/N": one credit per N records returned, rounded up. */
const per = (n: number, records: number) => Math.ceil(records / n);

interface Case {
  tool: string;
  args: Record<string, unknown>;
  /** The spec's charge: a number, or its formula over the answer's structured data. */
  charge: number | ((data: Record<string, unknown>) => number);
  /** The guard's estimate before sending (at the most records the arguments allow). */
  estimate: number;
}

const CASES: Case[] = [
  // Global metrics latest: 1 + 1 per convert beyond the first.
  { tool: 'get_global_metrics_latest', args: {}, charge: 1, estimate: 1 },
  { tool: 'get_global_metrics_latest', args: { convert: 'USD,EUR,GBP' }, charge: 3, estimate: 3 },
  // Global metrics historical: 1 per 100 data points returned.
  {
    tool: 'get_global_metrics_historical',
    args: { count: 250, interval: '1h' },
    charge: (d) => per(100, (d.quotes as unknown[]).length),
    estimate: 3,
  },
  // Fear and greed, altcoin season, the indices: 1 per request, whatever the size.
  { tool: 'get_fear_and_greed_latest', args: {}, charge: 1, estimate: 1 },
  { tool: 'get_fear_and_greed_historical', args: { limit: 500 }, charge: 1, estimate: 1 },
  { tool: 'get_altcoin_season_index_latest', args: {}, charge: 1, estimate: 1 },
  { tool: 'get_altcoin_season_index_historical', args: { timeframe: '90d' }, charge: 1, estimate: 1 },
  { tool: 'get_svc100_index_latest', args: {}, charge: 1, estimate: 1 },
  { tool: 'get_svc100_index_historical', args: { count: 100 }, charge: 1, estimate: 1 },
  { tool: 'get_svc20_index_historical', args: { count: 100, interval: 'daily' }, charge: 1, estimate: 1 },
  // Community trending, key info, content, the map: 0.
  { tool: 'get_trending_community_tokens', args: {}, charge: 0, estimate: 0 },
  { tool: 'get_trending_community_topics', args: { limit: 5 }, charge: 0, estimate: 0 },
  { tool: 'get_key_info', args: {}, charge: 0, estimate: 0 },
  { tool: 'get_latest_content', args: {}, charge: 0, estimate: 0 },
  { tool: 'get_cryptocurrency_map', args: { limit: 500 }, charge: 0, estimate: 0 },
  // Listings (v3 and v1), new, gainers-losers, trending: 1 per 200 records + converts.
  { tool: 'get_cryptocurrency_listings_latest', args: { limit: 201 }, charge: 2, estimate: 2 },
  {
    tool: 'get_cryptocurrency_listings_latest',
    args: { limit: 200, convert: 'USD,EUR,GBP' },
    charge: 3,
    estimate: 3,
  },
  {
    tool: 'get_cryptocurrency_listings_latest_v1',
    args: { limit: 150, convert: 'USD,EUR' },
    charge: 2,
    estimate: 2,
  },
  { tool: 'get_new_cryptocurrencies', args: { limit: 201 }, charge: 2, estimate: 2 },
  { tool: 'get_gainers_losers', args: { limit: 50, convert: 'USD,EUR' }, charge: 2, estimate: 2 },
  { tool: 'get_trending_cryptocurrencies', args: { limit: 201 }, charge: 2, estimate: 2 },
  // Quotes latest (v3 and v2): 1 per 100 assets + converts.
  { tool: 'get_cryptocurrency_quotes_latest', args: { id: '1,1027,5426' }, charge: 1, estimate: 1 },
  {
    tool: 'get_cryptocurrency_quotes_latest_v2',
    args: { symbol: 'BTC,ETH', convert: 'EUR,GBP' },
    charge: 2,
    estimate: 2,
  },
  // Quotes and OHLCV history: 1 per 100 data points + converts.
  {
    tool: 'get_cryptocurrency_quotes_historical',
    args: { id: '1', count: 150, interval: '1h', convert: 'USD,EUR' },
    charge: 3,
    estimate: 3,
  },
  // Price conversion: 1 + converts.
  { tool: 'convert_price', args: { amount: 2, id: '1', convert: 'USD,EUR,GBP' }, charge: 3, estimate: 3 },
  // Info: 1 per 100 assets.
  { tool: 'get_cryptocurrency_info', args: { id: '1,1027' }, charge: 1, estimate: 1 },
  // Fiat map: 1 per request.
  { tool: 'get_fiat_map', args: { include_metals: true }, charge: 1, estimate: 1 },
  // Listings historical: 1 per 100 records + converts.
  {
    tool: 'get_cryptocurrency_listings_historical',
    args: { date: '2026-11-20', limit: 150, convert: 'USD,EUR' },
    charge: 3,
    estimate: 3,
  },
  // Market pairs: 1 per 100 pairs + converts (the estimate assumes a full page).
  {
    tool: 'get_market_pairs',
    args: { id: '1', limit: 150, convert: 'USD,EUR' },
    charge: (d) => per(100, (d.market_pairs as unknown[]).length) + 1,
    estimate: 3,
  },
  // OHLCV latest: 1 per 100 assets + converts.
  { tool: 'get_ohlcv_latest', args: { id: '1,1027', convert: 'USD,EUR' }, charge: 2, estimate: 2 },
];

let sandbox: Sandbox;
let paying: Session;
let refusing: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  ({ paying, refusing } = await startPayingAndRefusing(sandbox));
});
afterAll(async () => {
  await Promise.all([paying?.close(), refusing?.close()]);
  await sandbox?.close();
});

describe("credits, from the spec's tables", () => {
  it.each(CASES.map((c) => [`${c.tool} ${JSON.stringify(c.args)}`, c] as const))('%s', async (_, c) => {
    // In JSON, whose page holds every record these arguments ask for: the formulas count them.
    const result = await paying.call(c.tool, { ...c.args, format: 'json' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown>;
    const charge = typeof c.charge === 'number' ? c.charge : c.charge(data);
    expect((result._meta as { credits: number }).credits, 'charged').toBe(charge);

    const refused = await refusing.call(c.tool, c.args);
    if (c.estimate === 0) {
      // Nothing is above 0 credits per call: a free call is never refused.
      expect(refused.isError, textOf(refused)).toBeFalsy();
    } else {
      expect(refused.isError).toBe(true);
      const credits = c.estimate === 1 ? 'credit' : 'credits';
      expect(textOf(refused), 'estimated').toContain(
        `estimated at ${c.estimate} ${credits}, over the limit of 0`,
      );
    }
  });

  it('the formulas were fed real answers (the history and the pairs answered more than a page)', async () => {
    const history = await paying.call('get_global_metrics_historical', {
      count: 250,
      interval: '1h',
      format: 'json',
    });
    expect((history.structuredContent as { quotes: unknown[] }).quotes.length).toBeGreaterThan(200);
    const pairs = await paying.call('get_market_pairs', { id: '1', limit: 150, format: 'json' });
    expect((pairs.structuredContent as { market_pairs: unknown[] }).market_pairs.length).toBeGreaterThan(100);
  });
});
