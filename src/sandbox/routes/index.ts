/**
 * The route table. Every catalog endpoint has a handler here, keyed by its tool name (a missing one
 * is a type error), and takes its path, parameter schema, plans and credit rule from the catalog:
 * the same definitions the MCP tools check arguments and estimate credits with. The listed
 * endpoints the catalog does not define as tools yet take theirs from ../params.ts.
 */
import { ALL_PLANS, type EndpointName, endpoints } from '../../catalog/index.js';
import {
  cryptocurrencyMapInput,
  MAP_CREDITS,
  PRICE_CONVERSION_CREDITS,
  priceConversionInput,
} from '../params.js';
import { dexPlatformDetail, dexPlatformList, trendingTokens, trendingTopics } from './community.js';
import { listingsLatest, quotesLatest } from './cryptocurrency.js';
import { globalMetricsHistorical, globalMetricsLatest } from './global-metrics.js';
import { svc20Historical, svc20Latest, svc100Historical, svc100Latest } from './indices.js';
import {
  altcoinSeasonHistorical,
  altcoinSeasonLatest,
  fearAndGreedHistorical,
  fearAndGreedLatest,
} from './sentiment.js';
import { cryptocurrencyMap, keyInfo, priceConversion } from './tools.js';
import type { Handler, Route } from './types.js';

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
  get_key_info: keyInfo,
};

function buildRoutes(): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const endpoint of endpoints) {
    const { path, input, plans, credits } = endpoint;
    routes.set(path, {
      path,
      input,
      plans,
      credits: credits as Route['credits'],
      ...HANDLERS[endpoint.name],
    });
  }
  const listed: Route[] = [
    {
      path: '/v1/cryptocurrency/map',
      input: cryptocurrencyMapInput,
      plans: ALL_PLANS,
      credits: MAP_CREDITS,
      ...cryptocurrencyMap,
    },
    {
      path: '/v2/tools/price-conversion',
      input: priceConversionInput,
      plans: ALL_PLANS,
      credits: PRICE_CONVERSION_CREDITS,
      ...priceConversion,
    },
  ];
  for (const route of listed) routes.set(route.path, route);
  return routes;
}

export const ROUTES: ReadonlyMap<string, Route> = buildRoutes();
