/**
 * The route table. The sixteen spec endpoints take their parameter schema and plans from the
 * catalog (the same definitions the MCP tools check arguments with); the three listed endpoints the
 * server also needs take theirs from ../params.ts.
 */
import { ALL_PLANS, endpointsByPath } from '../../catalog/index.js';
import { cryptocurrencyMapInput, keyInfoInput, priceConversionInput } from '../params.js';
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

const CATALOG_HANDLERS: Readonly<Record<string, Handler>> = {
  '/v1/global-metrics/quotes/latest': globalMetricsLatest,
  '/v1/global-metrics/quotes/historical': globalMetricsHistorical,
  '/v3/fear-and-greed/latest': fearAndGreedLatest,
  '/v3/fear-and-greed/historical': fearAndGreedHistorical,
  '/v1/altcoin-season-index/latest': altcoinSeasonLatest,
  '/v1/altcoin-season-index/historical': altcoinSeasonHistorical,
  '/v3/index/svc100-latest': svc100Latest,
  '/v3/index/svc100-historical': svc100Historical,
  '/v3/index/svc20-latest': svc20Latest,
  '/v3/index/svc20-historical': svc20Historical,
  '/v1/community/trending/token': trendingTokens,
  '/v1/community/trending/topic': trendingTopics,
  '/v1/dex/platform/list': dexPlatformList,
  '/v1/dex/platform/detail': dexPlatformDetail,
  '/v3/cryptocurrency/listings/latest': listingsLatest,
  '/v3/cryptocurrency/quotes/latest': quotesLatest,
};

function buildRoutes(): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const [path, handler] of Object.entries(CATALOG_HANDLERS)) {
    const endpoint = endpointsByPath.get(path);
    // A catalog path renamed without the sandbox following would silently 404: fail loudly instead.
    if (!endpoint) throw new Error(`sandbox: the catalog has no endpoint at ${path}`);
    routes.set(path, { path, input: endpoint.input, plans: endpoint.plans, ...handler });
  }
  const listed: [string, Route['input'], Handler][] = [
    ['/v1/key/info', keyInfoInput, keyInfo],
    ['/v1/cryptocurrency/map', cryptocurrencyMapInput, cryptocurrencyMap],
    ['/v2/tools/price-conversion', priceConversionInput, priceConversion],
  ];
  for (const [path, input, handler] of listed)
    routes.set(path, { path, input, plans: ALL_PLANS, ...handler });
  return routes;
}

export const ROUTES: ReadonlyMap<string, Route> = buildRoutes();
