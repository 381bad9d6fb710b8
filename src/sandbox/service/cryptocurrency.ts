/**
 * The sandbox's table of the service's cryptocurrency endpoints: listings, quotes, lists,
 * reference data, history, market pairs and the older versions. Each entry is written from
 * docs/service.md, "Endpoints"; groups are named as the route modules that answer them.
 */
import type { z } from 'zod';
import { endpoint, perCall, perItems } from './define.js';
import { CANDLE_INTERVALS, QUOTE_INTERVALS } from './market.js';
import {
  choice,
  convert,
  convertRule,
  decimal,
  exactlyOne,
  exclusive,
  flag,
  ids,
  inOrder,
  names,
  offset,
  one,
  oneId,
  oneSlug,
  oneSymbol,
  type Rule,
  range,
  slugs,
  symbols,
  time,
  timeRule,
  whole,
} from './params.js';
import { PLANS, plansFrom } from './plans.js';
import { intervalSeconds } from './time.js';

const LISTING_AUX = [
  ...['num_market_pairs', 'svc_rank', 'date_added', 'tags', 'platform', 'max_supply', 'circulating_supply'],
  ...['total_supply', 'market_cap_by_total_supply', 'volume_24h_reported', 'volume_7d', 'volume_7d_reported'],
  ...['volume_30d', 'volume_30d_reported'],
];
export const INFO_AUX = [
  'urls',
  'logo',
  'description',
  'tags',
  'platform',
  'date_added',
  'notice',
  'status',
] as const;
const SORT_DIR = choice(['asc', 'desc']);
const CRYPTOCURRENCY_TYPE = choice(['all', 'coins', 'tokens']);
const RANGED = ['price', 'market_cap', 'volume_24h', 'circulating_supply', 'percent_change_24h'] as const;

/** Assets named one way: by ids, slugs or symbols (lists). */
const named = () => ({ id: ids().optional(), slug: slugs().optional(), symbol: symbols().optional() });
const skipInvalid = { skip_invalid: flag().optional() };

const amount = () => decimal(0, 1e17).optional();
const percent = () => decimal(-100, 1e9).optional();

function listings(path: string, tag: z.ZodType<string>) {
  return endpoint({
    path,
    params: {
      start: offset(),
      limit: whole(1, 5000).default(100),
      price_min: amount(),
      price_max: amount(),
      market_cap_min: amount(),
      market_cap_max: amount(),
      volume_24h_min: amount(),
      volume_24h_max: amount(),
      circulating_supply_min: amount(),
      circulating_supply_max: amount(),
      percent_change_24h_min: percent(),
      percent_change_24h_max: percent(),
      ...convert(120),
      sort: choice([
        ...['market_cap', 'volume_24h', 'percent_change_24h', 'price', 'name', 'date_added', 'symbol'],
        ...['circulating_supply', 'total_supply', 'max_supply', 'num_market_pairs', 'percent_change_1h'],
        ...[
          'percent_change_7d',
          'market_cap_strict',
          'market_cap_by_total_supply_strict',
          'volume_7d',
          'volume_30d',
        ],
      ] as const).optional(),
      sort_dir: SORT_DIR.optional(),
      cryptocurrency_type: CRYPTOCURRENCY_TYPE.optional(),
      tag: tag.optional(),
      aux: names([...LISTING_AUX, 'is_market_cap_included_in_calc']).optional(),
    },
    rules: [convertRule, ...RANGED.map((n) => inOrder(`${n}_min`, `${n}_max`, 'greater than'))],
    plans: PLANS,
    credits: perItems(200, { convert: true }),
    refreshSeconds: 60,
  });
}

const quotes = (path: string) =>
  endpoint({
    path,
    params: {
      ...named(),
      ...convert(120),
      ...skipInvalid,
      aux: names([...LISTING_AUX, 'is_active', 'is_fiat']).optional(),
    },
    rules: [convertRule, exactlyOne('id', 'slug', 'symbol')],
    plans: PLANS,
    credits: perItems(100, { convert: true }),
    refreshSeconds: 60,
  });

export const cryptocurrency = {
  listingsLatest: listings(
    '/v3/cryptocurrency/listings/latest',
    one(/^[a-z0-9-]+$/, 64, 'must be a tag, e.g. defi'),
  ),
  quotesLatest: quotes('/v3/cryptocurrency/quotes/latest'),
};

export const legacy = {
  listingsLatestV1: listings('/v1/cryptocurrency/listings/latest', choice(['all', 'defi', 'filesharing'])),
  quotesLatestV2: quotes('/v2/cryptocurrency/quotes/latest'),
};

const from = plansFrom;
const page = (most: number) => ({ start: offset(), limit: whole(1, most).default(100) });
const trendingPeriods = <const T extends readonly [string, ...string[]]>(periods: T) =>
  choice(periods).default('24h' as T[number]);
const trendingList = (path: string, refreshSeconds: number) =>
  endpoint({
    path,
    params: { ...page(1000), time_period: trendingPeriods(['24h', '7d', '30d']), ...convert(120) },
    rules: [convertRule],
    plans: from('startup'),
    credits: perItems(200, { convert: true }),
    refreshSeconds,
  });

export const lists = {
  newCryptocurrencies: endpoint({
    path: '/v1/cryptocurrency/listings/new',
    params: { ...page(5000), ...convert(120), sort_dir: SORT_DIR.optional() },
    rules: [convertRule],
    plans: from('startup'),
    credits: perItems(200, { convert: true }),
    refreshSeconds: 60,
  }),
  gainersLosers: endpoint({
    path: '/v1/cryptocurrency/trending/gainers-losers',
    params: {
      ...page(1000),
      time_period: trendingPeriods(['1h', '24h', '7d', '30d']),
      ...convert(120),
      sort_dir: SORT_DIR.optional(),
    },
    rules: [convertRule],
    plans: from('startup'),
    credits: perItems(200, { convert: true }),
    refreshSeconds: 600,
  }),
  trendingLatest: trendingList('/v1/cryptocurrency/trending/latest', 600),
  mostVisited: trendingList('/v1/cryptocurrency/trending/most-visited', 86_400),
  listingsHistorical: endpoint({
    path: '/v1/cryptocurrency/listings/historical',
    params: {
      date: time(),
      ...page(5000),
      ...convert(120),
      sort: choice([
        ...['svc_rank', 'name', 'symbol', 'market_cap', 'price', 'circulating_supply', 'total_supply'],
        ...['max_supply', 'num_market_pairs', 'volume_24h', 'percent_change_1h', 'percent_change_24h'],
        'percent_change_7d',
      ] as const).optional(),
      sort_dir: SORT_DIR.optional(),
      cryptocurrency_type: CRYPTOCURRENCY_TYPE.optional(),
      aux: names([
        ...['platform', 'tags', 'date_added', 'circulating_supply', 'total_supply', 'max_supply'],
        ...['svc_rank', 'num_market_pairs'],
      ]).optional(),
    },
    rules: [convertRule],
    plans: from('hobbyist'),
    credits: perItems(100, { convert: true }),
    refreshSeconds: 86_400,
  }),
};

export const reference = {
  cryptocurrencyMap: endpoint({
    path: '/v1/cryptocurrency/map',
    params: {
      listing_status: names(['active', 'inactive', 'untracked']).optional(),
      start: offset(),
      limit: whole(1, 5000).optional(),
      sort: choice(['id', 'svc_rank']).default('id'),
      symbol: symbols().optional(),
      aux: names([
        'platform',
        'first_historical_data',
        'last_historical_data',
        'is_active',
        'status',
      ]).optional(),
    },
    plans: PLANS,
    credits: perCall(0),
    refreshSeconds: 30,
  }),
  cryptocurrencyInfo: endpoint({
    path: '/v2/cryptocurrency/info',
    params: {
      ...named(),
      address: one(
        /^[0-9A-Za-z]{20,128}$/,
        128,
        'must be a contract address (20 to 128 letters and digits)',
      ).optional(),
      ...skipInvalid,
      aux: names(INFO_AUX).optional(),
    },
    rules: [exactlyOne('id', 'slug', 'symbol', 'address')],
    plans: PLANS,
    credits: perItems(100),
    refreshSeconds: 30,
  }),
  categories: endpoint({
    path: '/v1/cryptocurrency/categories',
    params: { start: offset(), limit: whole(1, 5000).optional(), ...named() },
    plans: PLANS,
    credits: perItems(200, { base: 1 }),
    refreshSeconds: 30,
  }),
  categoryCoins: endpoint({
    path: '/v1/cryptocurrency/category',
    params: {
      id: one(/^[0-9a-f]{24}$/, 24, 'must be a category id of 24 hex digits'),
      ...page(1000),
      ...convert(120),
    },
    rules: [convertRule],
    plans: PLANS,
    credits: perItems(200, { base: 1, convert: true }),
    refreshSeconds: 30,
  }),
};

/** Daily candles spaced closer than a day would repeat one candle: refused. */
const spacingFitsCandle: Rule = (p) =>
  p.time_period !== 'hourly' && p.interval !== undefined && intervalSeconds(p.interval as string) < 86_400
    ? {
        name: 'interval',
        message: 'must be daily or longer with daily candles; for hourly candles send time_period=hourly',
      }
    : undefined;

export const history = {
  pricePerformance: endpoint({
    path: '/v2/cryptocurrency/price-performance-stats/latest',
    params: {
      ...named(),
      time_period: names(['all_time', 'yesterday', '24h', '7d', '30d', '90d', '365d']).optional(),
      ...convert(120),
      ...skipInvalid,
    },
    rules: [convertRule, exactlyOne('id', 'slug', 'symbol')],
    plans: from('startup'),
    credits: perItems(100, { convert: true }),
    refreshSeconds: 60,
  }),
  quotesHistorical: endpoint({
    path: '/v3/cryptocurrency/quotes/historical',
    params: {
      id: ids().optional(),
      symbol: symbols().optional(),
      ...range(),
      count: whole(1, 10_000).default(10),
      interval: choice(QUOTE_INTERVALS).default('5m'),
      ...convert(3),
      ...skipInvalid,
      aux: names([
        ...['price', 'volume', 'market_cap', 'circulating_supply', 'total_supply', 'quote_timestamp'],
        ...['is_active', 'is_fiat', 'search_interval'],
      ]).optional(),
    },
    rules: [convertRule, timeRule, exactlyOne('id', 'symbol')],
    plans: from('hobbyist'),
    credits: perItems(100, { convert: true }),
    refreshSeconds: 300,
  }),
  ohlcvHistorical: endpoint({
    path: '/v2/cryptocurrency/ohlcv/historical',
    params: {
      ...named(),
      time_period: choice(['daily', 'hourly']).optional(),
      ...range(),
      count: whole(1, 10_000).default(10),
      interval: choice(CANDLE_INTERVALS).default('daily'),
      ...convert(3),
      ...skipInvalid,
    },
    rules: [convertRule, timeRule, exactlyOne('id', 'slug', 'symbol'), spacingFitsCandle],
    plans: from('startup'),
    credits: perItems(100, { convert: true }),
    refreshSeconds: 300,
  }),
  ohlcvLatest: endpoint({
    path: '/v2/cryptocurrency/ohlcv/latest',
    params: { id: ids().optional(), symbol: symbols().optional(), ...convert(120), ...skipInvalid },
    rules: [convertRule, exactlyOne('id', 'symbol')],
    plans: from('startup'),
    credits: perItems(100, { convert: true }),
    refreshSeconds: 600,
  }),
};

export const marketPairs = {
  marketPairs: endpoint({
    path: '/v2/cryptocurrency/market-pairs/latest',
    params: {
      id: oneId().optional(),
      slug: oneSlug().optional(),
      symbol: oneSymbol().optional(),
      ...page(5000),
      sort: choice([
        ...['volume_24h_strict', 'svc_rank', 'svc_rank_advanced', 'effective_liquidity'],
        ...['market_score', 'market_reputation'],
      ] as const).optional(),
      sort_dir: SORT_DIR.optional(),
      matched_id: ids().optional(),
      matched_symbol: symbols().optional(),
      category: choice(['all', 'spot', 'derivatives', 'otc', 'perpetual']).optional(),
      fee_type: choice(['all', 'percentage', 'no-fees', 'transactional-mining', 'unknown']).optional(),
      ...convert(120),
      aux: names([
        ...['num_market_pairs', 'category', 'fee_type', 'market_url', 'currency_name', 'currency_slug'],
        ...['price_quote', 'notice', 'svc_rank', 'effective_liquidity', 'market_score', 'market_reputation'],
      ]).optional(),
    },
    rules: [convertRule, exactlyOne('id', 'slug', 'symbol'), exclusive('matched_id', 'matched_symbol')],
    plans: from('standard'),
    credits: perItems(100, { convert: true }),
    refreshSeconds: 60,
  }),
};
