/** Global market totals: the latest figures and a historical series. */
import { z } from 'zod';
import { currencyLabel } from '../currency-ids.js';
import { formatMoney, formatNumber, formatShare } from '../format/numbers.js';
import { describeSeries, seriesText } from '../format/series.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { perCall, perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { seriesPages } from '../kit/pages.js';
import {
  convertExclusive,
  enumParam,
  intParam,
  namesListParam,
  paramsObject,
  timeOrder,
} from '../kit/params.js';
import { ALL_PLANS, historyByPlan } from '../kit/plans.js';
import { quoteEntry, quoteOf } from '../kit/quotes.js';
import {
  CALENDAR_INTERVALS,
  expectedPoints,
  MAX_SERIES_COUNT,
  SERIES_COUNT_TEXT,
  seriesReach,
  seriesServiceParams,
} from '../kit/series.js';
import { currencyParams, timeBoundParam, timeEndParam } from './asset-params.js';

const currencyFigures = quoteEntry([
  'total_market_cap',
  'total_volume_24h',
  'total_volume_24h_reported',
  'altcoin_market_cap',
  'altcoin_volume_24h',
  'altcoin_volume_24h_reported',
]);

// ---------------------------------------------------------------- latest

const latestOutput = z.object({
  last_updated: z.string().optional(),
  btc_dominance: z.number().optional().describe('Percent of the total cap'),
  eth_dominance: z.number().optional().describe('Percent of the total cap'),
  active_cryptocurrencies: z.number().optional(),
  total_cryptocurrencies: z.number().optional(),
  active_market_pairs: z.number().optional(),
  active_exchanges: z.number().optional(),
  total_exchanges: z.number().optional(),
  quotes: z.array(currencyFigures).describe('One entry per currency'),
});

/** Upstream, the quotes are `quote`, keyed by currency or listed. */
const upstreamLatest = lenient(latestOutput, { quotes: ['quote', quoteOf(currencyFigures)] });

export const globalMetricsLatest = defineEndpoint({
  name: 'get_global_metrics_latest',
  title: 'Crypto market totals (latest)',
  toolset: 'global_metrics',
  inDefault: true,
  path: '/v1/global-metrics/quotes/latest',
  summary:
    'Whole crypto market now, today: total market cap (size), 24h trading volume, bitcoin and ethereum dominance, how many coins and exchanges exist.',
  input: paramsObject(currencyParams(), convertExclusive),
  output: latestOutput,
  credits: perCall(1, { convert: true }),
  refreshSeconds: 300,
  plans: ALL_PLANS,
  normalise(body) {
    return parseBody(upstreamLatest, dataOf(body));
  },
  summarise(data) {
    const [main, ...others] = data.quotes;
    const cur = main?.currency ?? 'USD';
    return lines(
      `Crypto market cap ${formatMoney(main?.total_market_cap, cur)}, 24h volume ${formatMoney(main?.total_volume_24h, cur)} (${formatTime(data.last_updated)})`,
      `BTC dominance ${formatShare(data.btc_dominance)}, ETH dominance ${formatShare(data.eth_dominance)}, altcoin cap ${formatMoney(main?.altcoin_market_cap, cur)}`,
      `${formatNumber(data.active_cryptocurrencies)} active cryptocurrencies, ${formatNumber(data.active_exchanges)} active exchanges, ${formatNumber(data.active_market_pairs)} market pairs`,
      others.length > 0 &&
        table(
          ['Currency', 'Market cap', '24h volume'],
          others.map((q) => [
            currencyLabel(q.currency),
            formatMoney(q.total_market_cap, q.currency),
            formatMoney(q.total_volume_24h, q.currency),
          ]),
        ),
    );
  },
});

// ---------------------------------------------------------------- historical

const GLOBAL_HISTORY_INTERVALS = [
  ...CALENDAR_INTERVALS,
  ...['5m', '10m', '15m', '30m', '45m'],
  ...['1h', '2h', '3h', '4h', '6h', '12h'],
  ...['1d', '2d', '3d', '7d', '14d', '15d', '30d', '60d', '90d', '365d'],
] as const;

const GLOBAL_HISTORY_AUX = [
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

const historicalInput = paramsObject(
  {
    time_start: timeBoundParam(),
    time_end: timeEndParam,
    count: intParam(1, MAX_SERIES_COUNT, SERIES_COUNT_TEXT).optional(),
    interval: enumParam(GLOBAL_HISTORY_INTERVALS).default('1d'),
    ...currencyParams(4, ' (the first plus up to 3 others)'),
  },
  convertExclusive,
  timeOrder,
);

const historicalQuote = z.object({
  timestamp: z.string(),
  btc_dominance: z.number().optional(),
  eth_dominance: z.number().optional(),
  active_cryptocurrencies: z.number().optional(),
  active_exchanges: z.number().optional(),
  active_market_pairs: z.number().optional(),
  quote: z.array(currencyFigures),
});

const historicalOutput = z.object({
  interval: z.string(),
  quotes: z.array(historicalQuote).describe('Oldest first; periods without data skipped'),
});

const upstreamHistorical = z.looseObject({
  quotes: z.array(lenient(historicalQuote, { quote: quoteOf(currencyFigures) })),
});

export const globalMetricsHistorical = defineEndpoint({
  name: 'get_global_metrics_historical',
  rowName: 'point',
  title: 'Crypto market totals (historical)',
  toolset: 'global_metrics',
  inDefault: true,
  path: '/v1/global-metrics/quotes/historical',
  summary: `Whole crypto market over time: how total market cap (size), volume and bitcoin dominance changed over the past year or since 2022. ${historyByPlan(ALL_PLANS)}`,
  input: historicalInput,
  serviceParams: {
    aux: namesListParam(GLOBAL_HISTORY_AUX, 'Supplemental fields.'),
    ...seriesServiceParams,
  },
  output: historicalOutput,
  credits: perItems({ per: 100, what: 'points', items: expectedPoints, scales: 'count' }),
  pages: seriesPages({ fixed: 240, perCurrency: 310 }, { shape: { list: 'quotes' }, time: 'timestamp' }),
  refreshSeconds: 300,
  plans: ALL_PLANS,
  reach: seriesReach,
  normalise(body, params) {
    const data = parseBody(upstreamHistorical, dataOf(body));
    return { interval: params.interval, quotes: data.quotes };
  },
  summarise(data, _params, whole = data) {
    const cur = currencyLabel(data.quotes[0]?.quote[0]?.currency ?? 'USD');
    const caps = whole.quotes
      .map((q) => ({ time: q.timestamp, value: q.quote[0]?.total_market_cap }))
      .filter((p): p is { time: string; value: number } => p.value !== undefined);
    if (data.quotes.length === 0)
      return 'No global market quotes in that range (periods without data are skipped).';
    const money = (v: number | undefined) => formatMoney(v ?? Number.NaN, cur);
    return seriesText(data.quotes, {
      headline: () =>
        `Total market cap (${cur}), ${counted(whole.quotes.length, 'point')} at ${data.interval} steps: ${describeSeries(caps, money)}`,
      header: ['Time', 'Market cap', '24h volume', 'BTC dom.'],
      row: (q) => [
        formatTime(q.timestamp),
        money(q.quote[0]?.total_market_cap),
        money(q.quote[0]?.total_volume_24h),
        formatShare(q.btc_dominance),
      ],
      one: (q) =>
        `Total market cap (${cur}) at ${formatTime(q.timestamp)}: ${money(q.quote[0]?.total_market_cap)}, 24h volume ${money(q.quote[0]?.total_volume_24h)}, BTC dominance ${formatShare(q.btc_dominance)}`,
      total: whole.quotes.length,
    });
  },
});
