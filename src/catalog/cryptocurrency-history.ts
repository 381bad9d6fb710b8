/** Cryptocurrency prices over time: OHLCV candles, quotes at intervals, and performance by period. */
import { z } from 'zod';
import { currencyLabel, formatMoney, formatPercent, formatPrice } from '../format/numbers.js';
import { describeSeries, samplePoints } from '../format/series.js';
import { formatTime, lines, table } from '../format/text.js';
import {
  currencyParams,
  exactlyOne,
  idsParam,
  namedCount,
  skipInvalid,
  slugsParam,
  symbolsParam,
  timeBoundParam,
  timeEndParam,
} from './asset-params.js';
import { perItems } from './credits.js';
import { dataOf, defineEndpoint } from './define.js';
import { lenient } from './lenient.js';
import { seriesPages, UNPAGED } from './pages.js';
import { convertExclusive, enumParam, intParam, namesListParam, paramsObject, timeOrder } from './params.js';
import { historyByPlan, plansFrom } from './plans.js';
import { quoteEntry, quoteOf } from './quotes.js';
import {
  CALENDAR_INTERVALS,
  expectedPoints,
  MAX_SERIES_COUNT,
  SERIES_COUNT_TEXT,
  seriesServiceParams,
} from './series.js';
import { recordsOf } from './shapes.js';

const STEP_INTERVALS = [
  ...['1h', '2h', '3h', '4h', '6h', '12h'],
  ...['1d', '2d', '3d', '7d', '14d', '15d', '30d', '60d', '90d', '365d'],
];

/** Series parameters: the time range, how many points, and how far apart. */
function seriesParams(intervals: readonly [string, ...string[]], defaultInterval: string) {
  return {
    time_start: timeBoundParam('Start'),
    time_end: timeEndParam,
    count: intParam(1, MAX_SERIES_COUNT, SERIES_COUNT_TEXT).optional(),
    interval: enumParam(intervals, 'Spacing.').default(defaultInterval),
  };
}

/** Data points a series call returns at most: periods per asset times assets. */
const seriesCredits = perItems({
  per: 100,
  what: 'points',
  items: (p: Parameters<typeof expectedPoints>[0] & { id?: string; slug?: string; symbol?: string }, now) =>
    expectedPoints(p, now) * namedCount(p),
  scales: 'count',
  convert: true,
});

/** Heading line of one asset's series: first, last, min, max and change of its first currency. */
function seriesLine(
  a: { name: string; symbol: string },
  points: { time: string; value: number }[],
  currency: string,
  what: string,
): string {
  const money = (v: number) => formatPrice(v, currency);
  return `${a.name} (${a.symbol}) ${what} in ${currencyLabel(currency)}, ${points.length} points: ${describeSeries(points, money)}`;
}

// ---------------------------------------------------------------- OHLCV historical

const candleQuote = quoteEntry(['open', 'high', 'low', 'close', 'volume', 'market_cap']);
const candle = z.object({
  time_open: z.string(),
  time_close: z.string().nullable().optional(),
  time_high: z.string().optional(),
  time_low: z.string().optional(),
  quote: z.array(candleQuote),
});
const ohlcvSeries = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  quotes: z.array(candle).describe('Candles, oldest first'),
});
const upstreamOhlcvSeries = lenient(ohlcvSeries, {
  quotes: z.array(lenient(candle, { quote: quoteOf(candleQuote) })),
});

export const ohlcvHistorical = defineEndpoint({
  name: 'get_ohlcv_historical',
  title: 'OHLCV candles (historical)',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v2/cryptocurrency/ohlcv/historical',
  summary: `Daily or hourly OHLCV candles of assets (time_start exclusive). ${historyByPlan(plansFrom('startup'))}`,
  input: paramsObject(
    {
      id: idsParam,
      slug: slugsParam,
      symbol: symbolsParam,
      time_period: enumParam(['daily', 'hourly'], 'Candle length; default daily.').optional(),
      ...seriesParams([...CALENDAR_INTERVALS, ...STEP_INTERVALS] as [string, ...string[]], 'daily'),
      ...currencyParams(3),
      skip_invalid: skipInvalid(true),
    },
    convertExclusive,
    timeOrder,
    exactlyOne('id', 'slug', 'symbol'),
  ),
  serviceParams: seriesServiceParams,
  output: z.object({ items: z.array(ohlcvSeries) }),
  credits: seriesCredits,
  pages: seriesPages({ fixed: 205, perCurrency: 200 }, { periods: 'candles' }),
  refreshSeconds: 300,
  plans: plansFrom('startup'),
  normalise(body) {
    return { items: recordsOf(upstreamOhlcvSeries, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No candles: none of the assets asked for is known.';
    const [lead, ...others] = data.items;
    const cur = lead.quotes[0]?.quote[0]?.currency ?? 'USD';
    const closes = (a: z.infer<typeof ohlcvSeries>) =>
      a.quotes.flatMap((c) =>
        c.quote[0]?.close === undefined ? [] : [{ time: c.time_open, value: c.quote[0].close }],
      );
    const shown = samplePoints(lead.quotes, 8);
    const money = (v: number | undefined) => formatPrice(v, cur);
    return lines(
      seriesLine(lead, closes(lead), cur, 'close'),
      table(
        ['Open time', 'Open', 'High', 'Low', 'Close', 'Volume'],
        shown.map((c) => {
          const q = c.quote[0];
          return [
            formatTime(c.time_open),
            money(q?.open),
            money(q?.high),
            money(q?.low),
            money(q?.close),
            formatMoney(q?.volume, cur),
          ];
        }),
      ),
      shown.length < lead.quotes.length &&
        `(${shown.length} of ${lead.quotes.length} candles shown; format=json has all)`,
      ...others
        .slice(0, 10)
        .map((a) => seriesLine(a, closes(a), a.quotes[0]?.quote[0]?.currency ?? cur, 'close')),
    );
  },
});

// ---------------------------------------------------------------- OHLCV latest

const latestCandleQuote = quoteEntry(['open', 'high', 'low', 'close', 'volume']);
const latestCandle = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  time_open: z.string().optional(),
  time_high: z.string().optional(),
  time_low: z.string().optional(),
  last_updated: z.string().optional(),
  quote: z.array(latestCandleQuote).describe('Today (UTC) so far; volume is the rolling 24h'),
});
const upstreamLatestCandle = lenient(latestCandle, { quote: quoteOf(latestCandleQuote) });

export const ohlcvLatest = defineEndpoint({
  name: 'get_ohlcv_latest',
  title: 'OHLCV candle (today so far)',
  toolset: 'cryptocurrency',
  path: '/v2/cryptocurrency/ohlcv/latest',
  summary: `Today's (UTC) open, high, low and latest price of assets, with 24h volume. ${UNPAGED}`,
  input: paramsObject(
    { id: idsParam, symbol: symbolsParam, ...currencyParams(), skip_invalid: skipInvalid(true) },
    convertExclusive,
    exactlyOne('id', 'symbol'),
  ),
  output: z.object({ items: z.array(latestCandle) }),
  credits: perItems({ per: 100, what: 'assets', items: namedCount, convert: true }),
  refreshSeconds: 600,
  plans: plansFrom('startup'),
  normalise(body) {
    return { items: recordsOf(upstreamLatestCandle, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No candles: none of the assets asked for is known.';
    const rows = data.items.flatMap((a) => a.quote.map((q) => ({ a, q })));
    return lines(
      `Today's candles (UTC, still open) as of ${formatTime(data.items[0].last_updated)}:`,
      table(
        ['Asset', 'Open', 'High', 'Low', 'Last', 'Volume 24h'],
        rows.slice(0, 20).map(({ a, q }) => {
          const money = (v: number | undefined) => formatPrice(v, q.currency);
          return [
            a.symbol,
            money(q.open),
            money(q.high),
            money(q.low),
            money(q.close),
            formatMoney(q.volume, q.currency),
          ];
        }),
      ),
    );
  },
});

// ---------------------------------------------------------------- price performance

const PERFORMANCE_PERIODS = ['all_time', 'yesterday', '24h', '7d', '30d', '90d', '365d'] as const;
const performanceQuote = quoteEntry(['open', 'high', 'low', 'close', 'percent_change', 'price_change']);
const period = z.object({
  period: z.string(),
  open_timestamp: z.string().optional(),
  high_timestamp: z.string().nullable().optional(),
  low_timestamp: z.string().nullable().optional(),
  close_timestamp: z.string().optional(),
  quote: z.array(performanceQuote),
});
const performance = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  slug: z.string().optional(),
  last_updated: z.string().optional(),
  periods: z.array(period),
});
const upstreamPeriod = lenient(period.omit({ period: true }), { quote: quoteOf(performanceQuote) });
/** `periods` is keyed by period name upstream. */
const upstreamPerformance = lenient(performance, {
  periods: z
    .record(z.string(), upstreamPeriod)
    .transform((keyed) => Object.entries(keyed).map(([name, p]) => ({ period: name, ...p }))),
});

export const pricePerformance = defineEndpoint({
  name: 'get_price_performance',
  title: 'Price performance by period',
  toolset: 'cryptocurrency',
  path: '/v2/cryptocurrency/price-performance-stats/latest',
  summary: `Open, high, low (with times), close and change of assets over periods from 24h to all time: all-time highs and the like. ${UNPAGED}`,
  input: paramsObject(
    {
      id: idsParam,
      slug: slugsParam,
      symbol: symbolsParam,
      time_period: namesListParam(PERFORMANCE_PERIODS, 'Periods; default all_time.'),
      ...currencyParams(),
      skip_invalid: skipInvalid(true),
    },
    convertExclusive,
    exactlyOne('id', 'slug', 'symbol'),
  ),
  output: z.object({ items: z.array(performance) }),
  credits: perItems({ per: 100, what: 'assets', items: namedCount, convert: true }),
  refreshSeconds: 60,
  plans: plansFrom('startup'),
  normalise(body) {
    return { items: recordsOf(upstreamPerformance, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No performance figures: none of the assets asked for is known.';
    return lines(
      ...data.items.slice(0, 10).flatMap((a) => [
        `${a.name} (${a.symbol}), as of ${formatTime(a.last_updated)}:`,
        table(
          ['Period', 'Open', 'High', 'Low', 'Close', 'Change'],
          a.periods.map((p) => {
            const q = p.quote[0];
            const money = (v: number | undefined) => formatPrice(v, q?.currency);
            return [
              p.period,
              money(q?.open),
              `${money(q?.high)}${p.high_timestamp ? ` (${formatTime(p.high_timestamp, true)})` : ''}`,
              `${money(q?.low)}${p.low_timestamp ? ` (${formatTime(p.low_timestamp, true)})` : ''}`,
              money(q?.close),
              formatPercent(q?.percent_change),
            ];
          }),
        ),
      ]),
    );
  },
});

// ---------------------------------------------------------------- quotes historical

const QUOTE_HISTORY_INTERVALS = [
  ...CALENDAR_INTERVALS,
  ...['5m', '10m', '15m', '30m', '45m'],
  ...['1h', '2h', '3h', '4h', '6h', '12h', '24h'],
  ...['1d', '2d', '3d', '7d', '14d', '15d', '30d', '60d', '90d', '365d'],
] as const;
const QUOTE_HISTORY_AUX = [
  'price',
  'volume',
  'market_cap',
  'circulating_supply',
  'total_supply',
  'quote_timestamp',
  'is_active',
  'is_fiat',
  'search_interval',
] as const;

const pastQuote = quoteEntry([
  'price',
  'volume_24h',
  'market_cap',
  'circulating_supply',
  'total_supply',
  'percent_change_24h',
]);
const pastQuotes = z.object({
  timestamp: z.string(),
  quote: z.array(pastQuote),
});
const quoteSeries = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  is_active: z.number().optional(),
  is_fiat: z.number().optional(),
  quotes: z.array(pastQuotes).describe('Oldest first; periods without data skipped'),
});
const upstreamQuoteSeries = lenient(quoteSeries, {
  quotes: z.array(lenient(pastQuotes, { quote: quoteOf(pastQuote) })),
});

export const quotesHistorical = defineEndpoint({
  name: 'get_cryptocurrency_quotes_historical',
  title: 'Crypto quotes (historical)',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v3/cryptocurrency/quotes/historical',
  summary: `Past price, volume and market cap of assets at intervals. ${historyByPlan(plansFrom('hobbyist'))}`,
  input: paramsObject(
    {
      id: idsParam,
      symbol: symbolsParam,
      ...seriesParams(QUOTE_HISTORY_INTERVALS, '5m'),
      ...currencyParams(3),
      skip_invalid: skipInvalid(true),
    },
    convertExclusive,
    timeOrder,
    exactlyOne('id', 'symbol'),
  ),
  serviceParams: { aux: namesListParam(QUOTE_HISTORY_AUX, 'Fields.'), ...seriesServiceParams },
  output: z.object({ interval: z.string(), items: z.array(quoteSeries) }),
  credits: seriesCredits,
  pages: seriesPages({ fixed: 70, perCurrency: 200 }),
  refreshSeconds: 300,
  plans: plansFrom('hobbyist'),
  normalise(body, params) {
    return { interval: params.interval, items: recordsOf(upstreamQuoteSeries, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No quotes: none of the assets asked for is known.';
    const [lead, ...others] = data.items;
    const cur = lead.quotes[0]?.quote[0]?.currency ?? 'USD';
    const prices = (a: z.infer<typeof quoteSeries>) =>
      a.quotes.flatMap((q) =>
        q.quote[0]?.price === undefined ? [] : [{ time: q.timestamp, value: q.quote[0].price }],
      );
    const shown = samplePoints(lead.quotes, 8);
    return lines(
      seriesLine(lead, prices(lead), cur, `price at ${data.interval} steps`),
      table(
        ['Time', 'Price', 'Volume 24h', 'Market cap'],
        shown.map((q) => [
          formatTime(q.timestamp),
          formatPrice(q.quote[0]?.price, cur),
          formatMoney(q.quote[0]?.volume_24h, cur),
          formatMoney(q.quote[0]?.market_cap, cur),
        ]),
      ),
      shown.length < lead.quotes.length &&
        `(${shown.length} of ${lead.quotes.length} quotes shown; format=json has all)`,
      ...others
        .slice(0, 10)
        .map((a) => seriesLine(a, prices(a), a.quotes[0]?.quote[0]?.currency ?? cur, 'price')),
    );
  },
});
