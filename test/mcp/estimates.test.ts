/**
 * The credit guard's estimate of each call is at least what the service charged: every endpoint
 * with arguments that make the charge grow (pages, several assets, long series, currencies), its
 * charge read from `_meta.credits` of an uncached call (SVC_CACHE=off) on the embedded sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src/catalog/credits.js';
import { endpointsByName } from '../../src/catalog/index.js';
import { validateParams } from '../../src/catalog/params.js';
import { firstText, type McpSession, startMcp } from '../helpers/cli.js';
import { BONK_CHART, defaultArgs } from '../helpers/tool-names.js';

const NOW = '2026-11-22T12:00:00Z';
const NOW_S = Date.parse(NOW) / 1000;

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

let mcp: McpSession;
beforeAll(async () => {
  mcp = await startMcp({
    SVC_TOOLSETS: 'all',
    SVC_CACHE: 'off',
    SVC_NOW: NOW,
    SVC_MAX_CREDITS_PER_CALL: '10000',
  });
});
afterAll(() => mcp?.close());

describe('estimates', () => {
  it('every endpoint: the estimate before sending ≥ the credits the sandbox charged, light and heavy', async () => {
    const seen: string[] = [];
    for (const [name, endpoint] of endpointsByName) {
      for (const args of [defaultArgs(name), HEAVY[name] ?? defaultArgs(name)]) {
        const checked = validateParams(endpoint.toolInput, args);
        if (!checked.ok) throw new Error(`${name}: ${checked.message}`);
        const { format: _, ...params } = checked.value as Record<string, unknown>;
        const estimate = estimateCredits(endpoint.credits, params, NOW_S);
        const result = await mcp.call(name, args);
        expect(result.isError, `${name}: ${firstText(result)}`).toBeFalsy();
        const charged = (result._meta as { credits: number; cached: boolean }).credits;
        expect((result._meta as { cached: boolean }).cached, name).toBe(false);
        expect(estimate, `${name} ${JSON.stringify(args)}: charged ${charged}`).toBeGreaterThanOrEqual(
          charged,
        );
        if (charged > 1) seen.push(`${name} ${charged}/${estimate}`);
      }
    }
    // The heavy arguments did make charges grow, so the comparison means something.
    expect(seen.length).toBeGreaterThan(15);
  });
});
