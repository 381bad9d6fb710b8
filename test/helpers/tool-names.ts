import { assetBySymbol, tokenAddress } from '../../src/sandbox/market/assets.js';

/** The contract's tool names (docs/architecture.md), in the inventory's order: what `default` and `all` expose on the embedded sandbox. */
export const SPEC_TOOLS = [
  'get_global_metrics_latest',
  'get_global_metrics_historical',
  'get_fear_and_greed_latest',
  'get_fear_and_greed_historical',
  'get_altcoin_season_index_latest',
  'get_altcoin_season_index_historical',
  'get_svc100_index_latest',
  'get_svc100_index_historical',
  'get_svc20_index_latest',
  'get_svc20_index_historical',
  'get_trending_community_tokens',
  'get_trending_community_topics',
  'list_dex_platforms',
  'get_dex_platform',
  'get_cryptocurrency_listings_latest',
  'get_cryptocurrency_quotes_latest',
];
/** The listed endpoints' tools in the default list. */
const LISTED_DEFAULT = [
  'get_cryptocurrency_map',
  'get_cryptocurrency_info',
  'get_cryptocurrency_quotes_historical',
  'get_ohlcv_historical',
  'get_gainers_losers',
  'convert_price',
];
export const DEFAULT_TOOLS = [
  ...SPEC_TOOLS,
  ...LISTED_DEFAULT,
  'get_latest_content',
  'get_key_info',
  'search_cryptocurrencies',
  'analyze_assets',
  'query_data',
  'run_script',
  'get_credit_usage',
  'estimate_cost',
];

/** A sandbox token's chart: BONK on Solana, by its contract address. */
export const BONK_CHART = { platform: 'solana', address: tokenAddress(assetBySymbol.get('BONK') as never) };

const BITCOIN = { id: '1' };

/**
 * One valid set of arguments per tool, the smallest each needs on the sandbox: every tool has a row
 * (tools-list and parity tests fail on a tool without one), so a new tool adds its row here.
 */
export const VALID_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  get_global_metrics_latest: {},
  get_global_metrics_historical: {},
  get_fear_and_greed_latest: {},
  get_fear_and_greed_historical: {},
  get_altcoin_season_index_latest: {},
  get_altcoin_season_index_historical: {},
  get_svc100_index_latest: {},
  get_svc100_index_historical: {},
  get_svc20_index_latest: {},
  get_svc20_index_historical: {},
  get_trending_community_tokens: {},
  get_trending_community_topics: {},
  list_dex_platforms: {},
  get_dex_platform: { platformName: 'Ethereum' },
  get_cryptocurrency_listings_latest: {},
  get_cryptocurrency_quotes_latest: BITCOIN,
  get_cryptocurrency_map: {},
  get_cryptocurrency_info: BITCOIN,
  get_cryptocurrency_quotes_historical: BITCOIN,
  get_ohlcv_historical: BITCOIN,
  get_gainers_losers: {},
  convert_price: { amount: 1, id: '1' },
  get_new_cryptocurrencies: {},
  get_trending_cryptocurrencies: {},
  get_most_visited_cryptocurrencies: {},
  get_cryptocurrency_listings_historical: { date: '2026-11-01' },
  get_ohlcv_latest: BITCOIN,
  get_price_performance: BITCOIN,
  get_market_pairs: BITCOIN,
  list_categories: {},
  get_category: { id: '7a3fa62a7b3fa7bd783fa304' },
  get_latest_content: {},
  get_latest_posts: {},
  get_top_posts: {},
  get_post_comments: { post_id: '1795345200' },
  get_kline_candles: BONK_CHART,
  get_kline_points: BONK_CHART,
  get_fiat_map: {},
  get_cryptocurrency_listings_latest_v1: {},
  get_cryptocurrency_quotes_latest_v2: BITCOIN,
  get_key_info: {},
  search_cryptocurrencies: { query: 'bitcoin' },
  analyze_assets: { symbol: 'ETH', days: 30 },
  query_data: { sql: 'SELECT 1 AS one' },
  run_script: { code: 'return (await tools.get_fear_and_greed_latest()).value;' },
  get_credit_usage: {},
  estimate_cost: { calls: [{ tool: 'get_fear_and_greed_latest' }] },
};

/** The smallest arguments a tool needs on the sandbox (its VALID_ARGS row). */
export function defaultArgs(tool: string): Record<string, unknown> {
  const args = VALID_ARGS[tool];
  if (args === undefined) throw new Error(`${tool} has no row in VALID_ARGS (test/helpers/tool-names.ts)`);
  return args;
}

/** Every tool, in the inventory's order: the rows of VALID_ARGS. */
export const ALL_TOOLS = Object.keys(VALID_ARGS);
