/**
 * The route table. Every catalog endpoint has a handler here, keyed by its tool name (a missing one
 * is a type error), and takes its path, parameter schema, plans and credit rule from the catalog:
 * the same definitions the MCP tools check arguments and estimate credits with.
 */
import { type EndpointName, endpoints } from '../../catalog/index.js';
import { dexPlatformDetail, dexPlatformList, trendingTokens, trendingTopics } from './community.js';
import { latestContent, latestPosts, postComments, topPosts } from './content.js';
import { listingsLatest, newListings, quotesLatest, quotesLatestV2 } from './cryptocurrency.js';
import {
  ohlcvHistorical,
  ohlcvLatest,
  pricePerformance,
  quotesHistorical,
} from './cryptocurrency-history.js';
import { globalMetricsHistorical, globalMetricsLatest } from './global-metrics.js';
import { svc20Historical, svc20Latest, svc100Historical, svc100Latest } from './indices.js';
import { klineCandles, klinePoints } from './kline.js';
import { marketPairsLatest } from './market-pairs.js';
import { categories, category, cryptocurrencyInfo, cryptocurrencyMap } from './reference.js';
import {
  altcoinSeasonHistorical,
  altcoinSeasonLatest,
  fearAndGreedHistorical,
  fearAndGreedLatest,
} from './sentiment.js';
import { gainersLosers, listingsHistorical, mostVisited, trendingLatest } from './trending.js';
import type { Handler, Route } from './types.js';
import { fiatMap, keyInfo, priceConversion } from './utilities.js';

const HANDLERS: Readonly<Record<EndpointName, Handler>> = {
  get_global_metrics_latest: globalMetricsLatest,
  get_global_metrics_historical: globalMetricsHistorical,
  get_fear_and_greed_latest: fearAndGreedLatest,
  get_fear_and_greed_historical: fearAndGreedHistorical,
  get_altcoin_season_index_latest: altcoinSeasonLatest,
  get_altcoin_season_index_historical: altcoinSeasonHistorical,
  get_svc100_index_latest: svc100Latest,
  get_svc100_index_historical: svc100Historical,
  get_svc20_index_latest: svc20Latest,
  get_svc20_index_historical: svc20Historical,
  get_trending_community_tokens: trendingTokens,
  get_trending_community_topics: trendingTopics,
  list_dex_platforms: dexPlatformList,
  get_dex_platform: dexPlatformDetail,
  get_cryptocurrency_listings_latest: listingsLatest,
  get_cryptocurrency_quotes_latest: quotesLatest,
  get_cryptocurrency_map: cryptocurrencyMap,
  get_cryptocurrency_info: cryptocurrencyInfo,
  get_cryptocurrency_quotes_historical: quotesHistorical,
  get_ohlcv_historical: ohlcvHistorical,
  get_gainers_losers: gainersLosers,
  convert_price: priceConversion,
  get_new_cryptocurrencies: newListings,
  get_trending_cryptocurrencies: trendingLatest,
  get_most_visited_cryptocurrencies: mostVisited,
  get_cryptocurrency_listings_historical: listingsHistorical,
  get_ohlcv_latest: ohlcvLatest,
  get_price_performance: pricePerformance,
  get_market_pairs: marketPairsLatest,
  list_categories: categories,
  get_category: category,
  get_latest_content: latestContent,
  get_latest_posts: latestPosts,
  get_top_posts: topPosts,
  get_post_comments: postComments,
  get_kline_candles: klineCandles,
  get_kline_points: klinePoints,
  get_fiat_map: fiatMap,
  // The deprecated v1 listings answer as v3 does.
  get_cryptocurrency_listings_latest_v1: listingsLatest,
  get_cryptocurrency_quotes_latest_v2: quotesLatestV2,
  get_key_info: keyInfo,
};

function buildRoutes(): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const endpoint of endpoints) {
    const { path, serviceInput, plans, credits } = endpoint;
    routes.set(path, {
      path,
      input: serviceInput,
      plans,
      credits: credits as Route['credits'],
      ...HANDLERS[endpoint.name],
    });
  }
  return routes;
}

export const ROUTES: ReadonlyMap<string, Route> = buildRoutes();
