/** Cryptocurrency prices over time: quotes at intervals, and performance by period (OHLCV: ohlcv.ts). */
import { z } from 'zod';
import { formatMoney, formatPercent, formatPrice } from '../format/numbers.js';
import { seriesText } from '../format/series.js';
import { formatTime, lines, table } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { namedPages, seriesPages } from '../kit/pages.js';
import { convertExclusive, namesListParam, paramsObject, timeOrder } from '../kit/params.js';
import { historyByPlan, plansFrom } from '../kit/plans.js';
import { quoteEntry, quoteOf } from '../kit/quotes.js';
import { CALENDAR_INTERVALS, seriesReach, seriesServiceParams } from '../kit/series.js';
import { recordsOf } from '../kit/shapes.js';
import {
  currencyParams,
  exactlyOne,
  idsParam,
  namedCount,
  serviceSkipInvalid,
  skipInvalid,
  slugsParam,
  symbolsParam,
} from './asset-params.js';
import { seriesCredits, seriesLine, seriesParams } from './asset-series.js';

// ---------------------------------------------------------------- price performance

const PERFORMANCE_PERIODS = ['all_time', 'yesterday', '24h', '7d', '30d', '90d', '365d'] as const;
/** Periods whose high and low are dated to the minute, not the day. */
const SHORT_PERIODS: ReadonlySet<string> = new Set(['yesterday', '24h']);
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
  rowName: 'period',
  title: 'Price performance by period',
  toolset: 'cryptocurrency',
  path: '/v2/cryptocurrency/price-performance-stats/latest',
  summary:
    'Open, high, low (with times), close and change of assets over periods from 24h to all time: all-time highs and the like.',
  input: paramsObject(
    {
      id: idsParam,
      slug: slugsParam,
      symbol: symbolsParam,
      time_period: namesListParam(PERFORMANCE_PERIODS, 'Periods; default all_time.'),
      ...currencyParams(),
      skip_invalid: skipInvalid,
    },
    convertExclusive,
    exactlyOne('id', 'slug', 'symbol'),
  ),
  serviceParams: serviceSkipInvalid,
  output: z.object({ items: z.array(performance) }),
  credits: perItems({ per: 100, what: 'assets', items: namedCount, convert: true }),
  pages: namedPages({ fixed: 300, perCurrency: 1_400 }),
  // Paged by asset; kept a row per asset and period, each figure a column.
  rows: { points: 'periods' },
  refreshSeconds: 60,
  plans: plansFrom('startup'),
  normalise(body) {
    return { items: recordsOf(upstreamPerformance, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No performance figures: none of the assets asked for is known.';
    return lines(
      ...data.items.flatMap((a) => [
        `${a.name} (${a.symbol}), as of ${formatTime(a.last_updated)}:`,
        table(
          ['Period', 'Open', 'High', 'Low', 'Close', 'Change'],
          a.periods.map((p) => {
            const q = p.quote[0];
            const money = (v: number | undefined) => formatPrice(v, q?.currency);
            // Within a day or two, when in the day a high or low came says something; longer, its day.
            const dateOnly = !SHORT_PERIODS.has(p.period);
            const at = (time: string | null | undefined) => (time ? ` (${formatTime(time, dateOnly)})` : '');
            return [
              p.period,
              money(q?.open),
              `${money(q?.high)}${at(p.high_timestamp)}`,
              `${money(q?.low)}${at(p.low_timestamp)}`,
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
type QuoteSeries = z.infer<typeof quoteSeries>;
const upstreamQuoteSeries = lenient(quoteSeries, {
  quotes: z.array(lenient(pastQuotes, { quote: quoteOf(pastQuote) })),
});

/**
 * One asset's quotes on a page: the headline of all its quotes (`all`, the whole the page is of),
 * then every quote the page shows; one quote, one sentence.
 */
function quotesText(a: QuoteSeries, all: QuoteSeries, interval: string): string {
  const cur = a.quotes[0]?.quote[0]?.currency ?? 'USD';
  const prices = all.quotes.flatMap((q) =>
    q.quote[0]?.price === undefined ? [] : [{ time: q.timestamp, value: q.quote[0].price }],
  );
  return seriesText(a.quotes, {
    headline: () => seriesLine(a, prices, cur, `price at ${interval} steps`),
    header: ['Time', 'Price', 'Volume 24h', 'Market cap'],
    row: (q) => [
      formatTime(q.timestamp),
      formatPrice(q.quote[0]?.price, cur),
      formatMoney(q.quote[0]?.volume_24h, cur),
      formatMoney(q.quote[0]?.market_cap, cur),
    ],
    one: (q) =>
      `${a.symbol} on ${formatTime(q.timestamp)}: ${formatPrice(q.quote[0]?.price, cur)} (volume 24h ${formatMoney(q.quote[0]?.volume_24h, cur)}, market cap ${formatMoney(q.quote[0]?.market_cap, cur)})`,
    total: all.quotes.length,
  });
}

export const quotesHistorical = defineEndpoint({
  name: 'get_cryptocurrency_quotes_historical',
  rowName: 'point',
  title: 'Crypto quotes (historical)',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v3/cryptocurrency/quotes/historical',
  summary: `Past prices of coins: price on a date (January 1) or a year ago, price history over the last month or year, market cap, volume. ${historyByPlan(plansFrom('hobbyist'))}`,
  input: paramsObject(
    {
      id: idsParam,
      symbol: symbolsParam,
      ...seriesParams(QUOTE_HISTORY_INTERVALS, '5m'),
      ...currencyParams(3),
      skip_invalid: skipInvalid,
    },
    convertExclusive,
    timeOrder,
    exactlyOne('id', 'symbol'),
  ),
  serviceParams: {
    aux: namesListParam(QUOTE_HISTORY_AUX, 'Fields.'),
    ...seriesServiceParams,
    ...serviceSkipInvalid,
  },
  output: z.object({ interval: z.string(), items: z.array(quoteSeries) }),
  credits: seriesCredits(),
  pages: seriesPages({ fixed: 70, perCurrency: 200 }, { shape: 'per asset', time: 'timestamp' }),
  refreshSeconds: 300,
  plans: plansFrom('hobbyist'),
  reach: seriesReach,
  normalise(body, params) {
    return { interval: String(params.interval), items: recordsOf(upstreamQuoteSeries, dataOf(body)) };
  },
  summarise(data, _params, whole = data) {
    if (data.items.length === 0) return 'No quotes: none of the assets asked for is known.';
    return lines(...data.items.map((a, i) => quotesText(a, whole.items[i] ?? a, data.interval)));
  },
});
