/**
 * Every tool's estimate against what the sandbox actually charged, over a grid of arguments: the
 * guard's estimate (read from its refusal by a server with SVC_MAX_CREDITS_PER_CALL=0) is never
 * below the charge (`_meta.credits`, the service's credit_count), and equal where the rule does not
 * depend on what comes back. (credits-by-spec.test.ts checks both against the spec's numbers.) Every endpoint of the table runs with its default arguments and with arguments that make
 * its rule count (pages, several assets, long series, currencies), plus the rows of GRID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/endpoints/index.js';
import { textOf } from '../helpers/cli.js';
import { type Sandbox, startPayingAndRefusing, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { BONK_CHART, defaultArgs } from '../helpers/tool-names.js';

interface Row {
  args: Record<string, unknown>;
  /** The charge must equal the estimate (the rule does not count what comes back, or the page is full). */
  exact: boolean;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');

/** Arguments that make each rule count: the most records, several currencies. */
const HEAVY: Record<string, Record<string, unknown>> = {
  get_global_metrics_latest: { convert: 'USD,EUR,GBP' },
  get_global_metrics_historical: { count: 250, interval: '1h', convert: 'USD,EUR' },
  get_cryptocurrency_listings_latest: { limit: 450, convert: 'USD,EUR' },
  get_cryptocurrency_quotes_latest: { symbol: 'BTC,ETH,SOL', convert: 'EUR,GBP' },
  get_cryptocurrency_map: { limit: 5000 },
  get_cryptocurrency_info: { id: '1,1027,5426' },
  get_cryptocurrency_quotes_historical: { id: '1,1027', count: 150, interval: '1h', convert: 'USD,EUR,JPY' },
  get_ohlcv_historical: {
    id: '1,1027,5426',
    count: 45,
    time_period: 'hourly',
    interval: '1h',
    convert: 'USD,EUR',
  },
  get_gainers_losers: { limit: 230, convert: 'USD,EUR' },
  convert_price: { amount: 3, symbol: 'BTC', convert: 'USD,EUR,GBP,JPY' },
  get_new_cryptocurrencies: { limit: 250 },
  get_trending_cryptocurrencies: { limit: 1000, convert: 'USD,BTC' },
  get_most_visited_cryptocurrencies: { limit: 300 },
  get_cryptocurrency_listings_historical: { date: '2026-11-20', limit: 150, convert: 'USD,EUR' },
  get_ohlcv_latest: { symbol: 'BTC,ETH', convert: 'USD,EUR' },
  get_price_performance: { id: '1,1027', time_period: '24h,7d', convert: 'USD,EUR' },
  get_market_pairs: { id: '1', limit: 450, convert: 'USD,EUR' },
  list_categories: { limit: 5000 },
  get_category: { id: '7a3fa62a7b3fa7bd783fa304', limit: 1000, convert: 'USD,EUR' },
  get_kline_candles: { ...BONK_CHART, interval: '5min', limit: 250 },
  get_kline_points: { ...BONK_CHART, interval: '1min', limit: 1000 },
  get_fiat_map: { include_metals: true },
  get_cryptocurrency_listings_latest_v1: { limit: 250, convert: 'USD,EUR' },
  get_cryptocurrency_quotes_latest_v2: { id: '1,1027', convert: 'USD,EUR' },
  get_svc100_index_historical: { count: 100, interval: '5m' },
  get_fear_and_greed_historical: { limit: 500 },
};

/** A daily range whose first day starts an hour after time_start: 101 days, 100 of them whole. */
const MID_DAY_RANGE = { time_start: '2025-01-01T23:00:00Z', time_end: '2025-04-11T01:00:00Z' };

/** The sandbox lists 231 assets: pages past that are short, so listings estimates are upper bounds there. */
const GRID: Record<string, Row[]> = {
  get_global_metrics_latest: [
    { args: {}, exact: true },
    { args: { convert: 'USD,EUR,GBP' }, exact: true },
    { args: { convert_id: '2781,2790' }, exact: true },
  ],
  get_global_metrics_historical: [
    { args: {}, exact: true },
    { args: { count: 250, interval: '1h' }, exact: false },
    {
      args: {
        time_start: '2026-11-20T00:00:00Z',
        time_end: '2026-11-21T00:00:00Z',
        interval: '5m',
        count: 10_000,
      },
      exact: false,
    },
    { args: { time_start: '2026-10-01', count: 10_000, interval: 'daily' }, exact: false },
    // Calendar periods start at the one holding time_start: 101 points, not 100 (nor 101 weeks 100).
    { args: { ...MID_DAY_RANGE, interval: 'daily', count: 500 }, exact: true },
    {
      args: {
        time_start: '2026-11-15T00:30:00Z',
        time_end: '2026-11-19T04:10:00Z',
        interval: 'hourly',
        count: 500,
      },
      exact: true,
    },
    {
      args: {
        time_start: '2024-11-24T12:00:00Z',
        time_end: '2026-10-19T12:00:00Z',
        interval: 'weekly',
        count: 500,
      },
      exact: false,
    },
  ],
  get_cryptocurrency_quotes_historical: [
    { args: { id: '1,1027', ...MID_DAY_RANGE, interval: 'daily', count: 500 }, exact: true },
  ],
  get_fear_and_greed_latest: [{ args: {}, exact: true }],
  get_fear_and_greed_historical: [
    { args: {}, exact: true },
    { args: { limit: 500, start: 20 }, exact: true },
  ],
  get_altcoin_season_index_latest: [{ args: {}, exact: true }],
  get_altcoin_season_index_historical: [{ args: { timeframe: '90d' }, exact: true }],
  get_svc100_index_latest: [{ args: {}, exact: true }],
  get_svc100_index_historical: [{ args: { count: 100, interval: '5m' }, exact: true }],
  get_svc20_index_latest: [{ args: {}, exact: true }],
  get_svc20_index_historical: [{ args: {}, exact: true }],
  get_trending_community_tokens: [{ args: {}, exact: true }],
  get_trending_community_topics: [{ args: { limit: 1 }, exact: true }],
  list_dex_platforms: [{ args: {}, exact: true }],
  get_dex_platform: [{ args: { platformName: 'Solana' }, exact: true }],
  get_cryptocurrency_listings_latest: [
    { args: {}, exact: true },
    { args: { limit: 200, convert: 'USD,EUR' }, exact: true },
    { args: { limit: 5000 }, exact: false },
    { args: { start: 200, limit: 201 }, exact: false },
  ],
  get_cryptocurrency_quotes_latest: [
    { args: { id: '1,1027' }, exact: true },
    { args: { symbol: 'BTC,ETH', convert: 'EUR,GBP' }, exact: true },
    { args: { id: ids(150), skip_invalid: true }, exact: false },
  ],
  get_key_info: [{ args: {}, exact: true }],
};

let sandbox: Sandbox;
let mcp: Session;
let refusing: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  ({ paying: mcp, refusing } = await startPayingAndRefusing(sandbox));
});
afterAll(async () => {
  await refusing?.close();
  await mcp?.close();
  await sandbox?.close();
});

/** The guard's estimate: what its refusal at a limit of 0 credits per call says (a free call passes). */
async function estimateOf(tool: string, args: Record<string, unknown>): Promise<number> {
  const refused = await refusing.call(tool, args);
  if (!refused.isError) return 0;
  const said = /estimated at (\d+) credits?, over the limit of 0/.exec(textOf(refused));
  if (!said) throw new Error(`${tool}: not a per-call refusal: ${textOf(refused)}`);
  return Number(said[1]);
}

describe('estimate ≥ charge, for every endpoint', () => {
  const rows = (tool: string): Row[] => [
    { args: defaultArgs(tool), exact: false },
    ...(HEAVY[tool] ? [{ args: HEAVY[tool], exact: false }] : []),
    ...(GRID[tool] ?? []),
  ];
  let grown = 0;

  for (const { name: tool } of endpoints) {
    it(tool, async () => {
      for (const { args, exact } of rows(tool)) {
        const result = await mcp.call(tool, args);
        const what = `${tool} ${JSON.stringify(args).slice(0, 80)}`;
        expect(result.isError, `${what}: ${textOf(result)}`).toBeFalsy();
        const charged = (result._meta as { credits: number }).credits;
        const estimate = await estimateOf(tool, args);
        if (exact) expect(charged, what).toBe(estimate);
        else expect(estimate, what).toBeGreaterThanOrEqual(charged);
        if (charged > 1) grown++;
      }
    });
  }

  it('the heavy arguments made charges grow, so the comparisons mean something', () => {
    expect(grown).toBeGreaterThan(15);
  });
});
