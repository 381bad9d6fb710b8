/** Every endpoint's tool, in the order they are listed. */

import type { Endpoint } from '../kit/define.js';
import { keyInfo } from './account.js';
import { trendingTokens, trendingTopics } from './community.js';
import { latestContent, latestPosts, postComments, topPosts } from './content.js';
import { listingsLatest, quotesLatest } from './cryptocurrency.js';
import { pricePerformance, quotesHistorical } from './cryptocurrency-history.js';
import {
  gainersLosers,
  listingsHistorical,
  mostVisited,
  newCryptocurrencies,
  trendingLatest,
} from './cryptocurrency-lists.js';
import {
  categories,
  categoryCoins,
  cryptocurrencyInfo,
  cryptocurrencyMap,
} from './cryptocurrency-reference.js';
import { dexPlatform, dexPlatforms } from './dex.js';
import { globalMetricsHistorical, globalMetricsLatest } from './global-metrics.js';
import { svc20Historical, svc20Latest, svc100Historical, svc100Latest } from './indices.js';
import { klineCandles, klinePoints } from './kline.js';
import { listingsLatestV1, quotesLatestV2 } from './legacy.js';
import { marketPairs } from './market-pairs.js';
import { ohlcvHistorical, ohlcvLatest } from './ohlcv.js';
import {
  altcoinSeasonHistorical,
  altcoinSeasonLatest,
  fearAndGreedHistorical,
  fearAndGreedLatest,
} from './sentiment.js';
import { fiatMap, priceConversion } from './utilities.js';

export const endpoints = [
  globalMetricsLatest,
  globalMetricsHistorical,
  fearAndGreedLatest,
  fearAndGreedHistorical,
  altcoinSeasonLatest,
  altcoinSeasonHistorical,
  svc100Latest,
  svc100Historical,
  svc20Latest,
  svc20Historical,
  trendingTokens,
  trendingTopics,
  dexPlatforms,
  dexPlatform,
  listingsLatest,
  quotesLatest,
  cryptocurrencyMap,
  cryptocurrencyInfo,
  quotesHistorical,
  ohlcvHistorical,
  gainersLosers,
  priceConversion,
  newCryptocurrencies,
  trendingLatest,
  mostVisited,
  listingsHistorical,
  ohlcvLatest,
  pricePerformance,
  marketPairs,
  categories,
  categoryCoins,
  latestContent,
  latestPosts,
  topPosts,
  postComments,
  klineCandles,
  klinePoints,
  fiatMap,
  listingsLatestV1,
  quotesLatestV2,
  keyInfo,
] as const satisfies readonly Endpoint[];

export const endpointsByName: ReadonlyMap<string, Endpoint> = new Map(
  endpoints.map((e): [string, Endpoint] => [e.name, e]),
);
