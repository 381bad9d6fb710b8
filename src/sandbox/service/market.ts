/**
 * The sandbox's table of the service's market-wide endpoints: global metrics, sentiment, indices,
 * community, DEX platforms, content, charts, utilities and the key. Each entry is written from
 * docs/service.md, "Endpoints"; groups are named as the route modules that answer them.
 */
import { endpoint, perCall, perItems } from './define.js';
import {
  choice,
  convert,
  convertRule,
  decimal,
  exactlyOne,
  flag,
  ids,
  inOrder,
  MAX_OFFSET,
  names,
  one,
  oneId,
  oneSlug,
  oneSymbol,
  range,
  slugs,
  symbols,
  time,
  timeRule,
  whole,
} from './params.js';
import { PLANS, plansFrom } from './plans.js';

export const GLOBAL_HISTORY_AUX = [
  'btc_dominance',
  'eth_dominance',
  'active_cryptocurrencies',
  'active_exchanges',
  'active_market_pairs',
  'total_volume_24h',
  'total_volume_24h_reported',
  'altcoin_market_cap',
  'altcoin_volume_24h',
  'altcoin_volume_24h_reported',
  'search_interval',
] as const;

const CALENDAR = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
const MINUTES = ['5m', '10m', '15m', '30m', '45m'] as const;
const HOURS = ['1h', '2h', '3h', '4h', '6h', '12h'] as const;
const DAYS = ['1d', '2d', '3d', '7d', '14d', '15d', '30d', '60d', '90d', '365d'] as const;
/** The intervals of the global metrics' history; the quotes' history adds 24h, the candles' drop minutes. */
export const SERIES_INTERVALS = [...CALENDAR, ...MINUTES, ...HOURS, ...DAYS] as const;
export const QUOTE_INTERVALS = [...CALENDAR, ...MINUTES, ...HOURS, '24h', ...DAYS] as const;
export const CANDLE_INTERVALS = [...CALENDAR, ...HOURS, ...DAYS] as const;

/** The fiat map's metals, by symbol and id. */
export const METAL_IDS = { XAU: 3575, XAG: 3574, XPT: 3577, XPD: 3576 } as const;

const from = plansFrom;

export const globalMetrics = {
  globalMetricsLatest: endpoint({
    path: '/v1/global-metrics/quotes/latest',
    params: convert(120),
    rules: [convertRule],
    plans: PLANS,
    credits: perCall(1, { convert: true }),
    refreshSeconds: 300,
  }),
  globalMetricsHistorical: endpoint({
    path: '/v1/global-metrics/quotes/historical',
    params: {
      ...range(),
      count: whole(1, 10_000).default(10),
      interval: choice(SERIES_INTERVALS).default('1d'),
      ...convert(4, ' (USD and up to 3 others)'),
      aux: names(GLOBAL_HISTORY_AUX).optional(),
    },
    rules: [convertRule, timeRule],
    plans: PLANS,
    credits: perItems(100),
    refreshSeconds: 300,
  }),
};

export const sentiment = {
  fearAndGreedLatest: endpoint({
    path: '/v3/fear-and-greed/latest',
    params: {},
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 900,
  }),
  fearAndGreedHistorical: endpoint({
    path: '/v3/fear-and-greed/historical',
    params: { start: whole(1, MAX_OFFSET).default(1), limit: whole(1, 500).default(50) },
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 15,
  }),
  altcoinSeasonLatest: endpoint({
    path: '/v1/altcoin-season-index/latest',
    params: {},
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 900,
  }),
  altcoinSeasonHistorical: endpoint({
    path: '/v1/altcoin-season-index/historical',
    params: { timeframe: choice(['7d', '30d', '90d']).default('7d') },
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 900,
  }),
};

/** At most 10 values when both ends of the range are given (the spec's indices' rule). */
const tenWithBothEnds = (p: Record<string, unknown>) =>
  p.time_start !== undefined && p.time_end !== undefined && (p.count as number) > 10
    ? { name: 'count', message: 'must be at most 10 when both time_start and time_end are given' }
    : undefined;

const indexHistory = (path: string) =>
  endpoint({
    path,
    params: {
      ...range(),
      count: whole(1, 100).default(5),
      interval: choice(['5m', '15m', 'daily']).default('daily'),
    },
    rules: [timeRule, tenWithBothEnds],
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 300,
  });
const indexLatest = (path: string) =>
  endpoint({ path, params: {}, plans: PLANS, credits: perCall(1), refreshSeconds: 300 });

export const indices = {
  svc100Latest: indexLatest('/v3/index/svc100-latest'),
  svc100Historical: indexHistory('/v3/index/svc100-historical'),
  svc20Latest: indexLatest('/v3/index/svc20-latest'),
  svc20Historical: indexHistory('/v3/index/svc20-historical'),
};

const trending = (path: string) =>
  endpoint({
    path,
    params: { limit: whole(1, 5).default(5) },
    plans: from('standard'),
    credits: perCall(0),
    refreshSeconds: 60,
  });

export const community = {
  trendingTokens: trending('/v1/community/trending/token'),
  trendingTopics: trending('/v1/community/trending/topic'),
};

/** The platforms' credits are not documented: 1 per call is assumed (docs/service.md, "What the project assumed"). */
export const dex = {
  dexPlatforms: endpoint({
    path: '/v1/dex/platform/list',
    params: {},
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 3600,
  }),
  dexPlatform: endpoint({
    path: '/v1/dex/platform/detail',
    params: {
      platformName: one(/^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,63}$/, 64, 'must be a platform name, e.g. Solana'),
    },
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 3600,
  }),
};

const postsAbout = (path: string, lastScore: string) =>
  endpoint({
    path,
    params: {
      id: oneId().optional(),
      slug: oneSlug().optional(),
      symbol: oneSymbol().optional(),
      last_score: one(
        /^\d+(\.\d+)?$/,
        40,
        `must be the last_score of the previous page (${lastScore})`,
      ).optional(),
    },
    plans: from('standard'),
    credits: perCall(0),
    refreshSeconds: 300,
  });

export const content = {
  latestContent: endpoint({
    path: '/v1/content/latest',
    params: {
      start: whole(1, MAX_OFFSET).default(1),
      limit: whole(1, 200).default(100),
      id: ids().optional(),
      slug: slugs().optional(),
      symbol: symbols().optional(),
      news_type: names(['news', 'community', 'alexandria', 'all']).optional(),
      content_type: names(['audio', 'news', 'video', 'all']).optional(),
      category: one(/^[\w .&-]+(,[\w .&-]+)*$/, 500, 'must be category names separated by commas').optional(),
      language: choice([
        ...['en', 'zh', 'zh-tw', 'de', 'id', 'ja', 'ko', 'es', 'th', 'tr', 'vi'],
        ...['ru', 'fr', 'nl', 'ar', 'pt-br', 'hi', 'pl', 'uk', 'fil-rph', 'it'],
      ] as const).optional(),
    },
    plans: from('standard'),
    credits: perCall(0),
    refreshSeconds: 300,
  }),
  latestPosts: postsAbout('/v1/content/posts/latest', 'a time'),
  topPosts: postsAbout('/v1/content/posts/top', 'a score'),
  postComments: endpoint({
    path: '/v1/content/posts/comments',
    params: { post_id: one(/^\d+$/, 30, 'must be a post id, e.g. 1234567') },
    plans: from('standard'),
    credits: perCall(0),
    refreshSeconds: 300,
  }),
};

/** Not documented: credits estimated at 1 per started 100 points (docs/service.md, "What the project assumed"). */
const chart = (path: string) =>
  endpoint({
    path,
    params: {
      platform: one(/^[A-Za-z0-9 ._-]+$/, 50, 'must be a chain name or id, e.g. solana'),
      address: one(/^[0-9A-Za-z]{20,128}$/, 128, 'must be a contract address (20 to 128 letters and digits)'),
      interval: choice([
        ...['1s', '5s', '30s', '1min', '3min', '5min', '15min', '30min'],
        ...['1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1m'],
      ] as const).optional(),
      from: whole(0, 4_102_444_800).optional(),
      to: whole(0, 4_102_444_800).optional(),
      unit: choice(['usd', 'native', 'quote']).optional(),
      limit: whole(1, 1000).default(100),
      pm: choice(['p', 'm']).optional(),
    },
    rules: [inOrder('from', 'to')],
    plans: PLANS,
    credits: perItems(100),
    refreshSeconds: 60,
  });

export const kline = {
  klineCandles: chart('/v1/k-line/candles'),
  klinePoints: chart('/v1/k-line/points'),
};

export const utilities = {
  priceConversion: endpoint({
    path: '/v2/tools/price-conversion',
    params: {
      amount: decimal(1e-8, 1e12),
      id: oneId().optional(),
      symbol: oneSymbol().optional(),
      time: time().optional(),
      ...convert(120),
    },
    rules: [convertRule, exactlyOne('id', 'symbol')],
    plans: PLANS,
    credits: perCall(1, { convert: true }),
    refreshSeconds: 60,
  }),
  fiatMap: endpoint({
    path: '/v1/fiat/map',
    params: {
      start: whole(1, MAX_OFFSET).default(1),
      limit: whole(1, 5000).optional(),
      sort: choice(['id', 'name']).optional(),
      include_metals: flag().optional(),
    },
    plans: PLANS,
    credits: perCall(1),
    refreshSeconds: 30,
  }),
};

export const account = {
  keyInfo: endpoint({
    path: '/v1/key/info',
    params: {},
    plans: PLANS,
    credits: perCall(0),
    refreshSeconds: 0,
  }),
};
