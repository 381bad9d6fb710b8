/** DESIGN.md's tool names, in the catalog's order: what `default` exposes on the embedded sandbox. */
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
export const ACCOUNT_TOOLS = ['get_key_info', 'get_credit_usage'];
export const DEFAULT_TOOLS = [...SPEC_TOOLS, ...ACCOUNT_TOOLS];
